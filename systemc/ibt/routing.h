// Unicast routing on the interlaced bypass torus iBT(n^d; <b1..bk>) built of the torus router
// (docs/router.md section 10): the torus links' dimension order, optionally preceded by hops on
// the source's bypass ring where they shorten the path, or by align and bypass phases on the
// bypass rings of every dimension.
#pragma once

#include <memory>

#include "sw/topology/ibt.h"
#include "sw/topology/topology.h"
#include "systemc/common/config.h"
#include "systemc/ibt/config.h"
#include "systemc/ibt/shortest_table.h"
#include "systemc/torus/routing.h"

namespace wormcast {

class BypassRouting : public PortRouting {
 public:
  /// `torus`: the n^d torus under the bypass links (every dimension wraps); `classes`: the
  /// dateline classes C of the router (2, or 1 with router.dateline off).
  BypassRouting(const sw::IbtTopology& ibt, const sw::Topology& torus, IbtRouting mode, int classes = 2);

  int net_ports() const override { return m_ibt.num_ports(); }
  int neighbor(int node, int port) const override { return int(m_ibt.neighbor(node, port)); }
  /// ibt.routing = dor: dimension order over torus ports. bypass: a packet injected here or
  /// arriving on a bypass port takes the bypass ring of this node's species for the signed number
  /// of hops j that minimises |j| + (ring distance left in the bypass dimension), over |j| * b < n
  /// (fewest bypass hops, then plus, on a tie); j = 0: dimension order over torus ports from here on.
  /// shortest: the phases of ShortestTable, each hop one that keeps the route shortest among them
  /// (docs/router.md section 10). VC classes: on torus ports 0 .. C-1 dateline, C + i the align
  /// hops of layer i; on bypass ports k, the k-th hop (from 0) of a run of at most C + d hops.
  PortRoute route(int node, int in_port, int in_class, int dst, bool tie) const override;
  /// The signed bypass hops j the rule above plans at `node` for `dst` (0: none).
  int planned_bypass_hops(int node, int dst) const;

  const sw::IbtTopology& ibt() const { return m_ibt; }
  /// VC classes a router needs: C, plus one per dimension under shortest.
  int num_classes() const { return m_classes + (m_mode == IbtRouting::Shortest ? m_ibt.dims() : 0); }

 private:
  PortRoute route_shortest(int node, int in_port, int in_class, int dst, bool tie) const;
  PortRoute torus_route(int node, int dst, bool tie) const;
  PortRoute run_hop(int dir, int k) const;

  sw::IbtTopology m_ibt;
  sw::Topology m_torus;
  IbtRouting m_mode;
  int m_classes;
  std::shared_ptr<const ShortestTable> m_table;  ///< shortest only
};

}  // namespace wormcast
