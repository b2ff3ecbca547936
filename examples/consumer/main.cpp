// A foreign SystemC platform around an installed wormcast network: its own top with its own
// 2 ns clock, and its own TLM-2.0 initiator that sends one message through node 0's NIC
// registers and receives it at node 5.
#include <cstdio>
#include <cstring>
#include <memory>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "systemc/common/clock.h"
#include "systemc/common/config.h"
#include "systemc/common/version.h"
#include "systemc/net/network.h"

struct Platform : sc_core::sc_module {
  sc_core::sc_clock clk{"clk", sc_core::sc_time(2, sc_core::SC_NS)};
  std::unique_ptr<wormcast::Network> net;
  tlm_utils::simple_initiator_socket<Platform> tx{"tx"}, rx{"rx"};
  int status = 1;

  explicit Platform(sc_core::sc_module_name n) : sc_module(n) {
    const wormcast::Config cfg = wormcast::load_config("", {{"net.radix", "4x4"}, {"nic.ts", "3"}});
    net = wormcast::make_network("net", cfg, {});
    net->clk(clk);
    tx.bind(net->nic(0).socket());
    rx.bind(net->nic(5).socket());  // a bound NIC keeps its deliveries for the registers below
    SC_HAS_PROCESS(Platform);
    SC_THREAD(run);
  }

  bool access(tlm_utils::simple_initiator_socket<Platform>& s, tlm::tlm_command cmd, uint64_t addr,
              unsigned char* data, unsigned len) {
    tlm::tlm_generic_payload t;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    t.set_command(cmd);
    t.set_address(addr);
    t.set_data_ptr(data);
    t.set_data_length(len);
    t.set_streaming_width(len);
    s->b_transport(t, delay);
    wait(delay);
    return t.is_response_ok();
  }

  void run() {
    unsigned char desc[wormcast::TxDescriptor::kBytes];
    wormcast::TxDescriptor{5, 8, 42, 0}.pack(desc);  // to node 5, 8 flits, tag 42
    if (!access(tx, tlm::TLM_WRITE_COMMAND, wormcast::nic_reg::kTx, desc, sizeof desc)) return;
    for (int i = 0; i < 200; ++i) {
      uint32_t count = 0;
      access(rx, tlm::TLM_READ_COMMAND, wormcast::nic_reg::kRxCount, reinterpret_cast<unsigned char*>(&count), 4);
      if (count) break;
      wait(clk.period());
    }
    unsigned char buf[wormcast::RxDescriptor::kBytes];
    if (!access(rx, tlm::TLM_READ_COMMAND, wormcast::nic_reg::kRxPop, buf, sizeof buf)) return;
    const wormcast::RxDescriptor r = wormcast::RxDescriptor::unpack(buf);
    std::printf("wormcast %s (%s): node 5 received tag %u, %u flits from node %d, tail at cycle %llu\n",
                wormcast::version(), wormcast::commit(), r.d.tag, r.d.length, r.d.src,
                (unsigned long long)(r.d.arrival));
    status = r.d.tag == 42 && r.d.length == 8 && r.d.src == 0 ? 0 : 1;
    sc_core::sc_stop();
  }
};

int sc_main(int, char*[]) {
  Platform top("top");
  sc_core::sc_start(sc_core::sc_time(2, sc_core::SC_US));
  return top.status;
}
