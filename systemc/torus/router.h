// The wormhole VC torus router of docs/router.md: one clocked SC_METHOD that reads every input,
// evaluates route / VC allocation / switch allocation from the current state, and commits.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <systemc>

#include "sw/topology/topology.h"
#include "systemc/common/config.h"
#include "systemc/torus/allocator.h"
#include "systemc/torus/flit.h"
#include "systemc/torus/router_base.h"
#include "systemc/torus/routing.h"

namespace wormcast {

class TorusRouter : public RouterBase {
 public:
  TorusRouter(sc_core::sc_module_name name, const RouterParams& params, const sw::Topology& topo,
              int node, NetActivity* activity = nullptr, const PortRouting* routing = nullptr);

  const char* model() const override { return "sc"; }
  void set_observer(HopObserver* obs) override { m_observer = obs; }
  /// Flits currently held in input buffers.
  int buffered() const { return m_buffered; }

  std::vector<Wait> waiting() const override;
  bool activity(uint64_t now, RouterActivity& a) const override;
  /// Dumps the router's state to its own VCD from now on (docs/router.md section 4): per input VC
  /// its flit count, active bit, output port and VC; per output VC its credits and allocated bit;
  /// the flits buffered in the router.
  bool trace_internals(const std::string& vcd_path) override;
  void close_internals() override {
    if (m_state_vcd) sc_core::sc_close_vcd_trace_file(m_state_vcd);
    m_state_vcd = nullptr;
  }

 private:
  struct Slot {
    Flit flit;
    uint64_t ready;  ///< first cycle in which this flit may compete for the switch
  };
  struct InVc {
    std::vector<Slot> fifo;  ///< ring of buffer_depth
    int head = 0;
    int count = 0;
    bool active = false;
    int out_port = -1;
    int out_vc = -1;
  };
  struct PendingCredit {
    uint64_t ready;
    int ovc;
  };

  void tick();
  void end_of_elaboration() override;
  bool absorb(uint64_t t);  ///< returns true when every input was invalid
  void allocate(uint64_t t);
  /// 5.3 and 5.4 through the allocator units (router.allocator other than input-first): fills
  /// m_sa_best / m_sa_vc like the inline input-first path; returns whether anything won.
  bool allocate_by_units(uint64_t t);
  /// Output port and allowed output VC range for the head of (port p) at this router (under
  /// min-adaptive: the escape route, dimension order; under valiant: the route of the head's phase,
  /// to its intermediate node or to its destination, on that phase's VC set).
  void route(int in_port, const Flit& head, int& out_port, int& vc_lo, int& vc_hi) const;
  /// min-adaptive: the free adaptive output VC (port * VCs + VC) of a productive direction with the
  /// most credits, or -1 (docs/router.md section 12).
  int pick_adaptive(const Flit& head, int need_credits) const;
  static int rr_distance(int idx, int ptr, int n) { return idx >= ptr ? idx - ptr : idx - ptr + n; }

  sw::Topology m_topo;
  const PortRouting* m_routing;  ///< null: dimension order by m_topo (the torus family)
  int m_np;   ///< ports
  int m_nv;   ///< VCs per port
  int m_net;  ///< network ports (2n, plus a family's extra ports)
  HopObserver* m_observer = nullptr;
  // Activity-proportional evaluation: an idle router (empty buffers, no pending credits, all
  // outputs invalid) sleeps until one of its input wires changes, then resumes at the next edge.
  bool m_sleeping = false;
  sc_core::sc_event m_wake_event;   ///< notified by LinkSignal inputs
  sc_core::sc_event_or_list m_wake; ///< m_wake_event and the value-changed events of other inputs
  // Inputs read through the bound signals' value references (stable for the whole run).
  std::vector<const Flit*> m_flit_in_val;
  std::vector<const Credit*> m_credit_in_val;
  uint32_t m_port_mask = 0;            ///< ports with at least one non-empty input VC
  std::vector<uint32_t> m_vc_mask;     ///< [p] non-empty input VCs of port p

  std::vector<InVc> m_in;              ///< [p * nv + v]
  std::vector<int> m_credits;          ///< [o * nv + w]
  std::vector<uint8_t> m_allocated;    ///< [o * nv + w]
  std::vector<PendingCredit> m_pending;  ///< credits not yet usable (credit_delay > 0)
  std::vector<int> m_va_in_ptr, m_va_out_ptr, m_sa_in_ptr, m_sa_out_ptr;
  int m_buffered = 0;
  // Event counts (RouterActivity); m_occ[ivc] is the occupancy integral minus count * now.
  uint64_t m_writes = 0, m_reads = 0, m_vc_allocs = 0;
  std::vector<int64_t> m_occ;
  std::vector<uint64_t> m_vc_out;  ///< [o * nv + w] flits sent
  std::vector<uint64_t> m_blk_vc, m_blk_credit, m_blk_switch;  ///< [ivc] blocked edges by cause
  sc_core::sc_trace_file* m_state_vcd = nullptr;

  // Per-cycle scratch (kept as members to avoid allocation in the hot loop).
  std::vector<int> m_va_choice;        ///< [ivc] chosen output VC index or -1
  std::vector<int> m_va_best;          ///< [ovc] best requesting ivc or -1
  std::vector<int> m_touched;
  std::vector<int> m_sa_vc;            ///< [p] chosen VC of input port p, or -1
  std::vector<int> m_sa_best;          ///< [o] best requesting input port, or -1
  uint32_t m_flit_out_valid = 0, m_credit_out_valid = 0;  ///< ports driven valid last cycle
  // Output-first and iSLIP allocation (null under input-first, which runs inline for speed).
  std::unique_ptr<SeparableAllocator> m_va_unit;  ///< groups input VCs, resources output VCs
  std::unique_ptr<SeparableAllocator> m_sa_unit;  ///< groups input ports, resources output ports
  std::vector<int> m_grant;                       ///< scratch: grants of one unit
  std::vector<int> m_va_port;                     ///< [ivc] output port its head routes to
};

}  // namespace wormcast
