// k-ary m-way mesh geometry and route math; every rule is the one of docs/mway.md.
#include "sw/topology/mway.h"

#include <stdexcept>

namespace wormcast::sw {

bool MwayRegion::operator==(const MwayRegion& o) const {
  for (int d = 0; d < kMwayMaxDims; ++d)
    if (lo[d] != o.lo[d] || hi[d] != o.hi[d]) return false;
  return true;
}

MwayGeometry::MwayGeometry(std::vector<int> radix) : m_radix(std::move(radix)) {
  if (m_radix.empty() || int(m_radix.size()) > kMwayMaxDims)
    throw std::invalid_argument("radix: 1.." + std::to_string(kMwayMaxDims) + " dimensions, got " +
                                std::to_string(m_radix.size()));
  int64_t n = 1;
  for (size_t d = 0; d < m_radix.size(); ++d) {
    const int k = m_radix[d];
    if (k < 2 || k > 256)
      throw std::invalid_argument("radix[" + std::to_string(d) + "]: 2..256, got " + std::to_string(k));
    m_stride.push_back(int(n));
    n *= k;
    if (n > (int64_t(1) << 20)) throw std::invalid_argument("radix: at most 2^20 channels");
  }
  m_channels = int(n);
  for (int d = 0; d < dims(); ++d) {
    m_router_base.push_back(m_routers);
    m_routers += m_channels / m_radix[size_t(d)] * (m_radix[size_t(d)] - 1);
  }
}

std::vector<int> MwayGeometry::coord(int ch) const {
  std::vector<int> c(static_cast<size_t>(dims()));
  for (int d = 0; d < dims(); ++d) c[size_t(d)] = coord_of(ch, d);
  return c;
}

int MwayGeometry::channel(const std::vector<int>& c) const {
  int id = 0;
  for (int d = 0; d < dims(); ++d) id += c[size_t(d)] * m_stride[size_t(d)];
  return id;
}

int MwayGeometry::neighbor(int ch, int port) const {
  const int d = port >> 1;
  const int x = coord_of(ch, d);
  const int y = (port & 1) ? x - 1 : x + 1;
  if (y < 0 || y >= radix(d)) return -1;
  return ch + (y - x) * m_stride[size_t(d)];
}

std::string MwayGeometry::suffix(int ch) const {
  std::string s;
  for (int d = 0; d < dims(); ++d) s += (d ? "_" : "") + std::to_string(coord_of(ch, d));
  return s;
}

// Routers of dimension d are numbered by their low channel with dimension d's coordinate
// restricted to 0..k_d-2 (mixed radix, dimension 0 fastest, radix k_d - 1 in dimension d).
int MwayGeometry::router(int d, int low) const {
  const int k = radix(d);
  const int x = coord_of(low, d);
  if (x >= k - 1) return -1;
  const int below = low % m_stride[size_t(d)];
  const int above = low / (m_stride[size_t(d)] * k);
  return m_router_base[size_t(d)] + below + m_stride[size_t(d)] * (x + (k - 1) * above);
}

int MwayGeometry::router_dim(int r) const {
  int d = dims() - 1;
  while (m_router_base[size_t(d)] > r) --d;
  return d;
}

int MwayGeometry::router_low(int r) const {
  const int d = router_dim(r);
  const int k = radix(d);
  int i = r - m_router_base[size_t(d)];
  const int below = i % m_stride[size_t(d)];
  i /= m_stride[size_t(d)];
  const int x = i % (k - 1);
  const int above = i / (k - 1);
  return below + m_stride[size_t(d)] * (x + k * above);
}

int MwayGeometry::way_router(int ch, int p) const {
  const int d = p >> 1;
  if (p & 1) {
    const int low = neighbor(ch, 2 * d + 1);
    return low < 0 ? -1 : router(d, low);
  }
  return router(d, ch);
}

int MwayGeometry::driver_router(int ch, int p) const {
  const int d = p >> 1;
  if (p & 1) return router(d, ch);  // the DIM- set of the router above ch drives ch going down
  const int low = neighbor(ch, 2 * d + 1);
  return low < 0 ? -1 : router(d, low);
}

MwayRegion MwayGeometry::full_region() const {
  MwayRegion r;
  for (int d = 0; d < dims(); ++d) r.hi[d] = radix(d) - 1;
  return r;
}

MwayRegion MwayGeometry::point(int ch) const {
  MwayRegion r;
  for (int d = 0; d < dims(); ++d) r.lo[d] = r.hi[d] = coord_of(ch, d);
  return r;
}

bool MwayGeometry::valid(const MwayRegion& r) const {
  for (int d = 0; d < kMwayMaxDims; ++d) {
    if (d >= dims()) {
      if (r.lo[d] != 0 || r.hi[d] != 0) return false;
      continue;
    }
    if (r.lo[d] < 0 || r.hi[d] >= radix(d) || r.lo[d] > r.hi[d]) return false;
  }
  return true;
}

bool MwayGeometry::contains(const MwayRegion& r, int ch) const {
  for (int d = 0; d < dims(); ++d) {
    const int x = coord_of(ch, d);
    if (x < r.lo[d] || x > r.hi[d]) return false;
  }
  return true;
}

int64_t MwayGeometry::size(const MwayRegion& r) const {
  int64_t n = 1;
  for (int d = 0; d < dims(); ++d) n *= r.hi[d] - r.lo[d] + 1;
  return n;
}

std::vector<int> MwayGeometry::nodes(const MwayRegion& r) const {
  std::vector<int> out;
  for (int ch = 0; ch < m_channels; ++ch)
    if (contains(r, ch)) out.push_back(ch);
  return out;
}

std::string MwayGeometry::to_string(const MwayRegion& r) const {
  std::string s;
  for (int d = 0; d < dims(); ++d)
    s += (d ? "x[" : "[") + std::to_string(r.lo[d]) + ".." + std::to_string(r.hi[d]) + "]";
  return s;
}

int MwayGeometry::entry_node(const MwayRegion& r, int ch) const {
  int e = 0;
  for (int d = 0; d < dims(); ++d) {
    int x = coord_of(ch, d);
    x = x < r.lo[d] ? r.lo[d] : x > r.hi[d] ? r.hi[d] : x;
    e += x * m_stride[size_t(d)];
  }
  return e;
}

int MwayGeometry::hops(int a, int b) const {
  int h = 0;
  for (int d = 0; d < dims(); ++d) {
    const int off = coord_of(b, d) - coord_of(a, d);
    h += off < 0 ? -off : off;
  }
  return h;
}

int MwayGeometry::dor_way(int cur, int dst) const {
  for (int d = 0; d < dims(); ++d) {
    const int x = coord_of(cur, d), t = coord_of(dst, d);
    if (x != t) return 2 * d + (t > x ? 0 : 1);
  }
  return node_way();
}

uint32_t MwayGeometry::mst_ways(const MwayRegion& r, int ch, bool source) const {
  uint32_t w = 0;
  for (int d = 0; d < dims(); ++d) {
    const int y = coord_of(ch, d);
    if (r.hi[d] > y) w |= 1u << (2 * d);
    if (r.lo[d] < y) w |= 1u << (2 * d + 1);
  }
  if (!source) w |= 1u << node_way();
  return w;
}

MwayRegion MwayGeometry::sub_region(const MwayRegion& r, int ch, int p) const {
  if (p == node_way()) return point(ch);
  const int d = p >> 1;
  MwayRegion s = r;
  for (int j = 0; j < d; ++j) s.lo[j] = s.hi[j] = coord_of(ch, j);
  const int y = coord_of(ch, d);
  if (p & 1) {
    s.hi[d] = y - 1;
  } else {
    s.lo[d] = y + 1;
  }
  return s;
}

MwayRegion MwayGeometry::suffix_region(const MwayRegion& r, int ch, int first) const {
  if (first == node_way()) return point(ch);
  const int d = first >> 1;
  MwayRegion s = r;
  for (int j = 0; j < d; ++j) s.lo[j] = s.hi[j] = coord_of(ch, j);
  if (first & 1) s.hi[d] = coord_of(ch, d);  // from d-: [lo_d, y_d]; from d+: all of R_d
  return s;
}

bool MwayGeometry::is_order_prefix(uint32_t part, uint32_t ways) {
  if (part & ~ways) return false;
  // part must be the lowest popcount(part) bits of ways: no way of `ways` below part's highest
  // bit may be missing from part.
  if (!part) return true;
  const int top = 31 - __builtin_clz(part);
  const uint32_t below = top == 31 ? ~0u : ((1u << (top + 1)) - 1);
  return (ways & below) == part;
}

std::vector<MwaySend> MwayGeometry::mst_unicast_sends(const MwayRegion& r, int ch) const {
  std::vector<MwaySend> out;
  const uint32_t w = mst_ways(r, ch, true);
  for (int p = 0; p < node_way(); ++p)
    if (w >> p & 1) out.push_back(MwaySend{neighbor(ch, p), sub_region(r, ch, p)});
  return out;
}

std::vector<MwaySend> MwayGeometry::rd_sends(const MwayRegion& region, int ch) const {
  std::vector<MwaySend> out;
  MwayRegion r = region;
  for (int d = 0; d < dims(); ++d) {
    const int y = coord_of(ch, d);
    while (r.hi[d] > r.lo[d]) {
      const int len = r.hi[d] - r.lo[d] + 1;
      const int lower_hi = r.lo[d] + (len + 1) / 2 - 1;  // lower half: first ceil(L/2)
      const int upper_lo = lower_hi + 1;
      MwayRegion other = r;
      int partner;
      if (y <= lower_hi) {
        partner = upper_lo + (y - r.lo[d]);
        if (partner > r.hi[d]) partner = r.hi[d];
        other.lo[d] = upper_lo;
        r.hi[d] = lower_hi;
      } else {
        partner = r.lo[d] + (y - upper_lo);
        other.hi[d] = lower_hi;
        r.lo[d] = upper_lo;
      }
      out.push_back(MwaySend{ch + (partner - y) * m_stride[size_t(d)], other});
    }
  }
  return out;
}

}  // namespace wormcast::sw
