// k-ary n-cube / mesh coordinate and dimension-ordered route math: the single source used by the
// router model, the NIC, the node runtime and the schedule verifier.
//
// Freestanding C++17 (no standard library, no exceptions, no allocation) so that it also compiles
// for the bare-metal node runtime.
#pragma once

#include <stdint.h>

namespace wormcast::sw {

/// Dimensions of a node grid (an m-way d-cube has up to 16); the torus router and its schedules
/// have at most kMaxTorusDims.
inline constexpr int kMaxDims = 16;
inline constexpr int kMaxTorusDims = 4;

/// Direction inside a dimension. Port numbering everywhere: port = 2 * dim + dir.
enum class Dir : uint8_t { Plus = 0, Minus = 1 };

/// Dateline virtual-channel class of Hou, Wang and Hsu Fig. 2.
enum class VcClass : uint8_t {
  P = 0,   ///< the packet has yet to take this dimension's wraparound link
  LH = 1,  ///< the packet will not take it, or already has (l- and h-channels)
};

struct Coord {
  int c[kMaxDims] = {0, 0, 0, 0};
  constexpr int& operator[](int d) { return c[d]; }
  constexpr int operator[](int d) const { return c[d]; }
};

/// One routing decision: the output port, or eject when the packet has arrived.
struct RouteStep {
  int port;        ///< 2*dim+dir, or -1 when the destination is reached
  VcClass vclass;  ///< class of the channel taken (meaningful only when port >= 0)
};

class Topology {
 public:
  constexpr Topology() = default;
  /// radix[d] >= 2 and dims in 1..kMaxDims are the caller's (validated) responsibility.
  constexpr Topology(int dims, const int* radix, const bool* torus) : m_dims(dims) {
    int n = 1;
    for (int d = 0; d < dims; ++d) {
      m_radix[d] = radix[d];
      m_torus[d] = torus[d];
      m_stride[d] = n;
      n *= radix[d];
    }
    m_nodes = n;
  }

  constexpr int dims() const { return m_dims; }
  constexpr int radix(int d) const { return m_radix[d]; }
  constexpr bool torus(int d) const { return m_torus[d]; }
  constexpr int num_nodes() const { return m_nodes; }
  constexpr int num_net_ports() const { return 2 * m_dims; }
  constexpr bool any_torus() const {
    for (int d = 0; d < m_dims; ++d)
      if (m_torus[d]) return true;
    return false;
  }

  /// Node ids are mixed-radix, dimension 0 fastest.
  constexpr Coord coord(int node) const {
    Coord c;
    for (int d = 0; d < m_dims; ++d) {
      c[d] = node % m_radix[d];
      node /= m_radix[d];
    }
    return c;
  }
  constexpr int node(const Coord& c) const {
    int id = 0;
    for (int d = 0; d < m_dims; ++d) id += c[d] * m_stride[d];
    return id;
  }
  constexpr int coord_of(int node, int d) const { return (node / m_stride[d]) % m_radix[d]; }

  /// Neighbour through network port `port`, or -1 at a mesh edge.
  constexpr int neighbor(int node, int port) const {
    const int d = port >> 1;
    const int k = m_radix[d];
    const int x = coord_of(node, d);
    int y = (port & 1) ? x - 1 : x + 1;
    if (y < 0 || y >= k) {
      if (!m_torus[d]) return -1;
      y = (y + k) % k;
    }
    return node + (y - x) * m_stride[d];
  }

  /// Signed offset taken in dimension d from coordinate x to t (shortest way; on a torus tie,
  /// distance exactly k/2, positive unless tie_negative).
  constexpr int offset(int d, int x, int t, bool tie_negative) const {
    if (!m_torus[d]) return t - x;
    const int k = m_radix[d];
    int fwd = t - x;  // hops going +: (t - x) mod k, without a division for coordinates in [0, k)
    if (fwd < 0) fwd += k;
    if (fwd < 0 || fwd >= k) fwd = ((t - x) % k + k) % k;
    const int back = fwd == 0 ? 0 : k - fwd;
    if (fwd < back) return fwd;
    if (back < fwd) return -back;
    return tie_negative ? -back : fwd;  // tie (or zero)
  }

  /// Dimension-ordered route from `cur` toward `dst`: lowest unresolved dimension first.
  constexpr RouteStep route(int cur, int dst, bool tie_negative) const {
    // Coordinates peeled off dimension by dimension (one division each, quotient and remainder).
    for (int d = 0; d < m_dims; ++d) {
      const int k = m_radix[d];
      const int x = cur % k, t = dst % k;
      cur /= k;
      dst /= k;
      if (x == t) continue;
      const int off = offset(d, x, t, tie_negative);
      const bool plus = off > 0;
      // Will the rest of this dimension's path cross the wraparound link (k-1 -> 0 going +,
      // 0 -> k-1 going -)? Then the p class, else l/h.
      const bool wraps = m_torus[d] && (plus ? x > t : x < t);
      return RouteStep{2 * d + (plus ? 0 : 1), wraps ? VcClass::P : VcClass::LH};
    }
    return RouteStep{-1, VcClass::LH};
  }

  /// Number of hops of the dimension-ordered path.
  constexpr int hops(int src, int dst, bool tie_negative) const {
    int h = 0;
    for (int d = 0; d < m_dims; ++d) {
      const int off = offset(d, coord_of(src, d), coord_of(dst, d), tie_negative);
      h += off < 0 ? -off : off;
    }
    return h;
  }

  /// True when the tie bit changes the path from src to dst (some dimension at distance k/2).
  constexpr bool has_tie(int src, int dst) const {
    for (int d = 0; d < m_dims; ++d) {
      const int k = m_radix[d];
      if (!m_torus[d] || (k & 1)) continue;
      const int fwd = ((coord_of(dst, d) - coord_of(src, d)) % k + k) % k;
      if (fwd == k / 2) return true;
    }
    return false;
  }

 private:
  int m_dims = 0;
  int m_radix[kMaxDims] = {1, 1, 1, 1};
  bool m_torus[kMaxDims] = {false, false, false, false};
  int m_stride[kMaxDims] = {1, 1, 1, 1};
  int m_nodes = 1;
};

}  // namespace wormcast::sw
