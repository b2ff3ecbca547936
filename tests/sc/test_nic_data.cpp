// Message data through the NIC's TLM registers: bytes written to kTxData before a send travel
// with the message and are read back at the receiver from kRxData after kRxPop (also by debug
// transport); more bytes than the message's flits hold (8 per flit) are refused.
#include <catch2/catch.hpp>

#include <memory>
#include <vector>

#include <systemc>
#include <tlm>

#include "systemc/net/network.h"
#include "tests/sc/harness.h"

using namespace wormcast;

namespace {

struct Result {
  std::vector<uint8_t> got, dbg;
  bool too_much_refused = false;
  uint32_t length = 0;
};

void send_and_read_data(test::TlmPlatform& p, Result& res) {
  // 25 bytes do not fit a 3-flit message (24 bytes): refused, nothing sent.
  std::vector<uint8_t> big(25, 7);
  REQUIRE(test::tlm_access(p.tx, tlm::TLM_WRITE_COMMAND, nic_reg::kTxData, big.data(), unsigned(big.size())));
  unsigned char desc[TxDescriptor::kBytes];
  TxDescriptor{5, 3, 1, 0}.pack(desc);
  res.too_much_refused = !test::tlm_access(p.tx, tlm::TLM_WRITE_COMMAND, nic_reg::kTx, desc, sizeof desc);
  // 20 bytes with a 3-flit message.
  std::vector<uint8_t> bytes(20);
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = uint8_t(3 * i + 1);
  REQUIRE(test::tlm_access(p.tx, tlm::TLM_WRITE_COMMAND, nic_reg::kTxData, bytes.data(), unsigned(bytes.size())));
  TxDescriptor{5, 3, 2, 0}.pack(desc);
  REQUIRE(test::tlm_access(p.tx, tlm::TLM_WRITE_COMMAND, nic_reg::kTx, desc, sizeof desc));
  sc_core::wait(p.net->nic(5).rx_event());
  unsigned char buf[RxDescriptor::kBytes];
  REQUIRE(test::tlm_access(p.rx, tlm::TLM_READ_COMMAND, nic_reg::kRxPop, buf, sizeof buf));
  res.length = RxDescriptor::unpack(buf).d.length;
  res.got.assign(20, 0);
  REQUIRE(test::tlm_access(p.rx, tlm::TLM_READ_COMMAND, nic_reg::kRxData, res.got.data(), 20));
  res.dbg.assign(64, 0);
  tlm::tlm_generic_payload d;
  test::tlm_payload(d, tlm::TLM_READ_COMMAND, nic_reg::kRxData, res.dbg.data(), 64);
  res.dbg.resize(p.rx->transport_dbg(d));
}

}  // namespace

TEST_CASE("nic data: bytes written with a message are read back at the receiver", "[sc]") {
  Result res;
  test::TlmPlatform top("top", test::config_for("4x4", "torus"),
                        [&](test::TlmPlatform& p) { send_and_read_data(p, res); });
  sc_core::sc_start(sc_core::sc_time(10, sc_core::SC_US));
  std::vector<uint8_t> want(20);
  for (size_t i = 0; i < want.size(); ++i) want[i] = uint8_t(3 * i + 1);
  CHECK(res.too_much_refused);
  CHECK(res.length == 3);
  CHECK(res.got == want);
  CHECK(res.dbg == want);  // debug transport: the 20 bytes there are, of the 64 asked for
  REQUIRE(top.net->scoreboard().error_count() == 0);
  REQUIRE(top.net->scoreboard().delivered_packets() == 1);
}
