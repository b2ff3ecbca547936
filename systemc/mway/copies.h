// The packet copies a node interface queues (docs/mway.md section 8): those of a submitted
// message, and the follow-ups of a forwarded copy whose tail arrived. Shared by every fabric
// behind the fabric interface (the SystemC one and the RTL one).
#pragma once

#include <vector>

#include "systemc/mway/types.h"

namespace wormcast {

/// One copy in a node interface's source queue.
struct MwayCopy {
  MwayPacket pkt;
  bool report_inject = false;  ///< its header leaving the node is the message's injection
};

/// The nodes that must receive m exactly once (its Region or dst, without the source).
std::vector<int> mway_addressed(const sw::MwayGeometry& g, const MwayMessage& m);

/// The copies node `node` queues for message m, in order. Throws std::invalid_argument for a
/// message the fabric cannot carry (node not m.src, length, Region, algorithm unicast with a
/// Region, a Region of only the source).
std::vector<MwayCopy> mway_submit_copies(const sw::MwayGeometry& g, const MwayParams& params, int node,
                                         const MwayMessage& m);

/// The follow-up copies node `node` queues when the tail of forwarded packet p arrives there.
std::vector<MwayPacket> mway_follow_ups(const sw::MwayGeometry& g, MwayAlgorithm alg, const MwayPacket& p, int node);

}  // namespace wormcast
