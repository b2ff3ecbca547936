// Schedule IR helpers: chunk sets, paths, translation to another source, redundancy removal.
#include "sw/schedule/schedule.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <stdexcept>
#include <utility>

namespace wormcast::sw {

uint64_t ChunkSet::raw() const {
  uint64_t v;
  std::memcpy(&v, m_raw, sizeof v);
  return v;
}

void ChunkSet::set_raw(uint64_t v) { std::memcpy(m_raw, &v, sizeof v); }

ChunkSet::Word* ChunkSet::block() const { return reinterpret_cast<Word*>(uintptr_t(raw())); }

ChunkSet::Words ChunkSet::words(Word& one) const {
  if (on_heap()) return Words{block() + 1, heap_size()};
  one = Word{m_tag, raw()};
  return Words{&one, one.bits ? 1u : 0u};
}

void ChunkSet::release() {
  if (on_heap()) delete[] block();
  m_tag = 0;
  set_raw(0);
}

ChunkSet::~ChunkSet() { release(); }

ChunkSet::ChunkSet(const ChunkSet& o) : m_tag(o.m_tag) {
  if (!o.on_heap()) {
    set_raw(o.raw());
    return;
  }
  const uint32_t n = o.heap_size();
  Word* b = new Word[n + 1];
  b[0] = Word{n, 0};
  std::copy(o.block() + 1, o.block() + 1 + n, b + 1);
  set_raw(uint64_t(uintptr_t(b)));
}

ChunkSet::ChunkSet(ChunkSet&& o) noexcept : m_tag(o.m_tag) {
  set_raw(o.raw());
  o.m_tag = 0;
  o.set_raw(0);
}

ChunkSet& ChunkSet::operator=(const ChunkSet& o) {
  if (this != &o) *this = ChunkSet(o);
  return *this;
}

ChunkSet& ChunkSet::operator=(ChunkSet&& o) noexcept {
  if (this != &o) {
    release();
    m_tag = o.m_tag;
    set_raw(o.raw());
    o.m_tag = 0;
    o.set_raw(0);
  }
  return *this;
}

void ChunkSet::assign(const std::vector<Word>& v) {
  release();
  if (v.size() <= 1) {
    if (!v.empty()) {
      m_tag = v[0].index;
      set_raw(v[0].bits);
    }
    return;
  }
  const uint32_t n = uint32_t(v.size());
  Word* b = new Word[n + 1];
  b[0] = Word{n, 0};
  std::copy(v.begin(), v.end(), b + 1);
  m_tag = kHeap | n;
  set_raw(uint64_t(uintptr_t(b)));
}

void ChunkSet::insert(uint32_t i, uint64_t bits) {
  if (!on_heap()) {
    const uint64_t have = raw();
    if (have == 0 || m_tag == i) {
      m_tag = i;
      set_raw(have | bits);
      return;
    }
    assign(i < m_tag ? std::vector<Word>{Word{i, bits}, Word{m_tag, have}} : std::vector<Word>{Word{m_tag, have}, Word{i, bits}});
    return;
  }
  Word* b = block();
  const uint32_t n = heap_size();
  Word* at = std::lower_bound(b + 1, b + 1 + n, i, [](const Word& w, uint32_t x) { return w.index < x; });
  if (at != b + 1 + n && at->index == i) {
    at->bits |= bits;
    return;
  }
  const size_t pos = size_t(at - (b + 1));
  if (n < b[0].index) {  // room in the block (its capacity is the header's index)
    std::copy_backward(b + 1 + pos, b + 1 + n, b + 2 + n);
    b[1 + pos] = Word{i, bits};
    m_tag = kHeap | (n + 1);
    return;
  }
  // Full: a block of twice the capacity, so that adding chunk after chunk stays linear.
  const uint32_t cap = 2 * n;
  Word* nb = new Word[cap + 1];
  nb[0] = Word{cap, 0};
  std::copy(b + 1, b + 1 + pos, nb + 1);
  nb[1 + pos] = Word{i, bits};
  std::copy(b + 1 + pos, b + 1 + n, nb + 2 + pos);
  delete[] b;
  m_tag = kHeap | (n + 1);
  set_raw(uint64_t(uintptr_t(nb)));
}

void ChunkSet::add(int chunk) {
  if (chunk < 0) throw std::invalid_argument("chunk ids are >= 0");
  insert(uint32_t(chunk) / 64, uint64_t(1) << (chunk % 64));
}

void ChunkSet::add(const ChunkSet& other) {
  Word one_a, one_b;
  const Words b = other.words(one_b);
  if (b.size == 0) return;
  if (b.size == 1) {
    insert(b.data[0].index, b.data[0].bits);
    return;
  }
  // Every word of `other` already has its index here (a node's holdings taking what it holds
  // already, mostly): or'ed in place.
  if (on_heap()) {
    Word* w = block() + 1;
    const uint32_t n = heap_size();
    uint32_t at = 0;
    bool inside = true;
    for (uint32_t k = 0; k < b.size && inside; ++k) {
      while (at < n && w[at].index < b.data[k].index) ++at;
      inside = at < n && w[at].index == b.data[k].index;
    }
    if (inside) {
      at = 0;
      for (uint32_t k = 0; k < b.size; ++k) {
        while (w[at].index < b.data[k].index) ++at;
        w[at].bits |= b.data[k].bits;
      }
      return;
    }
  }
  // Else both lists, in order of their indices, merged (a word of both or'ed).
  const Words a = words(one_a);
  std::vector<Word> merged;
  merged.reserve(a.size + b.size);
  uint32_t i = 0, j = 0;
  while (i < a.size || j < b.size) {
    if (j == b.size || (i < a.size && a.data[i].index < b.data[j].index)) {
      merged.push_back(a.data[i++]);
    } else if (i == a.size || b.data[j].index < a.data[i].index) {
      merged.push_back(b.data[j++]);
    } else {
      merged.push_back(Word{a.data[i].index, a.data[i].bits | b.data[j].bits});
      ++i, ++j;
    }
  }
  assign(merged);
}

bool ChunkSet::contains(int chunk) const {
  if (chunk < 0) return false;
  Word one;
  const Words w = words(one);
  const uint32_t i = uint32_t(chunk) / 64;
  const Word* at = std::lower_bound(w.data, w.data + w.size, i, [](const Word& x, uint32_t v) { return x.index < v; });
  return at != w.data + w.size && at->index == i && ((at->bits >> (chunk % 64)) & 1);
}

int ChunkSet::count() const {
  Word one;
  const Words w = words(one);
  int n = 0;
  for (uint32_t k = 0; k < w.size; ++k) n += __builtin_popcountll(w.data[k].bits);
  return n;
}

std::vector<int> ChunkSet::ids() const {
  Word one;
  const Words w = words(one);
  std::vector<int> out;
  for (uint32_t k = 0; k < w.size; ++k)
    for (uint64_t m = w.data[k].bits; m; m &= m - 1) out.push_back(int(w.data[k].index) * 64 + __builtin_ctzll(m));
  return out;
}

bool ChunkSet::subset_of(const ChunkSet& other) const { return first_missing_from(other) < 0; }

int ChunkSet::first_missing_from(const ChunkSet& other) const {
  Word one_a, one_b;
  const Words a = words(one_a), b = other.words(one_b);
  uint32_t o = 0;
  for (uint32_t k = 0; k < a.size; ++k) {
    const Word& w = a.data[k];
    while (o < b.size && b.data[o].index < w.index) ++o;
    const uint64_t have = o < b.size && b.data[o].index == w.index ? b.data[o].bits : 0;
    if (const uint64_t extra = w.bits & ~have) return int(w.index) * 64 + __builtin_ctzll(extra);
  }
  return -1;
}

// No word is 0, so equal sets have equal lists.
bool ChunkSet::operator==(const ChunkSet& o) const {
  Word one_a, one_b;
  const Words a = words(one_a), b = o.words(one_b);
  return a.size == b.size && std::equal(a.data, a.data + a.size, b.data);
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
  std::vector<Unicast>& us = s.unicasts;
  auto before = [](const Unicast& a, const Unicast& b) {
    if (a.step != b.step) return a.step < b.step;
    if (a.src != b.src) return a.src < b.src;
    return a.order < b.order;
  };
  if (std::is_sorted(us.begin(), us.end(), before)) return;
  if (us.size() > UINT32_MAX) {
    std::stable_sort(us.begin(), us.end(), before);
    return;
  }
  // Sorted as positions, then moved into place along the permutation's cycles: std::stable_sort
  // of the unicasts themselves would take a buffer of up to all of them (millions of a gossip).
  std::vector<uint32_t> from(us.size());
  std::iota(from.begin(), from.end(), 0u);
  std::stable_sort(from.begin(), from.end(), [&](uint32_t a, uint32_t b) { return before(us[a], us[b]); });
  for (size_t i = 0; i < from.size(); ++i) {
    if (from[i] == i) continue;
    Unicast held = std::move(us[i]);
    size_t j = i;
    while (from[j] != i) {
      const size_t k = from[j];
      us[j] = std::move(us[k]);
      from[j] = uint32_t(j);
      j = k;
    }
    us[j] = std::move(held);
    from[j] = uint32_t(j);
  }
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
