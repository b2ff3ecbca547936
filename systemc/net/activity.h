// What every router family reports while it runs: network-wide activity (progress and the
// watchdog) and the canonical per-hop event record (one record format for every router model).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "systemc/kernel/lanes.h"

namespace wormcast {

/// Shared counters a network keeps over all its routers (progress and deadlock detection), one
/// part per lane of a parallel edge (systemc/kernel/lanes.h), read as their maximum and sum.
class NetActivity {
 public:
  /// n flits (n > 0) left a router in cycle t.
  void moved(uint64_t t, uint64_t n = 1) {
    Lane& l = m_lane[t_lane];
    if (t > l.last_move) l.last_move = t;  // bands (cycle_clock.h) run nodes' cycles out of order
    l.switched += n;
  }
  /// Cycle t made progress that moved no flit out of a router (an m-way node interface wrote a
  /// flit into its injection buffer): the watchdog's last move, not the flits switched.
  void progressed(uint64_t t) {
    Lane& l = m_lane[t_lane];
    if (t > l.last_move) l.last_move = t;
    ++l.progressed;
  }
  /// The progressed() calls, all lanes.
  uint64_t progress_marks() const {
    uint64_t n = 0;
    for (const Lane& l : m_lane) n += l.progressed;
    return n;
  }
  /// The last cycle in which any flit left a router (or progressed()).
  uint64_t last_move() const {
    uint64_t m = 0;
    for (const Lane& l : m_lane) m = std::max(m, l.last_move);
    return m;
  }
  /// Flits that left routers, all routers.
  uint64_t switched() const {
    uint64_t n = 0;
    for (const Lane& l : m_lane) n += l.switched;
    return n;
  }

 private:
  struct alignas(64) Lane {
    uint64_t last_move = 0, switched = 0, progressed = 0;
  };
  Lane m_lane[kMaxLanes];
};

/// One router's event counts since the start of the run (docs/statistics.md), for a power model:
/// each is a count of one hardware event. occupancy_integral: flit-cycles spent in the input
/// buffers (the sum over cycles of the flits held); vc_flits: flits sent per output VC, indexed
/// port * VCs + VC. Blocking, per input VC (port * VCs + VC): the clock edges at which the VC's
/// front flit was eligible to leave (its router delay over) yet did not, by what held it:
/// blocked_vc (a head waiting for an output VC), blocked_credit (its output VC had no credit:
/// the downstream buffer was full), blocked_switch (a credit, but another input won the switch or
/// the input port's other VC was chosen).
struct RouterActivity {
  uint64_t buffer_writes = 0;    ///< flits written into input VC buffers
  uint64_t buffer_reads = 0;     ///< flits read out of them (= crossbar traversals = switch grants)
  uint64_t vc_allocations = 0;   ///< output VCs granted to a packet (one per packet per hop)
  uint64_t link_flits = 0;       ///< flits sent on network links
  /// Those flits times their link's length in network links (a bypass link of b: b; the others 1):
  /// what the link energy counts (the network fills it from the ports' counts).
  uint64_t link_spans = 0;
  uint64_t ejected_flits = 0;    ///< flits sent on ejection channels
  uint64_t occupancy_integral = 0;
  std::vector<uint64_t> vc_flits;
  std::vector<uint64_t> blocked_vc, blocked_credit, blocked_switch;
};

/// The window's counts of one router: `end` minus `begin` (both from Network::router_activity),
/// every count and every per-VC entry.
inline RouterActivity activity_delta(const RouterActivity& end, const RouterActivity& begin) {
  const auto sub = [](const std::vector<uint64_t>& b, const std::vector<uint64_t>& a) {
    std::vector<uint64_t> d(b.size());
    for (size_t k = 0; k < b.size(); ++k) d[k] = b[k] - (k < a.size() ? a[k] : 0);
    return d;
  };
  RouterActivity d;
  d.buffer_writes = end.buffer_writes - begin.buffer_writes;
  d.buffer_reads = end.buffer_reads - begin.buffer_reads;
  d.vc_allocations = end.vc_allocations - begin.vc_allocations;
  d.link_flits = end.link_flits - begin.link_flits;
  d.link_spans = end.link_spans - begin.link_spans;
  d.ejected_flits = end.ejected_flits - begin.ejected_flits;
  d.occupancy_integral = end.occupancy_integral - begin.occupancy_integral;
  d.vc_flits = sub(end.vc_flits, begin.vc_flits);
  d.blocked_vc = sub(end.blocked_vc, begin.blocked_vc);
  d.blocked_credit = sub(end.blocked_credit, begin.blocked_credit);
  d.blocked_switch = sub(end.blocked_switch, begin.blocked_switch);
  return d;
}

/// What the energy model needs of a router's hardware (systemc/net/energy.h): ports (network and
/// local, each with an input buffer and a crossbar input and output), VCs per port and flits per
/// VC buffer. All zero: the family reports no router events.
struct RouterShape {
  int ports = 0;
  int vcs = 0;
  int buffer_depth = 0;
};

/// One switch traversal: cycle,router,in_port,out_port,vc,packet,flit,head,tail.
struct HopEvent {
  uint64_t cycle;
  int router;
  int in_port;
  int out_port;
  int vc;            ///< output VC (or buffer)
  uint64_t packet;   ///< packet id bits the flit carries
  uint32_t flit;     ///< flit index bits
  bool head, tail;
};

/// Receives every hop when tracing is on.
class HopObserver {
 public:
  virtual void on_hop(const HopEvent& e) = 0;

 protected:
  ~HopObserver() = default;
};

}  // namespace wormcast
