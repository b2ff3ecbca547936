// Schedule IR helpers: chunk sets, paths, translation to another source, redundancy removal.
#include "sw/schedule/schedule.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace wormcast::sw {

void ChunkSet::add(int chunk) {
  if (chunk < 0) throw std::invalid_argument("chunk ids are >= 0");
  const size_t w = size_t(chunk) / 64;
  if (m_words.size() <= w) m_words.resize(w + 1, 0);
  m_words[w] |= uint64_t(1) << (chunk % 64);
}

void ChunkSet::add(const ChunkSet& other) {
  if (m_words.size() < other.m_words.size()) m_words.resize(other.m_words.size(), 0);
  for (size_t i = 0; i < other.m_words.size(); ++i) m_words[i] |= other.m_words[i];
}

bool ChunkSet::contains(int chunk) const {
  if (chunk < 0) return false;
  const size_t w = size_t(chunk) / 64;
  return w < m_words.size() && ((m_words[w] >> (chunk % 64)) & 1);
}

int ChunkSet::count() const {
  int n = 0;
  for (uint64_t w : m_words) n += __builtin_popcountll(w);
  return n;
}

std::vector<int> ChunkSet::ids() const {
  std::vector<int> out;
  for (size_t i = 0; i < m_words.size(); ++i)
    for (int b = 0; b < 64; ++b)
      if ((m_words[i] >> b) & 1) out.push_back(int(i * 64) + b);
  return out;
}

bool ChunkSet::subset_of(const ChunkSet& other) const { return first_missing_from(other) < 0; }

int ChunkSet::first_missing_from(const ChunkSet& other) const {
  for (size_t i = 0; i < m_words.size(); ++i) {
    const uint64_t o = i < other.m_words.size() ? other.m_words[i] : 0;
    const uint64_t extra = m_words[i] & ~o;
    if (extra) return int(i * 64) + __builtin_ctzll(extra);
  }
  return -1;
}

bool ChunkSet::operator==(const ChunkSet& o) const {
  // Trailing zero words do not change the set.
  const size_t n = std::max(m_words.size(), o.m_words.size());
  for (size_t i = 0; i < n; ++i) {
    const uint64_t a = i < m_words.size() ? m_words[i] : 0;
    const uint64_t b = i < o.m_words.size() ? o.m_words[i] : 0;
    if (a != b) return false;
  }
  return true;
}

std::vector<Arc> unicast_path(const Topology& t, const Unicast& u) {
  return route_path(t, u.src, u.dst, u.tie_negative);
}

int first_port(const Topology& t, const Unicast& u) {
  return t.route(u.src, u.dst, u.tie_negative).port;
}

int translate_node(const Topology& t, int node, int by) {
  Coord c = t.coord(node);
  for (int d = 0; d < t.dims(); ++d) {
    if (!t.torus(d)) throw std::invalid_argument("translate: only torus dimensions are node-symmetric");
    c[d] = (c[d] + t.coord_of(by, d)) % t.radix(d);
  }
  return t.node(c);
}

Schedule translate(const Schedule& s, int new_source) {
  Schedule out = s;
  // Move by (new_source - old source): build that offset node first.
  Coord off;
  for (int d = 0; d < s.topology.dims(); ++d) {
    const int k = s.topology.radix(d);
    off[d] = ((s.topology.coord_of(new_source, d) - s.topology.coord_of(s.source, d)) % k + k) % k;
  }
  const int by = s.topology.node(off);
  out.source = new_source;
  for (Unicast& u : out.unicasts) {
    u.src = translate_node(s.topology, u.src, by);
    u.dst = translate_node(s.topology, u.dst, by);
  }
  return out;
}

void sort_canonical(Schedule& s) {
  std::stable_sort(s.unicasts.begin(), s.unicasts.end(), [](const Unicast& a, const Unicast& b) {
    if (a.step != b.step) return a.step < b.step;
    if (a.src != b.src) return a.src < b.src;
    return a.order < b.order;
  });
}

void drop_redundant(Schedule& s) {
  sort_canonical(s);
  std::vector<char> informed(size_t(s.topology.num_nodes()), 0);
  informed[size_t(s.source)] = 1;
  std::vector<Unicast> kept;
  kept.reserve(s.unicasts.size());
  size_t i = 0;
  while (i < s.unicasts.size()) {
    size_t j = i;
    while (j < s.unicasts.size() && s.unicasts[j].step == s.unicasts[i].step) ++j;
    // Informed-before-the-step decides; targets of this step are marked afterwards.
    for (size_t u = i; u < j; ++u)
      if (!informed[size_t(s.unicasts[u].dst)]) kept.push_back(s.unicasts[u]);
    for (size_t u = i; u < j; ++u) informed[size_t(s.unicasts[u].dst)] = 1;
    i = j;
  }
  // Renumber: kept unicasts are still sorted by (step, src, order).
  for (size_t u = 0; u < kept.size(); ++u) {
    const bool same = u > 0 && kept[u - 1].step == kept[u].step && kept[u - 1].src == kept[u].src;
    kept[u].order = same ? kept[u - 1].order + 1 : 0;
  }
  s.unicasts = std::move(kept);
}

std::string format_node(const Topology& t, int node) {
  std::string s = "(";
  for (int d = 0; d < t.dims(); ++d) s += (d ? "," : "") + std::to_string(t.coord_of(node, d));
  return s + ")";
}

std::string format_port(int port) {
  if (port < 0) return "local";
  static const char kDimNames[] = {'x', 'y', 'z', 'w'};
  const int d = port / 2;
  std::string s = d < 4 ? std::string(1, kDimNames[d]) : "d" + std::to_string(d);
  return s + ((port & 1) ? "-" : "+");
}

int ceil_log(long long value, long long base) {
  int s = 0;
  for (long long p = 1; p < value; p *= base) ++s;
  return s;
}

std::vector<int> node_coords(const Topology& t, int node) {
  std::vector<int> c;
  for (int d = 0; d < t.dims(); ++d) c.push_back(t.coord_of(node, d));
  return c;
}

}  // namespace wormcast::sw
