// How the torus router's network ports connect and where a head flit goes, when a family built of
// the torus router adds ports of its own (the interlaced bypass torus adds two bypass ports). The
// torus family itself routes by sw::Topology inline and has no PortRouting object.
#pragma once

#include "sw/topology/topology.h"

namespace wormcast {

/// One routing decision at a router.
struct PortRoute {
  int port = -1;        ///< network output port, -1: eject here
  bool classed = false; ///< the channel has dateline classes: only VCs of `vclass`
  sw::VcClass vclass = sw::VcClass::LH;
};

class PortRouting {
 public:
  virtual ~PortRouting() = default;
  /// Network ports per router: 2 * dims torus ports, then the family's own.
  virtual int net_ports() const = 0;
  /// Node reached through network port `port` of `node` (-1: none); it arrives on port ^ 1.
  virtual int neighbor(int node, int port) const = 0;
  /// Route of a head flit for `dst` at `node`; in_port is the network port it arrived on, or -1
  /// when it was injected at this node.
  virtual PortRoute route(int node, int in_port, int dst, bool tie) const = 0;
  /// Network hops of the route from src to dst.
  int hops(int src, int dst, bool tie) const {
    int h = 0, in = -1;
    for (int cur = src; cur != dst; ++h) {
      const int p = route(cur, in, dst, tie).port;
      cur = neighbor(cur, p);
      in = p ^ 1;
    }
    return h;
  }
};

}  // namespace wormcast
