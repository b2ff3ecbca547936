// Lanes of a parallel clock edge (docs/router.md section 5.7): an edge set may split its awake
// members among several threads, one lane each. What members of different lanes share (the link
// queues, the network's activity counters) keeps one part per lane, which the main thread (lane
// 0) joins in lane order, so a run's results do not depend on the number of lanes.
#pragma once

namespace wormcast {

/// Lanes at most (sim.threads).
constexpr int kMaxLanes = 8;

/// The lane of the calling thread: 0 on the SystemC thread, 1.. on an edge set's workers.
inline thread_local int t_lane = 0;

}  // namespace wormcast
