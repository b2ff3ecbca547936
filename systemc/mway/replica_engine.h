// Replica engine of a buffer set (MST-replica, docs/mway.md section 7): picks the replica's
// buffer and builds the replica row from the original.
#pragma once

#include "systemc/mway/alloc_map.h"
#include "systemc/mway/types.h"

namespace wormcast {

class MwayReplicaEngine {
 public:
  /// The buffer for a replica in this cycle: the highest free one the allocation unit does not
  /// take (`alloc_pick`, -1 if none), or -1.
  static int choose(const MwayAllocMap& amu, int alloc_pick) { return amu.free_buffer_from_top(alloc_pick); }

  /// Fill row `rep` as the replica of `orig`, which keeps Ways = taken; the replica carries
  /// `rest` with the suffix Region on channel `ch` (called after the edge's transfers).
  static void build(const sw::MwayGeometry& g, const MwayBufferEntry& orig, MwayBufferEntry& rep, uint32_t rest,
                    int ch) {
    const int first = __builtin_ctz(rest);
    const int cap = int(rep.ring.size());
    rep.a = true;
    rep.r = false;
    rep.t = orig.t;
    rep.drv = orig.drv;
    rep.buf = orig.buf;
    rep.pkt = orig.pkt;
    rep.pkt.region = g.suffix_region(orig.pkt.region, ch, first);
    rep.pending = rest;
    rep.reserved = 0;
    rep.header_done = false;
    rep.report_inject = false;
    rep.receivers.clear();
    rep.fptr = 0;
    rep.count = 0;
    rep.ring[0] = MwayFlitSlot{MwayTag::H, 0};
    rep.count = 1;
    for (int k = 0; k < orig.count; ++k) rep.ring[size_t(k + 1)] = orig.ring[size_t((orig.fptr + k) % cap)];
    rep.count += orig.count;
    rep.rptr = rep.count % cap;
    rep.f = rep.count == cap;
  }
};

}  // namespace wormcast
