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
  /// >= 0: only VCs [vc_class * V, vc_class * V + V) of the output port, whatever `classed` says
  /// (a routing with VC classes beyond the dateline's two; V = router.vcs_per_class).
  int vc_class = -1;
};

class PortRouting {
 public:
  virtual ~PortRouting() = default;
  /// Network ports per router: 2 * dims torus ports, then the family's own.
  virtual int net_ports() const = 0;
  /// Node reached through network port `port` of `node` (-1: none); it arrives on port ^ 1.
  virtual int neighbor(int node, int port) const = 0;
  /// Route of a head flit for `dst` at `node`; in_port is the network port it arrived on, or -1
  /// when it was injected at this node; in_class the VC class it arrived in (its VC divided by V).
  virtual PortRoute route(int node, int in_port, int in_class, int dst, bool tie) const = 0;
  /// The VC class a head that took route `r` arrives in at the next router (what the router
  /// passes as in_class: its VC divided by V): vc_class when the route names one, else the
  /// dateline class on a classed channel of a router with two dateline classes, else 0.
  virtual int arrival_class(const PortRoute& r) const { return r.vc_class >= 0 ? r.vc_class : 0; }
  /// Network hops of the route from src to dst.
  int hops(int src, int dst, bool tie) const {
    int h = 0, in = -1, in_class = -1;
    for (int cur = src; cur != dst; ++h) {
      const PortRoute r = route(cur, in, in_class, dst, tie);
      cur = neighbor(cur, r.port);
      in = r.port ^ 1;
      in_class = arrival_class(r);
    }
    return h;
  }
};

}  // namespace wormcast
