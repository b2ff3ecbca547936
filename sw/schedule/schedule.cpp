// Schedule IR helpers: chunk sets, paths, translation to another source, redundancy removal.
#include "sw/schedule/schedule.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace wormcast::sw {

namespace {
// A word's place in a sorted list of words: the first whose index is not below i.
template <class Words>
auto word_at(Words& words, uint32_t i) {
  return std::lower_bound(words.begin(), words.end(), i, [](const auto& w, uint32_t x) { return w.index < x; });
}
}  // namespace

uint64_t ChunkSet::word(uint32_t i) const {
  const auto it = word_at(m_words, i);
  return it != m_words.end() && it->index == i ? it->bits : 0;
}

void ChunkSet::add(int chunk) {
  if (chunk < 0) throw std::invalid_argument("chunk ids are >= 0");
  const uint32_t i = uint32_t(chunk) / 64;
  const uint64_t bit = uint64_t(1) << (chunk % 64);
  const auto it = word_at(m_words, i);
  if (it != m_words.end() && it->index == i)
    it->bits |= bit;
  else
    m_words.insert(it, Word{i, bit});
}

void ChunkSet::add(const ChunkSet& other) {
  // Every word of `other` already has its index here (a node's holdings taking what it holds
  // already, mostly): or'ed in place.
  bool inside = true;
  auto at = m_words.begin();
  for (const Word& w : other.m_words) {
    while (at != m_words.end() && at->index < w.index) ++at;
    if (at == m_words.end() || at->index != w.index) {
      inside = false;
      break;
    }
    at->bits |= w.bits;  // (a partial or is kept by the merge below)
  }
  if (inside) return;
  // Else both lists, in order of their indices, merged (a word of both or'ed).
  std::vector<Word> merged;
  merged.reserve(m_words.size() + other.m_words.size());
  auto a = m_words.cbegin();
  auto b = other.m_words.cbegin();
  while (a != m_words.end() || b != other.m_words.end()) {
    if (b == other.m_words.end() || (a != m_words.end() && a->index < b->index)) {
      merged.push_back(*a++);
    } else if (a == m_words.end() || b->index < a->index) {
      merged.push_back(*b++);
    } else {
      merged.push_back(Word{a->index, a->bits | b->bits});
      ++a, ++b;
    }
  }
  m_words = std::move(merged);
}

bool ChunkSet::contains(int chunk) const {
  if (chunk < 0) return false;
  return (word(uint32_t(chunk) / 64) >> (chunk % 64)) & 1;
}

int ChunkSet::count() const {
  int n = 0;
  for (const Word& w : m_words) n += __builtin_popcountll(w.bits);
  return n;
}

std::vector<int> ChunkSet::ids() const {
  std::vector<int> out;
  for (const Word& w : m_words)
    for (uint64_t m = w.bits; m; m &= m - 1) out.push_back(int(w.index) * 64 + __builtin_ctzll(m));
  return out;
}

bool ChunkSet::subset_of(const ChunkSet& other) const { return first_missing_from(other) < 0; }

int ChunkSet::first_missing_from(const ChunkSet& other) const {
  auto o = other.m_words.begin();
  for (const Word& w : m_words) {
    while (o != other.m_words.end() && o->index < w.index) ++o;
    const uint64_t have = o != other.m_words.end() && o->index == w.index ? o->bits : 0;
    if (const uint64_t extra = w.bits & ~have) return int(w.index) * 64 + __builtin_ctzll(extra);
  }
  return -1;
}

// No word is 0, so equal sets have equal lists.
bool ChunkSet::operator==(const ChunkSet& o) const { return m_words == o.m_words; }

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
