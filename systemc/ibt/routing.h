// Unicast routing on the interlaced bypass torus iBT(n^d; <b1..bk>) built of the torus router
// (docs/router.md section 10): the torus links' dimension order, optionally preceded by hops on
// the source's bypass ring where they shorten the path, or by align and bypass phases on the
// bypass rings of every dimension.
#pragma once

#include <algorithm>
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
  /// dateline classes C of the router (2, or 1 with router.dateline off); `layers`: the layers L
  /// of shortest routing (0: ShortestTable::auto_layers).
  BypassRouting(const sw::IbtTopology& ibt, const sw::Topology& torus, IbtRouting mode, int classes = 2,
                int layers = 0);

  int net_ports() const override { return m_ibt.num_ports(); }
  int neighbor(int node, int port) const override { return int(m_ibt.neighbor(node, port)); }
  /// ibt.routing = dor: dimension order over torus ports. bypass: a packet injected here or
  /// arriving on a bypass port takes the bypass ring of this node's species for the signed number
  /// of hops j that minimises |j| + (ring distance left in the bypass dimension), over |j| * b < n
  /// (fewest bypass hops, then plus, on a tie); j = 0: dimension order over torus ports from here on.
  /// shortest: the layers of ShortestTable, each hop one that keeps the route shortest among them
  /// (docs/router.md section 10). VC classes: on torus ports 0 .. C-1 dateline, C + j the align
  /// hops of layer j; on bypass ports 2p (2p + 1), a run of a layer of the p-th group of d*k
  /// layers before (after) it crossed its ring's dateline.
  PortRoute route(int node, int in_port, int in_class, int dst, bool tie) const override;
  /// The signed bypass hops j the rule above plans at `node` for `dst` (0: none): of a head that
  /// starts its bypass hops here (along = 0), or of one that arrived on its ring going plus (along
  /// = 1) or minus (-1), which goes on that way or leaves the ring, and, once its ring's dateline is
  /// behind it (crossed), never across a dateline link again. The plan of the next router is j - 1
  /// (or j + 1) or a strictly shorter continuation that the source's |j| * b < n did not reach: a
  /// route is never longer than its source's plan and crosses its ring's dateline at most once.
  int planned_bypass_hops(int node, int dst, int along = 0, bool crossed = false) const;
  int arrival_class(const PortRoute& r) const override {
    return r.vc_class >= 0 ? r.vc_class : m_classes == 2 && r.classed ? int(r.vclass) : 0;
  }

  const sw::IbtTopology& ibt() const { return m_ibt; }
  /// VC classes a router needs: C, plus one per layer under shortest (at least the run classes).
  int num_classes() const {
    return m_table ? std::max(m_classes + m_table->layers(), 2 * ((m_table->layers() + m_ibt.num_species() - 1) /
                                                                  m_ibt.num_species()))
                   : m_classes;
  }
  /// Layers of shortest routing (0 under dor and bypass).
  int layers() const { return m_table ? m_table->layers() : 0; }
  /// The species of layer 0's ring under shortest (ShortestTable::species_of_layer).
  int first_species() const { return m_table ? m_table->species_of_layer(0) : 0; }

 private:
  PortRoute route_shortest(int node, int in_port, int in_class, int dst, bool tie) const;
  PortRoute torus_route(int node, int dst, bool tie) const;
  PortRoute run_hop(int dir, int vc_class) const;
  /// A bypass link into `node` is its ring's dateline (shortest routing).
  bool on_dateline(int node) const;

  sw::IbtTopology m_ibt;
  sw::Topology m_torus;
  IbtRouting m_mode;
  int m_classes;
  std::shared_ptr<const ShortestTable> m_table;  ///< shortest only
};

}  // namespace wormcast
