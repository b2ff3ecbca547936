// Routing logic of a buffer set (docs/mway.md section 5.4): the sub-Region a way takes and the
// Ways a header carries on the set's output channel. The math itself is sw/topology/mway.h.
#pragma once

#include "systemc/mway/types.h"

namespace wormcast {

class MwayRoutingLogic {
 public:
  /// The header content a receiver of way `way` on channel `ch` stores.
  static MwayPacket receive(const sw::MwayGeometry& g, const MwayPacket& on_channel, int ch, int way) {
    MwayPacket p = on_channel;
    if (p.kind == MwayKind::Tree) p.region = g.sub_region(on_channel.region, ch, way);
    return p;
  }
  /// Ways of the header on output channel `out` (`source`: the node interface that injects it).
  static uint32_t ways(const sw::MwayGeometry& g, const MwayPacket& p, int out, bool source) {
    if (p.kind == MwayKind::Tree) return g.mst_ways(p.region, out, source);
    return 1u << g.dor_way(out, p.dst);
  }
};

}  // namespace wormcast
