// The intermediate node of Valiant routing (docs/router.md section 13): a counter-based draw from
// the run seed and the packet id, so the source NIC, the statistics and the tests agree on it
// without sharing a generator's state and whatever order the packets are injected in.
#pragma once

#include <cstdint>

namespace wormcast {

/// SplitMix64's output function (docs/router.md section 13, references): a bijection of 64-bit
/// words that scrambles states spaced by the golden-ratio increment into independent-looking outputs.
inline uint64_t splitmix64_mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/// The intermediate node of packet `packet` (PacketRecord::id) in a run with seed `seed`, uniform
/// over 0..nodes-1 (every node, the source and the destination included): the packet-th output of
/// a SplitMix64 generator whose state starts at a hash of the seed, scaled to the node count by
/// the high half of a 64 x 64-bit product.
inline int valiant_intermediate(uint64_t seed, uint64_t packet, int nodes) {
  const uint64_t state = splitmix64_mix(seed ^ 0x76616c69616e7400ULL) + (packet + 1) * 0x9e3779b97f4a7c15ULL;
  const uint64_t r = splitmix64_mix(state);
  return int((static_cast<unsigned __int128>(r) * uint64_t(nodes)) >> 64);
}

}  // namespace wormcast
