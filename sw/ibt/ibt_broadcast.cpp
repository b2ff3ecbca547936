// Forwarding rules of the iBT line / rectangular / global broadcasts and the torus trees, and the
// step-level simulator that runs them on networks of up to millions of nodes.
//
// The rules (Zhang and Deng, Secs. 4.1, 5.1, 6.1) say which links a node forwards a newly
// received packet on; they do not say which packet goes first when several wait for one link.
// Two choices close that gap, both INTERPRETATION:
//  1. "to its neighbours that have not received it yet" is read literally: at the moment a link
//     is about to carry a packet, the packet is skipped (and dropped from that link's queue) if
//     the far node already holds it or receives it over another link in the same step. When two
//     links would deliver the same packet to one node in one step, the link arriving on the
//     lower-numbered port of the receiver wins. This makes delivery exactly-once.
//  2. Each link sends its queued packets first-come first-served, by the step in which the node
//     received them; packets a node receives in the same step are queued in the order of the
//     port they arrived on (x+ first ... bypass- last). The source's own packets follow its
//     Int(pn) code.
#include "sw/ibt/ibt_broadcast.h"

#include <algorithm>
#include <map>
#include <set>

namespace wormcast::sw {

namespace {

constexpr int kMaxPackets = 64;

uint64_t bit(int i) { return uint64_t{1} << i; }

/// The per-node view the rules need: coordinates relative to the source.
struct NodeView {
  int rel[8];
};

class Rules {
 public:
  Rules(const IbtTopology& t, const IbtBroadcast& b) : m_t(t), m_b(b), m_src(t.coords(b.source)) {
    m_colour_of.assign(kMaxPackets, -1);
    for (size_t c = 0; c < b.colours.size(); ++c)
      for (int p = b.colours[c].first; p < b.colours[c].first + b.colours[c].count; ++p) m_colour_of[p] = static_cast<int>(c);
    for (int dim : b.dims) m_in_group_dim[dim] = true;
  }

  int colour_of(int packet) const { return m_colour_of[packet]; }

  void view(int64_t v, NodeView& nv) const {
    for (int i = 0; i < m_t.dims(); ++i) {
      const int x = static_cast<int>(v % m_t.n());
      v /= m_t.n();
      nv.rel[i] = ((x - m_src[i]) % m_t.n() + m_t.n()) % m_t.n();
    }
  }

  bool in_group(const NodeView& nv) const {
    for (int i = 0; i < m_t.dims(); ++i)
      if (!m_in_group_dim[i] && nv.rel[i] != 0) return false;
    return true;
  }

  /// Ports of node v that move in dimension `dim` (two torus links, plus the bypass pair when the
  /// node's bypass dimension is `dim`).
  uint32_t dim_ports(int64_t v, int dim) const {
    uint32_t m = (1u << (2 * dim)) | (1u << (2 * dim + 1));
    if (!m_t.is_torus() && m_t.bypass_dim(v) == dim) m |= 3u << m_t.bypass_port();
    return m;
  }

  /// Links the node forwards a newly received `packet` on (arrived through `in_port`).
  uint32_t forward(int64_t v, const NodeView& nv, int packet, int in_port) const {
    const int c = m_colour_of[packet];
    switch (m_b.algo) {
      case IbtAlgo::TorusTrees: return tree_forward(nv, c);
      default: return colour_forward(v, nv, c, in_port);
    }
  }

  /// Sec. 6.1 rules 2-4 over the group's dimensions D (Sec. 4.1 is the case |D| = 1, Sec. 5.1 the
  /// case |D| = 2 with rule 4 used only by nodes off the colour's hyperplane, as Sec. 5.1 says).
  uint32_t colour_forward(int64_t v, const NodeView& nv, int c, int in_port) const {
    const int m = static_cast<int>(m_b.dims.size());
    const int i = m_b.dims[c];
    uint32_t mask = 0;
    const bool off_plane = nv.rel[i] != 0;  // i in Omega^c(x, s)
    if (off_plane) {
      // Rule 3: keep going in the dimension the packet came from.
      mask |= dim_ports(v, m_t.port_dim(v, in_port));
      // Rule 2: chi(i, k_m) is the cyclic run c, c+1, ..., c+k_m+1 (positions in D) that covers
      // Omega^c; the colour fans out into every dimension after that run.
      int max_off = 0;
      for (int a = 0; a < m; ++a)
        if (nv.rel[m_b.dims[a]] != 0) max_off = std::max(max_off, (a - c + m) % m);
      for (int o = max_off + 1; o < m; ++o) mask |= dim_ports(v, m_b.dims[(c + o) % m]);
    }
    // Rule 4: hand the colour to neighbours on its hyperplane y_i = s_i.
    if (off_plane || m_b.algo == IbtAlgo::Global) {
      for (int a = 0; a < m; ++a) {
        const int dim = m_b.dims[a];
        if (dim != i) {
          if (!off_plane) mask |= dim_ports(v, dim);
          continue;
        }
        const int n = m_t.n();
        if ((nv.rel[i] + 1) % n == 0) mask |= 1u << (2 * i);
        if ((nv.rel[i] - 1 + n) % n == 0) mask |= 1u << (2 * i + 1);
        if (!m_t.is_torus() && m_t.bypass_dim(v) == i) {
          const int len = m_t.bypass_length(v);
          if ((nv.rel[i] + len) % n == 0) mask |= 1u << m_t.bypass_port();
          if ((nv.rel[i] - len + n) % n == 0) mask |= 1u << (m_t.bypass_port() + 1);
        }
      }
    }
    return mask;
  }

