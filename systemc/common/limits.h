// The model's hard limits in one place; the RTL ones are the numbers of rtl/wc_pkg.sv (a test
// compares them).
#pragma once

namespace wormcast::limits {

inline constexpr int kMaxDims = 4;        ///< wc_pkg MaxDims: dimensions of a torus/mesh router (= sw::kMaxTorusDims)
inline constexpr int kMaxPorts = 16;      ///< wc_pkg MaxPorts: 2n network + up to 2n local ports
inline constexpr int kMaxVcs = 16;        ///< wc_pkg MaxVcs: the flit's 4-bit VC field
inline constexpr int kMaxRtlRadix = 256;    ///< 2^wc_pkg CoordW: one coordinate in 8 bits
inline constexpr int kMaxRtlNodes = 65536;  ///< 2^wc_pkg FlitDstW: the flit word's 16-bit destination
/// The SystemC torus and ibt families: a radix per dimension and nodes in a network (the SystemC
/// flit's destination has 32 bits; the RTL router and the m-way family keep the limits above).
inline constexpr int kMaxRadix = 1024;
inline constexpr int kMaxNodes = 1 << 20;
static_assert(kMaxRtlRadix <= kMaxRadix && kMaxRtlNodes <= kMaxNodes, "the RTL router's networks are the model's too");
inline constexpr int kMaxVcsPerClass = 8; ///< two dateline classes share kMaxVcs

}  // namespace wormcast::limits
