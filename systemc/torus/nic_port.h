// The torus family's NIC port adapter: per-VC injection with credits on the router's local ports
// (one injection channel per first-hop direction on all-port routers), ejection with credits,
// acting at the falling clock edge (docs/router.md section 8). The NIC core does the rest.
#pragma once

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include <systemc>

#include "sw/topology/topology.h"
#include "systemc/kernel/edge_set.h"
#include "systemc/kernel/link_signal.h"
#include "systemc/common/port_array.h"
#include "systemc/common/ring.h"
#include "systemc/nic/nic.h"
#include "systemc/torus/credit_unit.h"
#include "systemc/torus/flit.h"
#include "systemc/torus/params.h"
#include "systemc/torus/routing.h"

namespace wormcast {

class TorusNicPort : public EdgeMember, public sc_core::sc_module, public NicPort {
 public:
  sc_core::sc_in<bool> clk{"clk"};
  PortArray<sc_core::sc_out<Flit>> inj_out;      ///< to the router's local inputs
  PortArray<sc_core::sc_in<Credit>> inj_credit;  ///< from the router's local credit outputs
  PortArray<sc_core::sc_in<Flit>> ej_in;        ///< from the router's local outputs
  PortArray<sc_core::sc_out<Credit>> ej_credit;  ///< to the router's local credit inputs

  /// routing: the family's routing when it has one (the channel is the first hop's port). seed: the
  /// run's seed, from which Valiant routing draws each packet's intermediate node. edges: the
  /// falling-edge set that runs this port (null: it runs its own process).
  TorusNicPort(sc_core::sc_module_name name, Nic& core, const RouterParams& rp, const sw::Topology& topo,
               const PortRouting* routing = nullptr, uint64_t seed = 1, EdgeSet* edges = nullptr,
               bool plain = false);

  int channels() const override { return m_rp.local; }
  int channel_for(const Destination& d, bool tie) const override;
  std::shared_ptr<const std::vector<int>> group_of(const Destination& d) const override;
  void wake() override {
    if (m_waker.sleeping) m_waker.wake();
  }
  /// Its links are mailboxes from now on (before the simulation starts; docs/kernel.md).
  void use_mailboxes();
  // Plain links (built with plain = true, run by an edge set; docs/kernel.md): no port
  // objects; the network hands each channel's inputs their links' two boxes and its outputs their
  // writers.
  /// Channel c reads these boxes (parity 0 and 1): its ejection flits and injection credits.
  void plain_input(int c, const Flit* ej_boxes, const Credit* inj_credit_boxes) {
    for (int b = 0; b < 2; ++b) {
      m_ej_val[b][size_t(c)] = ej_boxes + b;
      m_inj_credit_val[b][size_t(c)] = inj_credit_boxes + b;
    }
  }
  LinkWriter<Flit>& plain_inj_output(int c) { return m_inj[size_t(c)]; }
  LinkWriter<Credit>& plain_ej_credit_output(int c) { return m_ej_credit[size_t(c)]; }
  /// This port as the reader of its inputs: its waker and its valid masks (two words each).
  Waker* waker() { return &m_waker; }
  uint32_t* ej_valid_masks() { return m_ej_valid; }
  uint32_t* credit_valid_masks() { return m_cr_valid; }

 private:
  struct Channel {
    int vc = 0;  ///< of the packet being injected
    int next_vc = 0;
    /// router.injection_delay > 0: (falling edge it reaches the router's input, flit) in order; one
    /// flit enters per edge and each stays injection_delay edges.
    Ring<std::pair<uint64_t, Flit>> wire{0};
  };

  void falling_edge();  ///< the port's own process (no edge set)
  bool on_edge(uint64_t t) override;
  /// on_edge for one link mode (Boxed: mailboxes), compiled once per mode as the router's.
  template <bool Boxed>
  bool edge(uint64_t t);
  void prefetch() const override;
  void prefetch_cold(int stage) const override;
  void end_of_elaboration() override;

  Nic& m_core;
  RouterParams m_rp;
  const sw::Topology& m_topo;  ///< the network's (it outlives its NIC ports)
  const PortRouting* m_routing;
  uint64_t m_seed;
  int m_node;
  // An idle port (nothing queued, nothing driven) sleeps until software submits or an input
  // wire changes, then resumes at the next falling edge.
  Waker m_waker;
  bool m_armed = false;  ///< own process: armed itself for the first falling edge
  std::unique_ptr<OwnWake> m_wake;  ///< only with port objects (software submitted or an input changed)
  bool m_watch_all = true;           ///< every input is a LinkSignal (an edge set needs that)
  std::vector<const Flit*> m_ej_val[2];  ///< [parity][c] (mailboxes; else [0] only)
  std::vector<const Credit*> m_inj_credit_val[2];
  std::vector<LinkWriter<Flit>> m_inj;
  std::vector<LinkWriter<Credit>> m_ej_credit;
  EdgeSet* m_edges;
  std::vector<Channel> m_ch;
  CreditUnit m_credits;  ///< [channel * nv + vc]: the router's local input buffers
  // Channel masks, bit c for channel c. The two input masks are kept by the LinkSignal inputs (or
  // re-read at every edge when another kind of signal is bound); with mailbox links [p] holds the
  // inputs written in cycles of parity p.
  bool m_boxed = false;               ///< the links are mailboxes
  uint32_t m_ej_valid[2] = {0, 0};    ///< the ejection input holds a valid flit
  uint32_t m_cr_valid[2] = {0, 0};    ///< the injection credit input holds a valid credit
  uint32_t m_ej_credit_out = 0;   ///< the ejection credit output was driven valid last edge
  uint32_t m_busy = 0;            ///< a packet is being injected
  uint32_t m_drove = 0;           ///< the injection output was driven valid last edge
  uint32_t m_wired = 0;           ///< flits wait on the injection channel delay
  /// router.ejection_delay > 0: flits on the ejection channels, (falling edge the core takes
  /// them, flit) in the order they left the router; a flit per channel enters per edge and each
  /// stays ejection_delay edges.
  Ring<std::pair<uint64_t, FlitView>> m_ejecting;
  /// A credit the NIC holds back (router.ejection_credit_delay > 0): the falling edge it is driven,
  /// its channel and its VC.
  struct HeldCredit {
    uint64_t due;
    int channel;
    int vc;
  };
  /// The held ejection credits in the order their flits arrived; a credit per channel enters per
  /// edge and each stays ejection_credit_delay edges.
  Ring<HeldCredit> m_ej_held;
};

}  // namespace wormcast
