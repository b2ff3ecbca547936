// The model's hard limits in one place; the same numbers as rtl/wc_pkg.sv (a test compares them).
#pragma once

namespace wormcast::limits {

inline constexpr int kMaxDims = 4;        ///< wc_pkg MaxDims: dimensions of a torus/mesh router (= sw::kMaxTorusDims)
inline constexpr int kMaxPorts = 16;      ///< wc_pkg MaxPorts: 2n network + up to 2n local ports
inline constexpr int kMaxVcs = 16;        ///< wc_pkg MaxVcs: the flit's 4-bit VC field
inline constexpr int kMaxRadix = 256;     ///< 2^wc_pkg CoordW: one coordinate in 8 bits
inline constexpr int kMaxNodes = 65536;   ///< 2^wc_pkg FlitDstW: the flit's 16-bit destination
inline constexpr int kMaxVcsPerClass = 8; ///< two dateline classes share kMaxVcs

}  // namespace wormcast::limits
