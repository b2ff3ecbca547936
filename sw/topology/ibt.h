// Interlaced bypass torus iBT(n^d; <b1..bk>): construction, validation, neighbours per port,
// a minimal route function, and exact diameter / average distance by symmetric BFS.
#pragma once

#include <stdint.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace wormcast::sw {

/// A configuration the iBT rules refuse; the message is one line naming the rule.
class IbtConfigError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// Exact non-negative fraction (reduced); the average distance is reported this way.
struct Fraction {
  uint64_t num = 0;
  uint64_t den = 1;
  double value() const { return static_cast<double>(num) / static_cast<double>(den); }
  std::string str() const;  ///< "57333/8192"
};
Fraction make_fraction(uint64_t num, uint64_t den);

/// iBT(n^d; b), or the plain Torus(n^d) when b is empty (then there are no bypass ports).
///
/// Construction (reconstructed from Table 1 of Zhang and Deng, see docs/schedules.md):
/// species s(x) = (x1 + ... + xd) mod (d k); bypass dimension s mod d (0 = first coordinate);
/// bypass length b[s div d]; node x gets the two links x +- len * e_dim (mod n).
///
/// Ports: 2*dim + dir for the torus links (dir 0 = plus, 1 = minus), then 2d = bypass+ and
/// 2d+1 = bypass-. A bypass link leaves on bypass+ and arrives on bypass- (port ^ 1), as the
/// torus links do, because both ends have the same species.
class IbtTopology {
 public:
  /// Throws IbtConfigError (one line) unless: n >= 3, 1 <= d <= 8, N = n^d <= 2^26; every b_j a
  /// positive multiple of d*k with b_j < n/2; n a multiple of d*k (bypass rings close and keep
  /// the species). `allow_half`: also accept b_j = n/2, where a node's two bypass links are
  /// parallel links to one node; the paper uses such networks (iBT(64^2; <8,32>)).
  IbtTopology(int n, int d, std::vector<int> bypass, bool allow_half = false);
  /// Torus(n^d): no bypass links.
  static IbtTopology torus(int n, int d) { return IbtTopology(n, d, {}); }

  int n() const { return m_n; }
  int dims() const { return m_d; }
  const std::vector<int>& bypass() const { return m_b; }
  bool is_torus() const { return m_b.empty(); }
  int64_t num_nodes() const { return m_nodes; }
  /// 2d, plus 2 with bypass links.
  int num_ports() const { return is_torus() ? 2 * m_d : 2 * m_d + 2; }
  int bypass_port() const { return 2 * m_d; }  ///< bypass+; bypass- is bypass_port() + 1
  /// d*k: the number of species (1 for a torus).
  int num_species() const { return is_torus() ? 1 : m_d * static_cast<int>(m_b.size()); }

  /// Node ids are mixed radix, dimension 0 fastest (as sw/topology/topology.h).
  int coord_of(int64_t node, int dim) const;
  std::vector<int> coords(int64_t node) const;
  int64_t node(const std::vector<int>& coords) const;
  int64_t stride(int dim) const { return m_stride[dim]; }

  int species(int64_t node) const;
  int bypass_dim(int64_t node) const;     ///< -1 for a torus
  int bypass_length(int64_t node) const;  ///< 0 for a torus
  /// The dimension a port moves in (the bypass ports: the node's bypass dimension).
  int port_dim(int64_t node, int port) const;

  /// Neighbour through `port` (0 .. num_ports()-1).
  int64_t neighbor(int64_t node, int port) const;

  /// "ibt:64x64 <8,24>" / "torus:100x100x100".
  std::string name() const;

 private:
  int m_n;
  int m_d;
  std::vector<int> m_b;
  int64_t m_nodes;
  int64_t m_stride[8] = {};
};

/// The bypass vector of an iBT network that names none: `wormcast ibt` without --bypass and the
/// ibt.bypass key's default (valid where 4 is a multiple of d*k below n/2, as on iBT(16^2)).
inline constexpr const char* kDefaultBypass = "4";
/// "8,24" -> {8, 24}; throws IbtConfigError naming --bypass.
std::vector<int> parse_bypass(const std::string& text);
/// "ibt:64x64" / "torus:16x16x16" -> (n, d, is_torus); all sides equal. Throws IbtConfigError.
struct IbtNetSpec {
  bool torus = false;
  int n = 0;
  int d = 0;
};
IbtNetSpec parse_ibt_net(const std::string& text);

/// The representative of species s: coordinates (s, 0, ..., 0).
int64_t species_representative(const IbtTopology& t, int s);
/// The image of `v` under the translation that takes `anchor` to the representative of its species.
/// Its vector sums to 0 mod d*k, so it maps species to species and links to links: a route rule
/// that depends only on species and relative position can be tabulated per species.
int64_t translate_to_representative(const IbtTopology& t, int64_t anchor, int64_t v);

/// Hop distances from one node to every node (BFS), -1 unreachable.
std::vector<int16_t> bfs_distances(const IbtTopology& t, int64_t from);

/// Diameter and average distance over all N^2 ordered pairs (self-pairs included).
struct DistanceMetrics {
  int diameter = 0;
  Fraction average;
};

/// One BFS per species class: translations by a vector t with sum(t) = 0 mod d*k map species to
/// species and links to links, so the distances from every node of one class are those of its
/// representative (species s, coordinates (s, 0, ..., 0)), translated.
DistanceMetrics distance_metrics(const IbtTopology& t);

/// Closed form for Torus(n^d): diameter d*floor(n/2); average distance d * (ring sum) / n.
DistanceMetrics torus_distance_metrics(int n, int d);

/// Distances to every destination from each species' representative, so that a router can route
/// minimally: dist(u, v) = table[s(u)][v - u + rep(s(u))].
class IbtDistanceTable {
 public:
  explicit IbtDistanceTable(const IbtTopology& t);
  int distance(int64_t from, int64_t to) const;
  /// A minimal next hop from `cur` toward `dst`: the lowest-numbered port whose neighbour is one
  /// hop closer; -1 when cur == dst.
  int route(int64_t cur, int64_t dst) const;

 private:
  const IbtTopology* m_t;
  std::vector<std::vector<int16_t>> m_dist;  ///< per species, from its representative
};

}  // namespace wormcast::sw
