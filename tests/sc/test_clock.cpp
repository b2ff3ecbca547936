// A platform's own clock period: the network takes its cycle from the clock it is bound to, so a
// 2 ns or 3 ns platform sees the same cycle numbers as 1 ns, through the NIC's TLM registers, its
// receive interrupt and its debug transport.
#include <catch2/catch.hpp>

#include <memory>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "systemc/common/clock.h"
#include "systemc/net/network.h"
#include "tests/sc/harness.h"

using namespace wormcast;

namespace {

struct Seen {
  uint64_t arrival = 0, visible = 0, irq_cycle = 0, dbg_count = 0, count_after_pop = 9;
  uint32_t tag = 0, length = 0;
  int src = -1;
  bool irq_after_pop = true;
};

struct Platform : sc_core::sc_module {
  sc_core::sc_clock clk;
  std::unique_ptr<Network> net;
  tlm_utils::simple_initiator_socket<Platform> tx{"tx"}, rx{"rx"};
  sc_core::sc_signal<bool> irq{"irq"};
  Seen& seen;

  Platform(sc_core::sc_module_name n, int period_ns, Seen& s)
      : sc_module(n), clk("clk", sc_core::sc_time(period_ns, sc_core::SC_NS)), seen(s) {
    // 4x4 torus, t_s = 3, t_r = 2: node 0 -> node 5 is h = 2 hops.
    net = make_network("net", test::config_for("4x4", "torus", {{"nic.ts", "3"}, {"nic.tr", "2"}}), {});
    net->clk(clk);
    tx.bind(net->nic(0).socket());
    rx.bind(net->nic(5).socket());
    net->nic(5).irq()(irq);
    net->nic(5).enable_rx_queue(true);
    SC_HAS_PROCESS(Platform);
    SC_THREAD(run);
  }

  void access(tlm_utils::simple_initiator_socket<Platform>& s, tlm::tlm_command cmd, uint64_t addr,
              unsigned char* data, unsigned len) {
    REQUIRE(test::tlm_access(s, cmd, addr, data, len));
  }

  void run() {
    unsigned char desc[TxDescriptor::kBytes];
    TxDescriptor{5, 8, 77, 0}.pack(desc);
    access(tx, tlm::TLM_WRITE_COMMAND, nic_reg::kTx, desc, sizeof desc);
    wait(irq.posedge_event());  // no polling: the interrupt says when
    seen.irq_cycle = current_cycle();
    uint32_t n = 0;
    tlm::tlm_generic_payload dbg;
    test::tlm_payload(dbg, tlm::TLM_READ_COMMAND, nic_reg::kRxCount, reinterpret_cast<unsigned char*>(&n), 4);
    REQUIRE(rx->transport_dbg(dbg) == 4);
    seen.dbg_count = n;
    unsigned char buf[RxDescriptor::kBytes];
    access(rx, tlm::TLM_READ_COMMAND, nic_reg::kRxPop, buf, sizeof buf);
    const RxDescriptor r = RxDescriptor::unpack(buf);
    seen.arrival = r.d.arrival;
    seen.visible = r.d.visible;
    seen.tag = r.d.tag;
    seen.length = r.d.length;
    seen.src = r.d.src;
    wait(clk.period() * 2.0);
    seen.irq_after_pop = irq.read();
    n = 9;
    access(rx, tlm::TLM_READ_COMMAND, nic_reg::kRxCount, reinterpret_cast<unsigned char*>(&n), 4);
    seen.count_after_pop = n;
    sc_core::sc_stop();
  }
};

void check_period(int period_ns) {
  Seen seen;
  Platform top("top", period_ns, seen);
  sc_core::sc_start(sc_core::sc_time(10, sc_core::SC_US));
  REQUIRE(cycle_time() == sc_core::sc_time(period_ns, sc_core::SC_NS));
  // docs/router.md section 7: T = s + t_s + (h+1) R + h Ld + L = 0 + 3 + 3 + 0 + 8 = 14; + t_r.
  CHECK(seen.arrival == 14);
  CHECK(seen.visible == 16);
  CHECK(seen.irq_cycle == 16);
  CHECK(seen.dbg_count == 1);
  CHECK(seen.tag == 77);
  CHECK(seen.length == 8);
  CHECK(seen.src == 0);
  CHECK(seen.irq_after_pop == false);
  CHECK(seen.count_after_pop == 0);
}

}  // namespace

TEST_CASE("clock: a 1 ns platform clock: arrival at cycle 14, interrupt at 16", "[sc]") { check_period(1); }
TEST_CASE("clock: a 2 ns platform clock gives the same cycle numbers as 1 ns", "[sc]") { check_period(2); }
TEST_CASE("clock: a 3 ns platform clock gives the same cycle numbers as 1 ns", "[sc]") { check_period(3); }
