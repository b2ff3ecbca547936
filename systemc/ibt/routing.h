// Unicast routing on the interlaced bypass torus iBT(n^d; <b1..bk>) built of the torus router
// (docs/router.md section 10): the torus links' dimension order, optionally preceded by hops on
// the source's bypass ring where they shorten the path.
#pragma once

#include "sw/topology/ibt.h"
#include "sw/topology/topology.h"
#include "systemc/common/config.h"
#include "systemc/ibt/config.h"
#include "systemc/torus/routing.h"

namespace wormcast {

class BypassRouting : public PortRouting {
 public:
  /// `torus`: the n^d torus under the bypass links (every dimension wraps).
  BypassRouting(const sw::IbtTopology& ibt, const sw::Topology& torus, IbtRouting mode)
      : m_ibt(ibt), m_torus(torus), m_mode(mode) {}

  int net_ports() const override { return m_ibt.num_ports(); }
  int neighbor(int node, int port) const override { return int(m_ibt.neighbor(node, port)); }
  /// ibt.routing = dor: dimension order over torus ports. bypass: a packet injected here or
  /// arriving on a bypass port takes the bypass ring of this node's species for the signed number
  /// of hops j that minimises |j| + (ring distance left in the bypass dimension), over |j| * b < n
  /// (fewest bypass hops, then plus, on a tie); j = 0: dimension order over torus ports from here on.
  PortRoute route(int node, int in_port, int dst, bool tie) const override;
  /// The signed bypass hops j the rule above plans at `node` for `dst` (0: none).
  int planned_bypass_hops(int node, int dst) const;

  const sw::IbtTopology& ibt() const { return m_ibt; }

 private:
  sw::IbtTopology m_ibt;
  sw::Topology m_torus;
  IbtRouting m_mode;
};

}  // namespace wormcast
