// The deadlock evidence of every family: routers report wait edges between buffers (who waits for
// whom); this assembles the wait-for graph, finds a cycle and writes it as JSON and Graphviz DOT.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace wormcast {

/// A buffer holding flits that cannot advance, and one buffer it waits for. A buffer that waits
/// for any one of several (a free VC of a port) reports one edge per candidate. holder empty: the
/// waiter is stuck but the family cannot name on what (e.g. an RTL router seen from its ports).
struct WaitEdge {
  std::string waiter;
  std::string holder;
  /// The packet at the front of the waiter; none for a buffer whose packets the family cannot see
  /// (an RTL router seen from its ports).
  std::optional<uint64_t> packet;
  std::string dst;       ///< its destination (a node, or a region)
  int occupancy = 0;     ///< flits in the waiter
};

struct WaitForGraph {
  std::vector<std::string> nodes;                ///< buffers, sorted
  std::vector<std::pair<int, int>> edges;        ///< (waiter, holder) indices into nodes, sorted, unique
  std::vector<WaitEdge> waits;                   ///< as reported
  std::vector<int> cycle;                        ///< a directed cycle (node indices), empty if none

  bool has_edge(int from, int to) const;
  nlohmann::json to_json() const;
  /// Graphviz: every edge, the cycle's nodes and edges in red.
  std::string to_dot() const;
};

WaitForGraph build_wait_for(std::vector<WaitEdge> waits);

/// Per node of g: 1 when it lies on a directed cycle or has a path to one (it waits, directly or
/// through others, for buffers that wait for each other), 0 when every path from it ends at a
/// buffer that waits for nothing.
std::vector<char> reaches_cycle(const WaitForGraph& g);
/// Per node of g: 1 when a path of waits leads from it to a node that waits for something the
/// family cannot name (a wait of g.waits with no holder: an RTL router seen from its ports).
std::vector<char> reaches_unnamed(const WaitForGraph& g);

/// One path of g from node `from` to a node with no outgoing edge (a buffer that waits for
/// nothing), following the first edge of each node; empty when `from` reaches a cycle instead.
std::vector<int> path_to_sink(const WaitForGraph& g, int from);

}  // namespace wormcast
