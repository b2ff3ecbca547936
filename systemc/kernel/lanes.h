// Lanes of a parallel clock edge (docs/kernel.md): an edge set may split its awake
// members into partitions of consecutive members, one lane each, run by several threads. Each lane
// has a home thread, and a thread that has finished its own takes any lane no thread has started
// (lane 0 is the SystemC thread's alone), so an edge never waits for a worker the machine has not
// scheduled. What members of different
// lanes share (the link queues, the network's activity counters) keeps one part per lane, whichever
// thread runs it, which the main thread (home of lane 0) joins in lane order, so a run's results
// depend neither on the number of lanes nor on which thread ran which.
#pragma once

#include <algorithm>
#include <cstdint>

namespace wormcast {

/// Threads at most (sim.threads).
constexpr int kMaxThreads = 64;
/// Lanes per thread of a parallel edge, at most: more partitions than threads, so that a thread the
/// machine deschedules in the middle of an edge holds up only the lane it is running while the
/// others take the rest; but no lane of fewer than kMinLaneMembers members, whose boundaries (the
/// members with writers in two lanes) would be a large share of it (docs/kernel.md).
constexpr int kLanesPerThread = 4;
constexpr int kMinLaneMembers = 1024;
/// Lanes at most.
constexpr int kMaxLanes = kMaxThreads * kLanesPerThread;

/// Whether a parallel edge runs in lanes or in one thread (sim.lanes = adaptive; docs/kernel.md),
/// from the wall time per awake member this process measures each way. The edges
/// that could run in lanes go in epochs; a regular epoch runs the chosen way, and after `every`
/// regular epochs a shorter probe epoch runs the other way. With r the cost in lanes over the cost
/// in one thread (the probe's against the regular epoch before it), lanes hand over to one thread
/// when r > kToOne and take over again when r < kToLanes: lanes must pay clearly, as a loaded
/// machine's noise would otherwise keep them where they gain nothing. A probe that switches sets
/// `every` to kFirstEvery; one that does not doubles it, up to kMaxEvery, or, when the chosen way
/// won by far (r < kClearLanes for lanes, r > kClearOne for one thread), sets it to kMaxEvery at
/// once, so that probing the slower way costs at most about kProbeEdges / (kMaxEvery * kEpochEdges)
/// of the edges. Lanes are chosen first, and the first probe follows the first epoch. (A machine
/// whose cores other work takes is the edge set's crowding rule's, which does not wait for a probe.)
class LaneChoice {
 public:
  static constexpr uint32_t kEpochEdges = 16;
  static constexpr uint32_t kProbeEdges = 8;
  static constexpr uint32_t kFirstEvery = 4;
  static constexpr uint32_t kMaxEvery = 64;
  static constexpr double kToOne = 0.95;
  static constexpr double kToLanes = 0.85;
  static constexpr double kClearLanes = 0.75;
  static constexpr double kClearOne = 1.25;

  /// The next edge runs in lanes.
  bool lanes() const { return m_one_lane == m_probing; }
  /// That edge took ns nanoseconds with `awake` members awake.
  void timed(double ns, uint32_t awake) {
    m_ns += ns;
    m_awake += awake;
    if (++m_edges < (m_probing ? kProbeEdges : kEpochEdges)) return;
    const double cost = m_awake > 0 ? m_ns / m_awake : 0;
    m_edges = 0;
    m_ns = m_awake = 0;
    if (!m_probing) {
      m_regular_cost = cost;
      if (++m_since >= m_every) m_probing = true;
      return;
    }
    m_probing = false;
    m_since = 0;
    // r: lanes over one thread; the probe ran the way not chosen.
    const double lanes_cost = m_one_lane ? cost : m_regular_cost, one_cost = m_one_lane ? m_regular_cost : cost;
    const bool change = m_one_lane ? lanes_cost < one_cost * kToLanes : lanes_cost > one_cost * kToOne;
    if (change) {
      m_one_lane = !m_one_lane;
      ++m_switches;
      m_every = kFirstEvery;
    } else if (m_one_lane ? lanes_cost > one_cost * kClearOne : lanes_cost < one_cost * kClearLanes) {
      m_every = kMaxEvery;
    } else {
      m_every = std::min(2 * m_every, kMaxEvery);
    }
  }
  /// Times the chosen way changed.
  uint32_t switches() const { return m_switches; }

 private:
  bool m_one_lane = false;  ///< the chosen way: one thread
  bool m_probing = false;   ///< the current epoch runs the other way
  uint32_t m_edges = 0;
  double m_ns = 0, m_awake = 0;
  double m_regular_cost = 0;  ///< per awake member, the last regular epoch
  uint32_t m_every = 1, m_since = 0, m_switches = 0;  ///< the first probe after one epoch
};

/// The lane the calling thread runs: 0 on the SystemC thread outside a lane, else the lane whose
/// members (or link commits) it is running.
inline thread_local int t_lane = 0;

}  // namespace wormcast