  /// Tree c is tree 0 rotated by c quarter turns in the plane (i1, i2). In tree 0's frame
  /// (a, b): row b = 0 runs a+ for n-1 hops; each row node a >= 1 starts a column b+ of n-1 hops;
  /// column a = 0 is reached from a = 1 by a- links. The four trees use disjoint directed links
  /// and have depth 2(n-1).
  uint32_t tree_forward(const NodeView& nv, int c) const {
    const int n = m_t.n();
    int a = nv.rel[m_b.dims[0]], b = nv.rel[m_b.dims[1]];
    for (int r = 0; r < c; ++r) {  // frame = R^{-c}(real); R^{-1}(x, y) = (y, -x)
      const int na = b, nb = (n - a) % n;
      a = na;
      b = nb;
    }
    uint32_t mask = 0;
    if (b == 0 && a >= 1) {
      if (a <= n - 2) mask |= frame_port(c, 1, 0);
      mask |= frame_port(c, 0, 1);
    } else if (b >= 1 && a >= 1) {
      if (b <= n - 2) mask |= frame_port(c, 0, 1);
      if (a == 1) mask |= frame_port(c, -1, 0);
    }
    return mask;
  }

  /// Port of the real direction R^c(dx, dy); R(x, y) = (-y, x).
  uint32_t frame_port(int c, int dx, int dy) const {
    for (int r = 0; r < c; ++r) {
      const int nx = -dy, ny = dx;
      dx = nx;
      dy = ny;
    }
    const int i1 = m_b.dims[0], i2 = m_b.dims[1];
    if (dx == 1) return 1u << (2 * i1);
    if (dx == -1) return 1u << (2 * i1 + 1);
    if (dy == 1) return 1u << (2 * i2);
    return 1u << (2 * i2 + 1);
  }

