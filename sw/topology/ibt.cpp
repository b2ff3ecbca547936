// Interlaced bypass torus: construction rule, validation, neighbours, BFS metrics, route table.
#include "sw/topology/ibt.h"

#include <numeric>
#include <regex>

namespace wormcast::sw {

std::string Fraction::str() const { return std::to_string(num) + "/" + std::to_string(den); }

Fraction make_fraction(uint64_t num, uint64_t den) {
  const uint64_t g = std::gcd(num, den);
  return Fraction{num / (g ? g : 1), den / (g ? g : 1)};
}

IbtTopology::IbtTopology(int n, int d, std::vector<int> bypass, bool allow_half) : m_n(n), m_d(d), m_b(std::move(bypass)) {
  if (d < 1 || d > 8) throw IbtConfigError("--net: dimensions d must be in 1..8 (got " + std::to_string(d) + ")");
  if (n < 3) throw IbtConfigError("--net: side n must be >= 3 (got " + std::to_string(n) + ")");
  int64_t nodes = 1;
  for (int i = 0; i < d; ++i) {
    m_stride[i] = nodes;
    nodes *= n;
    if (nodes > (int64_t{1} << 26))
      throw IbtConfigError("iBT: n^d must be at most 2^26 = 67108864 nodes");
  }
  m_nodes = nodes;
  if (m_b.empty()) return;
  const int dk = d * static_cast<int>(m_b.size());
  for (int b : m_b) {
    // A multiple of d*k keeps the bypass neighbour in the same species, so the link is one
    // undirected edge of the same length and dimension at both ends; below n/2 keeps the two
    // bypass links of a node distinct and the ring from folding onto itself.
    if (b <= 0 || b % dk != 0 || 2 * b > n || (2 * b == n && !allow_half))
      throw IbtConfigError("--bypass: every b_j must be a positive multiple of d*k = " + std::to_string(dk) +
                           " below n/2 = " + std::to_string(n / 2) + (n % 2 ? ".5" : "") +
                           " (got " + std::to_string(b) + (2 * b == n ? "; b_j = n/2 only in `wormcast ibt topo|bcast --allow-half`, not in a network run" : "") + ")");
  }
  if (n % dk != 0)
    throw IbtConfigError("--net: side n must be a multiple of d*k = " + std::to_string(dk) +
                         " so that wrapped bypass links keep the species (got n = " + std::to_string(n) + ")");
}

int IbtTopology::coord_of(int64_t node, int dim) const { return static_cast<int>((node / m_stride[dim]) % m_n); }

std::vector<int> IbtTopology::coords(int64_t node) const {
  std::vector<int> c(m_d);
  for (int i = 0; i < m_d; ++i) {
    c[i] = static_cast<int>(node % m_n);
    node /= m_n;
  }
  return c;
}

int64_t IbtTopology::node(const std::vector<int>& c) const {
  int64_t id = 0;
  for (int i = 0; i < m_d; ++i) id += static_cast<int64_t>(((c[i] % m_n) + m_n) % m_n) * m_stride[i];
  return id;
}

int IbtTopology::species(int64_t node) const {
  if (is_torus()) return 0;
  int64_t sum = 0;
  for (int i = 0; i < m_d; ++i) {
    sum += node % m_n;
    node /= m_n;
  }
  return static_cast<int>(sum % num_species());
}

int IbtTopology::bypass_dim(int64_t node) const { return is_torus() ? -1 : species(node) % m_d; }

int IbtTopology::bypass_length(int64_t node) const { return is_torus() ? 0 : m_b[species(node) / m_d]; }

int IbtTopology::port_dim(int64_t node, int port) const {
  return port < 2 * m_d ? port >> 1 : bypass_dim(node);
}

int64_t IbtTopology::neighbor(int64_t node, int port) const {
  int dim, step;
  if (port < 2 * m_d) {
    dim = port >> 1;
    step = (port & 1) ? -1 : 1;
  } else {
    const int s = species(node);
    dim = s % m_d;
    step = (port & 1) ? -m_b[s / m_d] : m_b[s / m_d];
  }
  const int x = coord_of(node, dim);
  const int y = ((x + step) % m_n + m_n) % m_n;
  return node + static_cast<int64_t>(y - x) * m_stride[dim];
}

std::string IbtTopology::name() const {
  std::string s = is_torus() ? "torus:" : "ibt:";
  for (int i = 0; i < m_d; ++i) s += (i ? "x" : "") + std::to_string(m_n);
  if (!is_torus()) {
    s += " <";
    for (size_t j = 0; j < m_b.size(); ++j) s += (j ? "," : "") + std::to_string(m_b[j]);
    s += ">";
  }
  return s;
}

std::vector<int> parse_bypass(const std::string& text) {
  std::vector<int> out;
  // Decimal numbers without a leading zero (04 is not a length), as every other option reads them.
  if (!std::regex_match(text, std::regex(R"((0|[1-9]\d{0,5})(,(0|[1-9]\d{0,5}))*)")))
    throw IbtConfigError("--bypass: expected b1,b2,... (positive integers without a leading zero, multiples of d*k below n/2), got '" + text + "'");
  size_t pos = 0;
  while (pos <= text.size()) {
    const size_t comma = text.find(',', pos);
    out.push_back(std::stoi(text.substr(pos, comma - pos)));
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  return out;
}

IbtNetSpec parse_ibt_net(const std::string& text) {
  std::smatch m;
  // Sides written in decimal without a leading zero (torus:04x4 is refused, as by every other --net).
  if (!std::regex_match(text, m, std::regex(R"((ibt|torus):([1-9]\d{0,6})((x[1-9]\d{0,6})*))")))
    throw IbtConfigError("--net: expected ibt:NxN[xN..] or torus:NxN[xN..] (equal sides n >= 3 without a leading zero, "
                         "1..8 dimensions, n^d at most 67108864 nodes), got '" + text + "'");
  IbtNetSpec s;
  s.torus = m[1] == "torus";
  s.n = std::stoi(m[2]);
  s.d = 1;
  const std::string rest = m[3];
  size_t pos = 0;
  while ((pos = rest.find('x', pos)) != std::string::npos) {
    const size_t next = rest.find('x', pos + 1);
    if (std::stoi(rest.substr(pos + 1, next - pos - 1)) != s.n)
      throw IbtConfigError("--net: all sides must be equal (iBT(n^d)), got '" + text + "'");
    ++s.d;
    pos = pos + 1;
  }
  if (s.d > 8) throw IbtConfigError("--net: 1..8 dimensions, got '" + text + "'");
  return s;
}

std::vector<int16_t> bfs_distances(const IbtTopology& t, int64_t from) {
  const int64_t nn = t.num_nodes();
  std::vector<int16_t> dist(static_cast<size_t>(nn), -1);
  std::vector<int32_t> queue(static_cast<size_t>(nn));
  size_t head = 0, tail = 0;
  dist[from] = 0;
  queue[tail++] = static_cast<int32_t>(from);
  const int ports = t.num_ports();
  while (head < tail) {
    const int64_t u = queue[head++];
    const int16_t du = dist[u];
    for (int p = 0; p < ports; ++p) {
      const int64_t v = t.neighbor(u, p);
      if (dist[v] < 0) {
        dist[v] = static_cast<int16_t>(du + 1);
        queue[tail++] = static_cast<int32_t>(v);
      }
    }
  }
  return dist;
}

int64_t species_representative(const IbtTopology& t, int s) {
  std::vector<int> c(t.dims(), 0);
  c[0] = s;
  return t.node(c);
}

int64_t translate_to_representative(const IbtTopology& t, int64_t anchor, int64_t v) {
  const int s = t.species(anchor);
  int64_t out = 0;
  for (int i = 0; i < t.dims(); ++i) {
    const int shift = (i == 0 ? s : 0) - t.coord_of(anchor, i);
    const int c = ((t.coord_of(v, i) + shift) % t.n() + t.n()) % t.n();
    out += static_cast<int64_t>(c) * t.stride(i);
  }
  return out;
}

DistanceMetrics distance_metrics(const IbtTopology& t) {
  const int species = t.num_species();
  const int64_t nn = t.num_nodes();
  // Class sizes: count nodes per species.
  std::vector<uint64_t> count(species, 0);
  if (species == 1) {
    count[0] = static_cast<uint64_t>(nn);
  } else {
    for (int64_t v = 0; v < nn; ++v) ++count[t.species(v)];
  }
  DistanceMetrics m;
  uint64_t total = 0;
  for (int s = 0; s < species; ++s) {
    const auto dist = bfs_distances(t, species_representative(t, s));
    uint64_t sum = 0;
    for (int16_t x : dist) {
      if (x < 0) throw IbtConfigError("iBT: network is not connected");
      sum += static_cast<uint64_t>(x);
      if (x > m.diameter) m.diameter = x;
    }
    total += sum * count[s];
  }
  m.average = make_fraction(total, static_cast<uint64_t>(nn) * static_cast<uint64_t>(nn));
  return m;
}

DistanceMetrics torus_distance_metrics(int n, int d) {
  uint64_t ring = 0;
  for (int j = 0; j < n; ++j) ring += static_cast<uint64_t>(std::min(j, n - j));
  DistanceMetrics m;
  m.diameter = d * (n / 2);
  m.average = make_fraction(static_cast<uint64_t>(d) * ring, static_cast<uint64_t>(n));
  return m;
}

IbtDistanceTable::IbtDistanceTable(const IbtTopology& t) : m_t(&t) {
  for (int s = 0; s < t.num_species(); ++s) m_dist.push_back(bfs_distances(t, species_representative(t, s)));
}

int IbtDistanceTable::distance(int64_t from, int64_t to) const {
  return m_dist[m_t->species(from)][translate_to_representative(*m_t, from, to)];
}

int IbtDistanceTable::route(int64_t cur, int64_t dst) const {
  if (cur == dst) return -1;
  const int here = distance(cur, dst);
  for (int p = 0; p < m_t->num_ports(); ++p)
    if (distance(m_t->neighbor(cur, p), dst) == here - 1) return p;
  return -1;  // unreachable in a connected network
}

}  // namespace wormcast::sw
