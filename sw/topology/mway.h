// Geometry and route math of k-ary m-way meshes (docs/mway.md): channel and router numbering,
// way/driver numbers, dimension-order unicast, MST ways and sub-Regions, replica Region split,
// and the send lists of MST-unicast and recursive doubling. Plain C++17, no SystemC.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace wormcast::sw {

inline constexpr int kMwayMaxDims = 15;  // 2n + 1 <= 31 ways: a way mask is 32 bits

/// A rectangle of channels (= nodes): lo[d]..hi[d] inclusive in each dimension.
struct MwayRegion {
  int lo[kMwayMaxDims] = {};
  int hi[kMwayMaxDims] = {};
  bool operator==(const MwayRegion& o) const;
  bool operator!=(const MwayRegion& o) const { return !(*this == o); }
};

/// A unicast copy of a unicast-based broadcast: destination and the Region it becomes responsible for.
struct MwaySend {
  int dst;
  MwayRegion region;
};

class MwayGeometry {
 public:
  /// radix: k per dimension (1..kMwayMaxDims dimensions, each 2..256). Throws std::invalid_argument.
  explicit MwayGeometry(std::vector<int> radix);

  int dims() const { return int(m_radix.size()); }
  int radix(int d) const { return m_radix[size_t(d)]; }
  /// m = 2n + 1 taps per channel; way and driver numbers 0..2n, the node is 2n.
  int ways() const { return 2 * dims() + 1; }
  int node_way() const { return 2 * dims(); }
  int num_channels() const { return m_channels; }
  int num_routers() const { return m_routers; }

  int coord_of(int ch, int d) const { return (ch / m_stride[size_t(d)]) % m_radix[size_t(d)]; }
  std::vector<int> coord(int ch) const;
  int channel(const std::vector<int>& c) const;
  /// Channel next to ch through port 2d+dir, -1 at the mesh edge.
  int neighbor(int ch, int port) const;
  /// "2_3": the coordinates joined by '_' (for names).
  std::string suffix(int ch) const;

  /// Router of dimension d whose low channel is `low` (-1 if low is on the high edge of d).
  int router(int d, int low) const;
  int router_dim(int r) const;
  int router_low(int r) const;
  int router_high(int r) const { return router_low(r) + m_stride[size_t(router_dim(r))]; }
  /// Channel a buffer set receives from / drives: dir 0 = DIM+ set, 1 = DIM- set.
  int set_in_channel(int r, int dir) const { return dir == 0 ? router_low(r) : router_high(r); }
  int set_out_channel(int r, int dir) const { return dir == 0 ? router_high(r) : router_low(r); }
  /// Router whose set receives way p (< 2n) on channel ch (the set's dir is p & 1); -1 if none.
  int way_router(int ch, int p) const;
  /// Router whose set drives channel ch as driver p (< 2n) (the set's dir is p & 1); -1 if none.
  int driver_router(int ch, int p) const;

  // ---- Regions
  MwayRegion full_region() const;
  MwayRegion point(int ch) const;
  bool valid(const MwayRegion& r) const;
  bool contains(const MwayRegion& r, int ch) const;
  int64_t size(const MwayRegion& r) const;
  std::vector<int> nodes(const MwayRegion& r) const;
  std::string to_string(const MwayRegion& r) const;  ///< "[0..3]x[1..1]"
  /// The Region node nearest to ch (coordinates clamped into r): the entry of an outside source.
  int entry_node(const MwayRegion& r, int ch) const;

  // ---- Routing
  int hops(int a, int b) const;
  /// Dimension-order way from channel cur toward dst: 2d or 2d+1 for the lowest differing d, the
  /// node way when cur == dst.
  int dor_way(int cur, int dst) const;
  /// MST ways of a header holding Region r (which contains ch) on channel ch; the node way
  /// unless `source` (the source already has the message).
  uint32_t mst_ways(const MwayRegion& r, int ch, bool source) const;
  /// Sub-Region that way p takes of the Region r held on channel ch.
  MwayRegion sub_region(const MwayRegion& r, int ch, int p) const;
  /// Region covered by the ways of the order from `first` on (a suffix): the replica's Region.
  MwayRegion suffix_region(const MwayRegion& r, int ch, int first) const;
  /// True when `part` is a prefix of `ways` in the reservation order (lowest bits first).
  static bool is_order_prefix(uint32_t part, uint32_t ways);

  /// MST-unicast: the copies a holder of r at ch sends (one per tree way, way order).
  std::vector<MwaySend> mst_unicast_sends(const MwayRegion& r, int ch) const;
  /// Recursive doubling: the copies a holder of r at ch sends, in order.
  std::vector<MwaySend> rd_sends(const MwayRegion& r, int ch) const;

 private:
  std::vector<int> m_radix;
  std::vector<int> m_stride;
  std::vector<int> m_router_base;  ///< first router id of dimension d
  int m_channels = 1;
  int m_routers = 0;
};

}  // namespace wormcast::sw
