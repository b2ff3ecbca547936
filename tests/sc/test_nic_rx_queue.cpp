// The NIC's receive queue without a hidden call: a NIC whose TLM socket is bound keeps its
// deliveries from the start of simulation, so software that reads long after the message arrived
// still finds it; a queue turned off refuses kRxCount and kRxPop with a TLM error response and one
// line naming enable_rx_queue(true). A NIC with nothing bound keeps none (traffic runs).
#include <catch2/catch.hpp>

#include <algorithm>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>

#include <systemc>
#include <tlm>

#include "systemc/net/network.h"
#include "tests/sc/harness.h"

using namespace wormcast;

namespace {

struct Seen {
  bool count_ok = false, pop_ok = false, pop_again_ok = false;
  uint32_t count = 0;
  RxDescriptor popped;
};

/// Node 0 sends one 8-flit message to node 5 at cycle 0; node 5's software first looks at cycle 100,
/// long after the tail arrived.
void send_then_read_late(test::TlmPlatform& p, Seen& seen) {
  unsigned char desc[TxDescriptor::kBytes];
  TxDescriptor{5, 8, 42, 0}.pack(desc);
  REQUIRE(test::tlm_access(p.tx, tlm::TLM_WRITE_COMMAND, nic_reg::kTx, desc, sizeof desc));
  sc_core::wait(p.clk.period() * 100);
  seen.count_ok = test::tlm_access(p.rx, tlm::TLM_READ_COMMAND, nic_reg::kRxCount,
                                   reinterpret_cast<unsigned char*>(&seen.count), 4);
  unsigned char buf[RxDescriptor::kBytes];
  seen.pop_ok = test::tlm_access(p.rx, tlm::TLM_READ_COMMAND, nic_reg::kRxPop, buf, sizeof buf);
  seen.popped = RxDescriptor::unpack(buf);
  seen.pop_again_ok = test::tlm_access(p.rx, tlm::TLM_READ_COMMAND, nic_reg::kRxPop, buf, sizeof buf);
}

}  // namespace

TEST_CASE("nic rx queue: a NIC with its socket bound keeps a delivery that software reads long after it arrived",
          "[sc]") {
  Seen seen;
  test::TlmPlatform top("top", test::config_for("4x4", "torus"),
                        [&](test::TlmPlatform& p) { send_then_read_late(p, seen); });
  sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_US));
  CHECK(top.net->nic(5).rx_queue_enabled());
  CHECK_FALSE(top.net->nic(3).rx_queue_enabled());  // nothing bound: deliveries only counted
  CHECK(seen.count_ok);
  CHECK(seen.count == 1);
  REQUIRE(seen.pop_ok);
  CHECK(seen.popped.d.src == 0);
  CHECK(seen.popped.d.tag == 42);
  CHECK(seen.popped.d.length == 8);
  CHECK(seen.popped.d.arrival < 100);  // arrived before software first looked
  CHECK_FALSE(seen.pop_again_ok);  // empty queue: an error, as before
  CHECK(top.net->scoreboard().error_count() == 0);
}

TEST_CASE("nic rx queue: with the queue turned off, kRxCount and kRxPop are TLM errors and one line names "
          "enable_rx_queue(true)",
          "[sc]") {
  Seen seen;
  test::TlmPlatform top("top", test::config_for("4x4", "torus"),
                        [&](test::TlmPlatform& p) { send_then_read_late(p, seen); });
  top.net->nic(5).enable_rx_queue(false);
  std::ostringstream err;
  std::streambuf* old = std::cerr.rdbuf(err.rdbuf());
  sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_US));
  std::cerr.rdbuf(old);
  CHECK_FALSE(seen.count_ok);
  CHECK_FALSE(seen.pop_ok);
  const std::string text = err.str();
  INFO(text);
  CHECK(text.find("top.net.") == 0);
  CHECK(text.find("kRxCount read with the receive queue off") != std::string::npos);
  CHECK(text.find("enable_rx_queue(true)") != std::string::npos);
  CHECK(std::count(text.begin(), text.end(), '\n') == 1);  // once, not per read
  CHECK(top.net->scoreboard().delivered_packets() == 1);  // delivered, counted, not queued
}
