// The node processor: an SC_THREAD that runs a sw/ NodeProgram through the NodeApi HAL, backed by
// the NIC's TLM-2.0 socket. t_s is the driver's annotated cost of a send; deliveries are handled
// one at a time when the processor is free.
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "sw/hal/node_api.h"
#include "systemc/nic/nic.h"

namespace wormcast {

class NodeCpu : public sc_core::sc_module, public sw::NodeApi {
 public:
  tlm_utils::simple_initiator_socket<NodeCpu> socket{"socket"};

  NodeCpu(sc_core::sc_module_name name, const sw::Topology& topo, int node, Nic& nic,
          sw::NodeProgram* program);

  int self() const override { return m_node; }
  const sw::Topology& topology() const override { return m_topo; }
  uint64_t now() const override;
  void send(int dst, uint32_t length, const sw::SendOptions& options) override;

  uint64_t sends() const { return m_sends; }
  /// Waiting for a delivery with nothing queued: the program has nothing left to do for now.
  bool idle() const { return m_idle; }
  /// When software first saw a delivery (~0: never).
  uint64_t first_receive() const { return m_first_receive; }

 private:
  void run();
  void transport(tlm::tlm_command cmd, uint64_t addr, void* data, unsigned len, sc_core::sc_time& delay);

  sw::Topology m_topo;
  int m_node;
  Nic& m_nic;
  sw::NodeProgram* m_program;
  uint64_t m_sends = 0;
  bool m_idle = false;
  uint64_t m_first_receive = ~uint64_t(0);
};

}  // namespace wormcast
