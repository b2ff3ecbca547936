// Host-side path helpers over Topology: the arcs a dimension-ordered unicast takes.
#pragma once

#include <string>
#include <vector>

#include "sw/topology/topology.h"

namespace wormcast::sw {

/// A directed channel: leaves `node` through network port `port`.
struct Arc {
  int node;
  int port;
  bool operator==(const Arc& o) const { return node == o.node && port == o.port; }
  bool operator<(const Arc& o) const { return node != o.node ? node < o.node : port < o.port; }
};

/// Arcs of the dimension-ordered path src -> dst (empty when src == dst).
inline std::vector<Arc> route_path(const Topology& t, int src, int dst, bool tie_negative) {
  std::vector<Arc> arcs;
  int cur = src;
  for (;;) {
    const RouteStep s = t.route(cur, dst, tie_negative);
    if (s.port < 0) break;
    arcs.push_back(Arc{cur, s.port});
    cur = t.neighbor(cur, s.port);
  }
  return arcs;
}

}  // namespace wormcast::sw

namespace wormcast::sw {
/// "torus:8x8", "mesh:4x4x4", or "torus,mesh:8x4" for mixed networks.
std::string describe(const Topology& t);

/// Inverse of describe(): "torus:16x16", "mesh:4x4x4", "torus,mesh:8x4" (one kind per dimension).
/// 1..kMaxTorusDims dimensions, every radix 2..4096, at most 2^24 nodes. Throws std::invalid_argument
/// with a one-line message on anything else.
Topology parse_net(const std::string& text);
}  // namespace wormcast::sw
