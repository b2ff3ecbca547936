// Destinations of synthetic traffic: the classic patterns, and the message trace a run can replay.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "systemc/common/config.h"
#include "sw/topology/topology.h"
#include "tb/run/source_rng.h"

namespace wormcast {

/// Destination of a packet from `src` under a pattern (uniform and hotspot draw from rng; randperm
/// looks up `perm`, the run's fixed permutation of the nodes). A pattern may map a node to itself:
/// such a packet goes through its own router (0 hops).
int pattern_destination(const sw::Topology& t, const TrafficConfig& cfg, int src, SourceRng& rng,
                        const std::vector<int>& perm = {});

/// One message of a traffic trace (traffic.trace).
struct TraceEntry {
  uint64_t cycle;
  int src, dst;
  uint32_t len;
};
/// Reads cycle,src,dst,len lines (a header line and blank lines are skipped), sorted by cycle
/// (stable); throws ConfigError naming the file, line and field.
std::vector<TraceEntry> read_traffic_trace(const std::string& path, int nodes);

}  // namespace wormcast