 private:
  const IbtTopology& m_t;
  const IbtBroadcast& m_b;
  std::vector<int> m_src;
  std::vector<int> m_colour_of;
  bool m_in_group_dim[8] = {};
};

void validate(const IbtTopology& t, const IbtBroadcast& b) {
  if (b.packets < 1 || b.packets > kMaxPackets) throw IbtConfigError("--packets: k must be in 1..64");
  if (b.source < 0 || b.source >= t.num_nodes()) throw IbtConfigError("--source: node id out of range");
  std::set<int> seen;
  for (int d : b.dims)
    if (d < 0 || d >= t.dims() || !seen.insert(d).second)
      throw IbtConfigError("--dims: broadcast dimensions must be distinct and in 0..d-1");
  if (b.algo == IbtAlgo::TorusTrees && (!t.is_torus() || b.dims.size() != 2))
    throw IbtConfigError("torus trees: a torus and two dimensions are required");
  if ((b.algo == IbtAlgo::Rectangular && b.dims.size() != 2) || (b.algo == IbtAlgo::Line && b.dims.size() != 1))
    throw IbtConfigError("--dims: a line broadcast takes one dimension, a rectangular one two");
  int total = 0;
  for (const auto& c : b.colours) {
    if (c.count < 0 || c.first != total) throw IbtConfigError("colours must cover packets 0..k-1 in order");
    if (c.pn < 0 || c.pn > 15) throw IbtConfigError("--pn: Int(pn) must be in 0..15");
    total += c.count;
  }
  if (total != b.packets) throw IbtConfigError("colour packet counts must add up to k");
}

}  // namespace

IbtBroadcast ibt_line(int64_t source, int dim, int k, int pn) {
  IbtBroadcast b;
  b.algo = IbtAlgo::Line;
  b.source = source;
  b.packets = k;
  b.dims = {dim};
  b.colours = {IbtColour{dim, 0, k, pn}};
  return b;
}

IbtBroadcast ibt_rectangular(int64_t source, int i1, int i2, int k1, int k2, int pn1, int pn2) {
  IbtBroadcast b;
  b.algo = IbtAlgo::Rectangular;
  b.source = source;
  b.packets = k1 + k2;
  b.dims = {i1, i2};
  b.colours = {IbtColour{i1, 0, k1, pn1}, IbtColour{i2, k1, k2, pn2}};
  return b;
}

IbtBroadcast ibt_global(int64_t source, const std::vector<int>& counts, const std::vector<int>& pns) {
  IbtBroadcast b;
  b.algo = IbtAlgo::Global;
  b.source = source;
  int first = 0;
  for (size_t i = 0; i < counts.size(); ++i) {
    b.dims.push_back(static_cast<int>(i));
    b.colours.push_back(IbtColour{static_cast<int>(i), first, counts[i], i < pns.size() ? pns[i] : 0});
    first += counts[i];
  }
  b.packets = first;
  return b;
}

IbtBroadcast torus_trees(int64_t source, int i1, int i2, int k) {
  // Contiguous blocks of ceil/floor(k/4) keep the IbtColour form; tree c gets block c.
  IbtBroadcast b;
  b.algo = IbtAlgo::TorusTrees;
  b.source = source;
  b.packets = k;
  b.dims = {i1, i2};
  int first = 0;
  for (int c = 0; c < 4; ++c) {
    const int count = k / 4 + (c < k % 4 ? 1 : 0);
    b.colours.push_back(IbtColour{c % 2 == 0 ? i1 : i2, first, count, 0});
    first += count;
  }
  return b;
}

IbtSimResult simulate_broadcast(const IbtTopology& t, const IbtBroadcast& b, const IbtSimOptions& o) {
  validate(t, b);
  const Rules rules(t, b);
  const int64_t nn = t.num_nodes();
  const int ports = t.num_ports();
  const int k = b.packets;
  const uint64_t full = k == 64 ? ~uint64_t{0} : bit(k) - 1;

  std::vector<uint64_t> have(static_cast<size_t>(nn), 0), inc(static_cast<size_t>(nn), 0);
  std::vector<uint8_t> order(static_cast<size_t>(nn) * static_cast<size_t>(k));
  std::vector<uint8_t> count(static_cast<size_t>(nn), 0);
  std::vector<uint64_t> pending(static_cast<size_t>(nn) * static_cast<size_t>(ports), 0);
  std::vector<uint8_t> is_active(static_cast<size_t>(nn), 0);

  IbtSimResult r;
  NodeView nv;
  for (int64_t v = 0; v < nn; ++v) {
    rules.view(v, nv);
    if (!rules.in_group(nv)) continue;
    ++r.group_size;
    for (int p = 0; p < ports; ++p) {
      rules.view(t.neighbor(v, p), nv);
      if (rules.in_group(nv)) ++r.group_links;
    }
  }

  // The source: its packets in id order; colour c leaves on the links of its first dimension
  // (the torus trees: on the tree's first link), each link in or out of order by pn.
  const int64_t s = b.source;
  have[s] = full;
  count[s] = static_cast<uint8_t>(k);
  for (int p = 0; p < k; ++p) order[static_cast<size_t>(s) * k + p] = static_cast<uint8_t>(p);
  uint32_t src_reverse = 0;
  for (size_t c = 0; c < b.colours.size(); ++c) {
    const IbtColour& col = b.colours[c];
    uint64_t mask = 0;
    for (int p = col.first; p < col.first + col.count; ++p) mask |= bit(p);
    uint32_t out;
    if (b.algo == IbtAlgo::TorusTrees) {
      rules.view(s, nv);
      out = rules.frame_port(static_cast<int>(c), 1, 0);
    } else {
      out = rules.dim_ports(s, col.dim);
    }
    for (int p = 0; p < ports; ++p) {
      if (!(out >> p & 1)) continue;
      pending[static_cast<size_t>(s) * ports + p] |= mask;
      // Bin(pn) = rRLl: right torus link = bit 3, right bypass = 2, left bypass = 1, left torus = 0.
      int pn_bit;
      if (p == 2 * col.dim) pn_bit = 3;
      else if (p == 2 * col.dim + 1) pn_bit = 0;
      else if (p == t.bypass_port()) pn_bit = 2;
      else pn_bit = 1;
      if (b.algo != IbtAlgo::TorusTrees && (col.pn >> pn_bit & 1)) src_reverse |= 1u << p;
    }
  }

  std::vector<int32_t> active{static_cast<int32_t>(s)}, next;
  is_active[s] = 1;
  int64_t complete = 1;
  if (complete == r.group_size) r.complete = true;
  struct Delivery {
    int32_t v;
    int8_t in_port;
    int8_t packet;
  };
  std::vector<Delivery> deliveries;

  for (int step = 1; !active.empty() && step <= o.max_steps && !r.complete; ++step) {
    deliveries.clear();
    int64_t sends = 0;
    // Receiver-port order: the send arriving on the receiver's lower port claims first.
    for (int in_port = 0; in_port < ports; ++in_port) {
      const int q = in_port ^ 1;
      for (int32_t u : active) {
        uint64_t& pend = pending[static_cast<size_t>(u) * ports + q];
        if (!pend) continue;
        const int64_t v = t.neighbor(u, q);
        const uint64_t blocked = have[v] | inc[v];
        const bool rev = u == s && (src_reverse >> q & 1);
        uint64_t m = pend;
        while (m) {
          const int j = rev ? 63 - __builtin_clzll(m) : __builtin_ctzll(m);
          m &= ~bit(j);
          const int p = order[static_cast<size_t>(u) * k + j];
          if (blocked >> p & 1) continue;
          inc[v] |= bit(p);
          deliveries.push_back(Delivery{static_cast<int32_t>(v), static_cast<int8_t>(in_port), static_cast<int8_t>(p)});
          ++sends;
          if (o.record) r.trace.push_back(IbtSend{step, u, q, v, p});
          break;
        }
        pend = m;
      }
    }
    r.sends += sends;
    r.sends_per_step.push_back(sends);

    next.clear();
    for (int32_t u : active) {
      bool any = false;
      for (int p = 0; p < ports && !any; ++p) any = pending[static_cast<size_t>(u) * ports + p] != 0;
      if (any) next.push_back(u);
      else is_active[u] = 0;
    }
    for (const Delivery& d : deliveries) {
      const int64_t v = d.v;
      inc[v] = 0;
      have[v] |= bit(d.packet);
      const int j = count[v]++;
      order[static_cast<size_t>(v) * k + j] = static_cast<uint8_t>(d.packet);
      rules.view(v, nv);
      const uint32_t out = rules.forward(v, nv, d.packet, d.in_port);
      for (int p = 0; p < ports; ++p)
        if (out >> p & 1) pending[static_cast<size_t>(v) * ports + p] |= bit(j);
      if (have[v] == full) {
        ++complete;
        r.steps = step;
      }
      if (out && !is_active[v]) {
        is_active[v] = 1;
        next.push_back(static_cast<int32_t>(v));
      }
    }
    active.swap(next);
    if (complete == r.group_size) r.complete = true;
  }
  return r;
}

std::vector<std::string> check_trace(const IbtTopology& t, const IbtBroadcast& b, const IbtSimResult& r) {
  std::vector<std::string> errors;
  auto error = [&](const std::string& e) {
    if (errors.size() < 20) errors.push_back(e);
  };
  const Rules rules(t, b);
  const int64_t nn = t.num_nodes();
  const int k = b.packets;
  // first[v][p] = step v received p (0 = source at start, -1 never); receipts counted.
  std::vector<int> first(static_cast<size_t>(nn) * k, -1);
  std::vector<int> receipts(static_cast<size_t>(nn) * k, 0);
  for (int p = 0; p < k; ++p) first[static_cast<size_t>(b.source) * k + p] = 0;
  std::set<std::tuple<int, int64_t, int>> link_use;
  for (const IbtSend& s : r.trace) {
    if (t.neighbor(s.src, s.port) != s.dst) error("step " + std::to_string(s.step) + ": port does not lead to dst");
    if (!link_use.insert({s.step, s.src, s.port}).second)
      error("step " + std::to_string(s.step) + ": link of node " + std::to_string(s.src) + " port " +
            std::to_string(s.port) + " carries two packets");
    const int f = first[static_cast<size_t>(s.src) * k + s.packet];
    if (f < 0 || f >= s.step)
      error("step " + std::to_string(s.step) + ": node " + std::to_string(s.src) + " sends packet " +
            std::to_string(s.packet) + " it does not hold");
    int& fd = first[static_cast<size_t>(s.dst) * k + s.packet];
    if (fd < 0 || fd > s.step) fd = s.step;
    ++receipts[static_cast<size_t>(s.dst) * k + s.packet];
  }
  NodeView nv;
  for (int64_t v = 0; v < nn; ++v) {
    rules.view(v, nv);
    const bool member = rules.in_group(nv);
    for (int p = 0; p < k; ++p) {
      const int c = receipts[static_cast<size_t>(v) * k + p];
      if (v == b.source) {
        if (c) error("the source receives packet " + std::to_string(p));
      } else if (member && c != 1) {
        error("node " + std::to_string(v) + " receives packet " + std::to_string(p) + " " + std::to_string(c) + " times");
      } else if (!member && c) {
        error("node " + std::to_string(v) + " outside the group receives packet " + std::to_string(p));
      }
    }
  }
  return errors;
}

}  // namespace wormcast::sw
