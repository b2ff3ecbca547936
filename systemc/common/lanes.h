// Lanes of a parallel clock edge (docs/router.md section 5.7): an edge set may split its awake
// members into partitions of consecutive members, one lane each, run by several threads. Each lane
// has a home thread, and a thread that has finished its own takes any lane no thread has started
// (lane 0 is the SystemC thread's alone), so an edge never waits for a worker the machine has not
// scheduled. What members of different
// lanes share (the link queues, the network's activity counters) keeps one part per lane, whichever
// thread runs it, which the main thread (home of lane 0) joins in lane order, so a run's results
// depend neither on the number of lanes nor on which thread ran which.
#pragma once

namespace wormcast {

/// Threads at most (sim.threads).
constexpr int kMaxThreads = 64;
/// Lanes per thread of a parallel edge, at most: more partitions than threads, so that a thread the
/// machine deschedules in the middle of an edge holds up only the lane it is running while the
/// others take the rest; but no lane of fewer than kMinLaneMembers members, whose boundaries (the
/// members with writers in two lanes) would be a large share of it (docs/router.md section 5.7).
constexpr int kLanesPerThread = 4;
constexpr int kMinLaneMembers = 1024;
/// Lanes at most.
constexpr int kMaxLanes = kMaxThreads * kLanesPerThread;

/// The lane the calling thread runs: 0 on the SystemC thread outside a lane, else the lane whose
/// members (or link commits) it is running.
inline thread_local int t_lane = 0;

}  // namespace wormcast
