// Node processor thread: start, then deliveries in order of visibility, each handled when the
// processor is free.
#include "systemc/nic/node_cpu.h"

#include "systemc/common/clock.h"

namespace wormcast {

NodeCpu::NodeCpu(sc_core::sc_module_name name, const sw::Topology& topo, int node, Nic& nic,
                 sw::NodeProgram* program)
    : sc_module(name), m_topo(topo), m_node(node), m_nic(nic), m_program(program) {
  socket.bind(nic.socket());
  nic.enable_rx_queue(true);
  SC_HAS_PROCESS(NodeCpu);
  SC_THREAD(run);
}

uint64_t NodeCpu::now() const { return current_cycle(); }

void NodeCpu::transport(tlm::tlm_command cmd, uint64_t addr, void* data, unsigned len,
                        sc_core::sc_time& delay) {
  tlm::tlm_generic_payload trans;
  trans.set_command(cmd);
  trans.set_address(addr);
  trans.set_data_ptr(static_cast<unsigned char*>(data));
  trans.set_data_length(len);
  trans.set_streaming_width(len);
  trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  socket->b_transport(trans, delay);
  if (trans.is_response_error())
    SC_REPORT_FATAL("wormcast/cpu", (std::string(name()) + ": NIC refused " + trans.get_response_string()).c_str());
}

void NodeCpu::send(int dst, uint32_t length, const sw::SendOptions& options) {
  unsigned char desc[TxDescriptor::kBytes];
  TxDescriptor{uint32_t(dst), length, options.tag, options.tie_negative ? nic_reg::kFlagTie : 0u}.pack(desc);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  transport(tlm::TLM_WRITE_COMMAND, nic_reg::kTx, desc, sizeof desc, delay);
  ++m_sends;
  // The processor is busy for t_s (and behind earlier sends): the driver's annotated cost.
  if (delay > sc_core::SC_ZERO_TIME) wait(delay);
}

void NodeCpu::run() {
  if (!m_program) {
    m_idle = true;
    return;
  }
  m_program->on_start(*this);
  for (;;) {
    if (m_nic.has_rx(now())) {
      unsigned char buf[RxDescriptor::kBytes];
      sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
      transport(tlm::TLM_READ_COMMAND, nic_reg::kRxPop, buf, sizeof buf, delay);
      const sw::Delivery d = RxDescriptor::unpack(buf).d;
      if (m_first_receive == ~uint64_t(0)) m_first_receive = now();
      m_program->on_receive(*this, d);
    } else if (m_nic.next_rx_visible() != ~uint64_t(0)) {
      wait(cycle_time() * double(m_nic.next_rx_visible() - now()));
    } else {
      m_idle = true;
      wait(m_nic.rx_event());  // the NIC fires it when a queued delivery becomes visible
      m_idle = false;
    }
  }
}

}  // namespace wormcast
