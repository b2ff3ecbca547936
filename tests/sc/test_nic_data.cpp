// Message data through the NIC's TLM registers: bytes written to kTxData before a send travel
// with the message and are read back at the receiver from kRxData after kRxPop (also by debug
// transport); more bytes than the message's flits hold (8 per flit) are refused.
#include <catch2/catch.hpp>

#include <memory>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "systemc/net/network.h"
#include "tests/sc/harness.h"

using namespace wormcast;

namespace {

struct Result {
  std::vector<uint8_t> got, dbg;
  bool too_much_refused = false;
  uint32_t length = 0;
};

struct Platform : sc_core::sc_module {
  sc_core::sc_clock clk{"clk", sc_core::sc_time(1, sc_core::SC_NS)};
  std::unique_ptr<Network> net;
  tlm_utils::simple_initiator_socket<Platform> tx{"tx"}, rx{"rx"};
  Result& res;

  Platform(sc_core::sc_module_name n, Result& r) : sc_module(n), res(r) {
    net = make_network("net", test::config_for("4x4", "torus"), {});
    net->clk(clk);
    tx.bind(net->nic(0).socket);
    rx.bind(net->nic(5).socket);
    net->nic(5).enable_rx_queue(true);
    SC_HAS_PROCESS(Platform);
    SC_THREAD(run);
  }

  bool access(tlm_utils::simple_initiator_socket<Platform>& s, tlm::tlm_command cmd, uint64_t addr, unsigned char* data,
              unsigned len) {
    return test::tlm_access(s, cmd, addr, data, len);
  }

  void run() {
    // 25 bytes do not fit a 3-flit message (24 bytes): refused, nothing sent.
    std::vector<uint8_t> big(25, 7);
    REQUIRE(access(tx, tlm::TLM_WRITE_COMMAND, nic_reg::kTxData, big.data(), unsigned(big.size())));
    unsigned char desc[TxDescriptor::kBytes];
    TxDescriptor{5, 3, 1, 0}.pack(desc);
    res.too_much_refused = !access(tx, tlm::TLM_WRITE_COMMAND, nic_reg::kTx, desc, sizeof desc);
    // 20 bytes with a 3-flit message.
    std::vector<uint8_t> bytes(20);
    for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = uint8_t(3 * i + 1);
    REQUIRE(access(tx, tlm::TLM_WRITE_COMMAND, nic_reg::kTxData, bytes.data(), unsigned(bytes.size())));
    TxDescriptor{5, 3, 2, 0}.pack(desc);
    REQUIRE(access(tx, tlm::TLM_WRITE_COMMAND, nic_reg::kTx, desc, sizeof desc));
    wait(net->nic(5).rx_event());
    unsigned char buf[RxDescriptor::kBytes];
    REQUIRE(access(rx, tlm::TLM_READ_COMMAND, nic_reg::kRxPop, buf, sizeof buf));
    res.length = RxDescriptor::unpack(buf).d.length;
    res.got.assign(20, 0);
    REQUIRE(access(rx, tlm::TLM_READ_COMMAND, nic_reg::kRxData, res.got.data(), 20));
    res.dbg.assign(64, 0);
    tlm::tlm_generic_payload d;
    test::tlm_payload(d, tlm::TLM_READ_COMMAND, nic_reg::kRxData, res.dbg.data(), 64);
    res.dbg.resize(rx->transport_dbg(d));
    sc_core::sc_stop();
  }
};

}  // namespace

TEST_CASE("nic data: bytes written with a message are read back at the receiver", "[sc]") {
  Result res;
  Platform top("top", res);
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
