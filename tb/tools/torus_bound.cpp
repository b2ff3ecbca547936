// torus-bound: the speed bound of one configuration. A program of its own, with no kernel and no
// SystemC, that runs what `wormcast traffic --set router.preset=booksim-iq --set
// router.local_ports=one --set traffic.pattern=uniform-all --vcs 2 --buf 8 --len 5` runs on a
// k-ary 2- or 3-cube torus, flit for flit (its hop trace is the model's: tests/cli/test_torus_bound.sh),
// and nothing more: no statistics but the mean latency and the accepted load, no sleeping member,
// no other parameter. --features adds, one by one, the bookkeeping a complete simulator does beside
// the flits (the routers' activity and blocking counts, the packets' statistics and a scoreboard by
// packet id; idle members skipped; each member's edge through a virtual call), so that their cost is
// measured on the same flits. docs/experiments/speed.md ("The bound of one configuration")
// measures wormcast against it. The cycle rules are docs/router.md sections 5, 6, 8 and 11.
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "tb/run/latency_histogram.h"
#include "tb/run/source_rng.h"

namespace {

constexpr int kVcs = 4;        // two dateline classes of two VCs (--vcs 2)
constexpr int kVcsPerClass = 2;
constexpr int kDepth = 8;      // flits per VC buffer (--buf 8)
constexpr int kLength = 5;     // flits per packet (--len 5)
constexpr uint32_t kDrainLimit = 100000;  // cycles after the measured ones before a run that has not drained fails

/// A flit as the bound keeps it: its packet's index, destination, flit index, head, tail and tie
/// bits, and its VC on the link it crosses.
struct Flit {
  uint32_t packet;
  uint16_t dst;
  uint8_t index;
  uint8_t bits;  // 1 head, 2 tail, 4 tie
  uint8_t vc;
};

struct Packet {
  uint64_t id;       // wormcast's packet id: the source's count * nodes + source
  uint32_t created;
  uint32_t injected;  // its head's injection cycle (--features stats)
  uint16_t src, dst;
  uint8_t received;  // flits taken by the destination's NIC so far
  uint8_t tie;
};

/// An edge run through a virtual call (--features dispatch), as a kernel calls its members.
struct Member {
  virtual bool edge(uint32_t t) = 0;
  virtual ~Member() = default;
};

/// Round robin over a nonempty mask: the lowest set bit at or above q, else the lowest.
inline int round_robin(uint32_t mask, int q) {
  const uint32_t upper = mask & ~((1u << q) - 1u);
  return __builtin_ctz(upper ? upper : mask);
}

inline uint8_t next_of(int i, int n) { return uint8_t(i + 1 == n ? 0 : i + 1); }

/// Stats: the routers' activity and blocking counts, the packets' statistics (latency histograms,
/// latency by hops, per node and per period), a scoreboard finding each flit's packet by its id.
/// Sleep: a router or NIC with nothing to do is skipped until a value is written for it. Dispatch:
/// every edge through a virtual call.
template <int Dims, bool Stats, bool Sleep, bool Dispatch>
class Bound {
 public:
  static constexpr int kNet = 2 * Dims, kPorts = kNet + 1, kLocal = kNet, kInVcs = kPorts * kVcs;
  static_assert(kInVcs <= 32, "an input-VC set is one 32-bit word");
  static constexpr uint32_t kInputs = (1u << kPorts) - 1;  // a box's valid bits for the router (not the NIC's)

  Bound(int k, double rate, uint32_t warmup, uint32_t measure, uint64_t seed, FILE* trace)
      : m_k(k), m_warmup(warmup), m_stop(warmup + measure), m_trace(trace) {
    m_nodes = 1;
    for (int d = 0; d < Dims; ++d) m_nodes *= k;
    m_routers.reset(new Router[size_t(m_nodes)]());
    m_nics.reset(new Nic[size_t(m_nodes)]());
    for (auto& b : m_boxes) b.reset(new Boxes[size_t(m_nodes)]());
    m_coord.resize(size_t(m_nodes) * Dims);
    m_neighbour.resize(size_t(m_nodes) * kNet);
    for (int n = 0; n < m_nodes; ++n) {
      int stride = 1;
      for (int d = 0; d < Dims; ++d) {
        const int x = n / stride % k;
        m_coord[size_t(n) * Dims + size_t(d)] = uint8_t(x);
        m_neighbour[size_t(n) * kNet + size_t(2 * d)] = n + ((x + 1) % k - x) * stride;
        m_neighbour[size_t(n) * kNet + size_t(2 * d + 1)] = n + ((x + k - 1) % k - x) * stride;
        stride *= k;
      }
      Router& r = m_routers[size_t(n)];
      for (int i = 0; i < kInVcs; ++i) r.credits[i] = kDepth;
      Nic& c = m_nics[size_t(n)];
      for (int v = 0; v < kVcs; ++v) c.credits[v] = kDepth;
    }
    // The sources as wormcast's traffic generator draws them (SourceRng, tb/run/traffic_gen.cpp): a
    // 64-bit twister per node, a geometric gap per arrival, then the destination and the tie bit.
    m_p = rate / kLength;
    m_log_q = std::log1p(-m_p);
    m_sources.reserve(size_t(m_nodes));
    m_next.resize(size_t(m_nodes));
    for (int n = 0; n < m_nodes; ++n) {
      std::seed_seq seq{seed, uint64_t(n), uint64_t(0x5eed)};
      m_sources.emplace_back(seq);
      m_next[size_t(n)] = wormcast::SourceRng(&m_sources.back()).bernoulli_gap(m_p, m_log_q) - 1;
    }
    m_node_packets.assign(size_t(m_nodes), 0);
    m_packets.reserve(size_t(m_p * m_nodes * m_stop * 1.1) + 1024);
    m_awake_routers.assign(size_t(m_nodes + 63) / 64, 0);
    m_awake_nics.assign(size_t(m_nodes + 63) / 64, 0);
    if (Dispatch) {
      for (int n = 0; n < m_nodes; ++n) m_members.emplace_back(new RouterMember(this, n));
      for (int n = 0; n < m_nodes; ++n) m_members.emplace_back(new NicMember(this, n));
    }
    if (Stats) {
      m_stats.reset(new RouterStats[size_t(m_nodes)]());
      m_board.assign(1024, BoardSlot{0, kNoEntry});  // grown to stay at most half full
      m_board_shift = 64 - 10;
      m_node_accepted.assign(size_t(m_nodes), 0);
    }
  }

  /// Runs until every packet is delivered; false if the network does not drain.
  bool run() {
    uint32_t c = 0;
    for (;; ++c) {
      if (Stats && (c == m_warmup || c == m_stop)) m_window[c == m_stop] = counts(c);
      if (c < m_stop)
        generate(c);
      else if (m_in_flight == 0)
        break;
      else if (c - m_stop > kDrainLimit)
        return false;
      Boxes* now = m_boxes[c & 1].get();
      for (int n = 0; n < m_nodes; ++n) now[n].flit_valid = now[n].credit_valid = 0;
      if (Sleep) {
        run_awake(m_awake_routers, c, 0);
        run_awake(m_awake_nics, c, m_nodes);
      } else {
        for (int n = 0; n < m_nodes; ++n) edge_of(n, c);
        for (int n = 0; n < m_nodes; ++n) edge_of(m_nodes + n, c);
      }
    }
    m_cycles = c;
    return true;
  }

  int nodes() const { return m_nodes; }
  uint64_t cycles() const { return m_cycles; }
  double latency() const { return m_measured ? double(m_latency_sum) / double(m_measured) : 0.0; }
  double accepted() const { return double(m_accepted) / double(m_nodes) / double(m_stop - m_warmup); }
  uint64_t measured() const { return m_measured; }
  const char* error() const { return m_error; }
  /// Stats: everything the bookkeeping counted, under the names and roundings of wormcast's result
  /// (docs/statistics.md): the routers' counts over the measured window (router_activity.totals),
  /// the measured packets' latency and network latency, latency by hops, and the least and most
  /// accepted load of a node.
  nlohmann::json stats() const {
    const Counts& a = m_window[0];
    const Counts& b = m_window[1];
    const double cycles = double(m_stop - m_warmup);
    nlohmann::json j;
    j["router_activity"] = {{"blocked_vc", b.blocked_vc - a.blocked_vc},
                            {"blocked_credit", b.blocked_credit - a.blocked_credit},
                            {"blocked_switch", b.blocked_switch - a.blocked_switch},
                            {"vc_allocations", b.vc_allocations - a.vc_allocations},
                            {"buffer_reads", b.reads - a.reads},
                            {"link_traversals", b.link - a.link},
                            {"ejections", b.ejected - a.ejected},
                            {"mean_buffer_occupancy", std::round(double(b.occupancy - a.occupancy) / cycles * 1e4) / 1e4}};
    j["latency"] = m_latency.summary();
    j["network_latency"] = m_network_latency.summary();
    nlohmann::json by_hops = nlohmann::json::array();
    for (size_t h = 0; h < m_by_hops.size(); ++h)
      if (m_by_hops[h][1])
        by_hops.push_back({{"hops", h}, {"packets", m_by_hops[h][1]},
                           {"mean", std::round(double(m_by_hops[h][0]) / double(m_by_hops[h][1]) * 1000.0) / 1000.0}});
    j["latency_by_hops"] = by_hops;
    const auto [lo, hi] = std::minmax_element(m_node_accepted.begin(), m_node_accepted.end());
    j["accepted_per_node"] = {{"min", std::round(double(*lo) / cycles * 1e6) / 1e6},
                              {"max", std::round(double(*hi) / cycles * 1e6) / 1e6}};
    return j;
  }
  /// Member i's edge: router i, or NIC i - nodes; whether it stays awake.
  bool edge_of(int i, uint32_t c) {
    if (Dispatch) return m_members[size_t(i)]->edge(c);
    return i < m_nodes ? router_edge(i, c) : nic_edge(i - m_nodes, c);
  }

 private:
  struct RouterMember : Member {
    RouterMember(Bound* b, int n) : bound(b), node(n) {}
    bool edge(uint32_t t) override { return bound->router_edge(node, t); }
    Bound* bound;
    int node;
  };
  struct NicMember : Member {
    NicMember(Bound* b, int n) : bound(b), node(n) {}
    bool edge(uint32_t t) override { return bound->nic_edge(node, t); }
    Bound* bound;
    int node;
  };
  /// The awake members of one kind (bit n of `awake`: member base + n), in node order; a member that
  /// reports nothing to do leaves the set (a value written for it puts it back: wake).
  void run_awake(std::vector<uint64_t>& awake, uint32_t c, int base) {
    for (size_t w = 0; w < awake.size(); ++w)
      for (uint64_t m = awake[w]; m; m &= m - 1) {
        const int n = int(w * 64) + __builtin_ctzll(m);
        if (!edge_of(base + n, c)) awake[w] &= ~(uint64_t(1) << (n & 63));
      }
  }
  static void wake(std::vector<uint64_t>& awake, int n) {
    if (Sleep) awake[size_t(n) >> 6] |= uint64_t(1) << (n & 63);
  }
  struct InVc {
    uint8_t head, count, active, routed;
    uint8_t out_port, out_vc, route_port, vc_lo;  // vc_lo: the first allowed VC, the count above it << 4
    uint32_t front_ready;  // the first edge its front flit may compete
  };
  struct Router {
    uint32_t nonempty;     // bit i: input VC i holds a flit
    uint32_t fresh;        // output VCs whose credit arrived at this edge (usable from the next)
    InVc in[kInVcs];
    Flit slot[kInVcs][kDepth];
    uint32_t ready[kInVcs][kDepth];
    uint8_t credits[kInVcs];  // per output VC, counted as they arrive (fresh ones masked)
    uint8_t allocated[kInVcs];
    uint8_t va_res_ptr[kInVcs], va_group_ptr[kInVcs];
    uint8_t sa_out_ptr[kPorts], sa_in_ptr[kPorts], sa_vc_ptr[kPorts];
  };
  /// Stats: a router's activity and blocking counts, kept apart from the state the edge needs.
  struct RouterStats {
    uint64_t blk_vc[kInVcs], blk_credit[kInVcs], blk_switch[kInVcs];  // edges blocked by cause
    uint16_t sent[kInVcs];  // flits of its packet sent and not yet counted on their output VC
    uint64_t reads, vc_allocs;
    int64_t occupancy;        // the occupancy integral minus flits held * now
    uint64_t vc_out[kInVcs];  // flits sent per output VC
  };
  /// The values of one cycle parity: a flit per input port (the NIC's ejection flit after them),
  /// a credit's VC per output port (the NIC's injection credit after them), and their valid bits
  /// (bit kPorts: to the NIC).
  struct Boxes {
    Flit flit[kPorts + 1];
    uint8_t credit_vc[kPorts + 1];
    uint32_t flit_valid, credit_valid;
  };
  struct Nic {
    std::vector<uint32_t> queue;  // packet indices, from `head` on
    uint32_t head;
    uint8_t credits[kVcs];
    uint8_t next_vc, vc, busy, sent;
    uint8_t wire_valid, held_valid[4], ejected_valid[2];
    uint8_t held_vc[4];  // ejection credits by the cycle they are driven (Cde = 3), mod 4
    Flit wire;           // the injection flit decided at the last falling edge (Di = 1)
    Flit ejected[2];     // the ejection flits by the cycle they were sampled (De = 1), mod 2
  };

  void generate(uint32_t c) {
    for (int n = 0; n < m_nodes; ++n) {
      if (m_next[size_t(n)] != c) continue;
      wormcast::SourceRng g(&m_sources[size_t(n)]);
      m_next[size_t(n)] = c + g.bernoulli_gap(m_p, m_log_q);
      const int dst = std::uniform_int_distribution<int>(0, m_nodes - 1)(g);
      const uint8_t tie = uint8_t(g() >> 63);
      const uint64_t id = uint64_t(m_node_packets[size_t(n)]++) * uint64_t(m_nodes) + uint64_t(n);
      m_packets.push_back(Packet{id, c, 0, uint16_t(n), uint16_t(dst), 0, tie});
      m_nics[size_t(n)].queue.push_back(uint32_t(m_packets.size() - 1));
      wake(m_awake_nics, n);
      ++m_in_flight;
    }
  }

  /// Dimension order with the entry rule's dateline class (docs/router.md 5.2 and 11).
  void route(int n, int in_port, int in_vc, const Flit& f, InVc& in) const {
    const uint8_t* x = &m_coord[size_t(n) * Dims];
    const uint8_t* t = &m_coord[size_t(f.dst) * Dims];
    for (int d = 0; d < Dims; ++d) {
      if (x[d] == t[d]) continue;
      const int fwd = (t[d] - x[d] + m_k) % m_k, back = m_k - fwd;
      const int dir = fwd < back ? 0 : back < fwd ? 1 : (f.bits >> 2 & 1);
      const int cls = in_port < kNet && (in_port >> 1) == d ? in_vc / kVcsPerClass : (x[d] > t[d] ? 1 : 0);
      in.route_port = uint8_t(2 * d + dir);
      in.vc_lo = uint8_t(cls * kVcsPerClass | kVcsPerClass << 4);
      return;
    }
    in.route_port = kLocal;
    in.vc_lo = uint8_t(kVcs << 4);
  }

  bool router_edge(int n, uint32_t e) {
    Router& r = m_routers[size_t(n)];
    RouterStats& st = Stats ? m_stats[size_t(n)] : m_no_stats;
    const Boxes& in_box = m_boxes[(e - 1) & 1][size_t(n)];
    Boxes* out = m_boxes[e & 1].get();
    r.fresh = 0;
    // Edge e: the inputs of cycle e - 1 into the buffers (staged ready edges) and the counters.
    // Sleep: awake at the next edge while it holds a flit or a value was written for it in this
    // cycle (a later writer wakes it).
    auto busy = [&] { return r.nonempty != 0 || ((out[n].flit_valid | out[n].credit_valid) & kInputs) != 0; };
    for (uint32_t m = in_box.flit_valid & kInputs; m; m &= m - 1) {
      const int p = __builtin_ctz(m);
      const Flit& f = in_box.flit[p];
      const int ivc = p * kVcs + f.vc;
      InVc& in = r.in[ivc];
      const int tail = (in.head + in.count) % kDepth;
      const uint32_t ready = e + (f.bits & 1 ? 2u : 1u) + (p < kNet ? 1u : 0u);
      r.slot[ivc][tail] = f;
      r.ready[ivc][tail] = ready;
      if (Stats) st.occupancy -= int64_t(e);
      if (in.count == 0) {
        in.front_ready = ready;
        r.nonempty |= 1u << ivc;
      }
      ++in.count;
    }
    for (uint32_t m = in_box.credit_valid & kInputs; m; m &= m - 1) {
      const int o = __builtin_ctz(m);
      const int i = o * kVcs + in_box.credit_vc[o];
      ++r.credits[i];
      r.fresh |= 1u << i;
    }
    if (!r.nonempty) return busy();
    // Requests: an idle VC with a VC-ready head routes it and asks for the free VCs of its route;
    // an active VC with a ready flit and a credit asks for its output port.
    uint32_t sa_vcs[kPorts][kPorts];  // [p][o]: the VCs of input p asking for output o
    uint32_t port_outputs[kPorts];    // [p]: the outputs input p asks for
    uint32_t out_inputs[kPorts];      // [o]: the inputs asking for output o
    uint32_t va_groups[kInVcs];       // [output VC]: the input VCs asking for it
    uint32_t inputs = 0, outputs = 0, va_res = 0;
    for (uint32_t m = r.nonempty; m; m &= m - 1) {
      const int ivc = __builtin_ctz(m);
      InVc& in = r.in[ivc];
      if (in.front_ready > e) continue;
      const int p = ivc / kVcs, v = ivc % kVcs;
      if (in.active) {
        const int ovc = in.out_port * kVcs + in.out_vc;
        if (r.credits[ovc] == (r.fresh >> ovc & 1)) {
          if (Stats) ++st.blk_credit[ivc];
          continue;
        }
        if (Stats) ++st.blk_switch[ivc];
        const int o = in.out_port;
        const uint32_t pbit = 1u << p, obit = 1u << o;
        if (!(inputs & pbit)) port_outputs[p] = 0;
        if (!(outputs & obit)) out_inputs[o] = 0;
        if (!(port_outputs[p] & obit)) sa_vcs[p][o] = 0;
        inputs |= pbit;
        outputs |= obit;
        port_outputs[p] |= obit;
        out_inputs[o] |= pbit;
        sa_vcs[p][o] |= 1u << v;
        continue;
      }
      if (Stats) ++st.blk_vc[ivc];
      if (!in.routed) {
        route(n, p, v, r.slot[ivc][in.head], in);
        in.routed = 1;
      }
      const int base = in.route_port * kVcs, lo = in.vc_lo & 15, hi = lo + (in.vc_lo >> 4);
      for (int w = lo; w < hi; ++w) {
        const int res = base + w;
        if (r.allocated[res]) continue;
        if (!(va_res >> res & 1)) va_groups[res] = 0;
        va_res |= 1u << res;
        va_groups[res] |= 1u << ivc;
      }
    }
    // VC allocation, one iSLIP iteration (output-first); a winner competes for the switch from
    // the next edge on (staged).
    if (va_res) {
      uint32_t offered[kInVcs];  // [input VC]: the VCs w whose output VC picked it
      uint32_t groups = 0;
      for (uint32_t m = va_res; m; m &= m - 1) {
        const int res = __builtin_ctz(m);
        const int g = round_robin(va_groups[res], r.va_res_ptr[res]);
        if (!(groups >> g & 1)) offered[g] = 0;
        groups |= 1u << g;
        offered[g] |= 1u << (res % kVcs);
      }
      for (uint32_t m = groups; m; m &= m - 1) {
        const int g = __builtin_ctz(m);
        const int w = round_robin(offered[g], r.va_group_ptr[g]);
        InVc& in = r.in[g];
        const int res = in.route_port * kVcs + w;
        r.va_res_ptr[res] = next_of(g, kInVcs);
        r.va_group_ptr[g] = next_of(w, kVcs);
        in.active = 1;
        in.out_port = in.route_port;
        in.out_vc = uint8_t(w);
        r.allocated[res] = 1;
        if (Stats) {
          --st.blk_vc[g];
          ++st.vc_allocs;
        }
      }
    }
    if (!inputs) return busy();
    // Switch allocation, one iSLIP iteration, inputs accepting by output port; then traversal.
    uint32_t grants[kPorts] = {};

    for (uint32_t m = outputs; m; m &= m - 1) {
      const int o = __builtin_ctz(m);
      grants[round_robin(out_inputs[o], r.sa_out_ptr[o])] |= 1u << o;
    }
    for (uint32_t m = inputs; m; m &= m - 1) {
      const int p = __builtin_ctz(m);
      if (!grants[p]) continue;
      const int o = round_robin(grants[p], r.sa_in_ptr[p]);
      const int v = round_robin(sa_vcs[p][o], r.sa_vc_ptr[p]);
      r.sa_out_ptr[o] = next_of(p, kPorts);
      r.sa_in_ptr[p] = next_of(o, kPorts);
      r.sa_vc_ptr[p] = next_of(v, kVcs);
      traverse(r, st, n, e, p, v, o, out);
    }
    return busy();
  }

  void traverse(Router& r, RouterStats& st, int n, uint32_t e, int p, int v, int o, Boxes* out) {
    const int ivc = p * kVcs + v;
    InVc& in = r.in[ivc];
    Flit f = r.slot[ivc][in.head];
    const int w = in.out_vc;
    f.vc = uint8_t(w);
    const bool tail = f.bits & 2;
    if (o < kNet) {  // into the neighbour's input on the opposite side
      Boxes& b = out[m_neighbour[size_t(n) * kNet + size_t(o)]];
      b.flit[o ^ 1] = f;
      b.flit_valid |= 1u << (o ^ 1);
      wake(m_awake_routers, m_neighbour[size_t(n) * kNet + size_t(o)]);
    } else {
      out[n].flit[kPorts] = f;
      out[n].flit_valid |= 1u << kPorts;
      wake(m_awake_nics, n);
    }
    --r.credits[o * kVcs + w];
    if (++in.head == kDepth) in.head = 0;
    if (--in.count == 0) {
      r.nonempty &= ~(1u << ivc);
    } else {  // the next front competes from e + 1 (a head behind a tail: e + 2) at the earliest
      const uint32_t least = e + (tail ? 2u : 1u), ready = r.ready[ivc][in.head];
      in.front_ready = ready > least ? ready : least;
    }
    if (Stats) {
      --st.blk_switch[ivc];
      ++st.reads;
      st.occupancy += int64_t(e);
      if (++st.sent[ivc] == 0xffff || tail) {
        st.vc_out[o * kVcs + w] += st.sent[ivc];
        st.sent[ivc] = 0;
      }
    }
    if (tail) {
      in.active = in.routed = 0;
      r.allocated[o * kVcs + w] = 0;
    }
    if (p < kNet) {  // the freed slot's credit to the upstream router's output on our side
      Boxes& b = out[m_neighbour[size_t(n) * kNet + size_t(p)]];
      b.credit_vc[p ^ 1] = uint8_t(v);
      b.credit_valid |= 1u << (p ^ 1);
      wake(m_awake_routers, m_neighbour[size_t(n) * kNet + size_t(p)]);
    } else {
      out[n].credit_vc[kPorts] = uint8_t(v);
      out[n].credit_valid |= 1u << kPorts;
      wake(m_awake_nics, n);
    }
    if (m_trace)
      std::fprintf(m_trace, "%u,%d,%d,%d,%d,%llu,%d,%d,%d\n", e, n, p, o, w,
                   static_cast<unsigned long long>(m_packets[f.packet].id), f.index, f.bits & 1, f.bits >> 1 & 1);
  }

  /// The falling edge of cycle c (docs/router.md section 8, with Di = De = 1, Cdi = 0, Cde = 3).
  bool nic_edge(int n, uint32_t c) {
    Nic& k = m_nics[size_t(n)];
    Boxes& b = m_boxes[c & 1][size_t(n)];
    if (k.ejected_valid[(c - 1) & 1]) {  // the flit sampled at c - 1 reaches the core
      k.ejected_valid[(c - 1) & 1] = 0;
      receive(k.ejected[(c - 1) & 1], n, c);
    }
    if (k.wire_valid) {  // decided at c - 1, driven now
      b.flit[kLocal] = k.wire;
      b.flit_valid |= 1u << kLocal;
      wake(m_awake_routers, n);
      k.wire_valid = 0;
    }
    if (!k.busy && k.head < k.queue.size()) {  // the first VC in turn with a credit
      int vc = k.next_vc, i = 0;
      while (i < kVcs && k.credits[vc] == 0) {
        vc = next_of(vc, kVcs);
        ++i;
      }
      if (i < kVcs) {
        k.busy = 1;
        k.vc = uint8_t(vc);
        k.next_vc = next_of(vc, kVcs);
        k.sent = 0;
      }
    }
    if (k.busy && k.credits[k.vc] > 0) {
      const uint32_t pi = k.queue[k.head];
      const Packet& pk = m_packets[pi];
      k.wire = Flit{pi, pk.dst, k.sent, uint8_t((k.sent == 0) | (k.sent + 1 == kLength) << 1 | pk.tie << 2), k.vc};
      k.wire_valid = 1;
      --k.credits[k.vc];
      if (Stats && k.sent == 0) {
        m_packets[pi].injected = c;
        board_insert(m_packets[pi].id, pi);
      }
      if (++k.sent == kLength) {
        k.busy = 0;
        if (++k.head == k.queue.size()) {
          k.queue.clear();
          k.head = 0;
        }
      }
    }
    if (b.credit_valid >> kPorts) ++k.credits[b.credit_vc[kPorts]];  // usable from c + 1
    if (b.flit_valid >> kPorts) {
      const Flit& f = b.flit[kPorts];
      k.ejected[c & 1] = f;
      k.ejected_valid[c & 1] = 1;
      k.held_vc[(c + 3) & 3] = f.vc;
      k.held_valid[(c + 3) & 3] = 1;
    }
    if (k.held_valid[c & 3]) {
      k.held_valid[c & 3] = 0;
      b.credit_vc[kLocal] = k.held_vc[c & 3];
      b.credit_valid |= 1u << kLocal;
      wake(m_awake_routers, n);
    }
    return k.busy | (k.head < k.queue.size()) | k.wire_valid | k.ejected_valid[0] | k.ejected_valid[1] |
           k.held_valid[0] | k.held_valid[1] | k.held_valid[2] | k.held_valid[3];
  }

  /// The core takes a flit: in order within its packet, at its destination (a scoreboard).
  void receive(const Flit& f, int n, uint32_t c) {
    size_t slot = 0;
    uint32_t index = f.packet;
    if (Stats) {  // the packet found by its id, as a simulator that does not carry its index would
      slot = board_find(m_packets[f.packet].id);
      if (m_board[slot].entry == kNoEntry) {
        m_error = "a flit of a packet not in flight";
        return;
      }
      index = m_board[slot].entry;
    }
    Packet& pk = m_packets[index];
    if (f.index != pk.received || pk.dst != n) m_error = "a flit out of order or at the wrong node";
    if (++pk.received < kLength) return;
    --m_in_flight;
    if (Stats) {
      board_erase(slot);
      const uint64_t latency = c + 1 - pk.created;
      if (c >= m_warmup && c < m_stop) m_node_accepted[pk.dst] += kLength;
      if (pk.created >= m_warmup && pk.created < m_stop) {
        m_latency.add(latency);
        m_network_latency.add(c + 1 - pk.injected);
        const int h = hops(pk.src, pk.dst);
        m_by_hops[size_t(h)][0] += latency;
        ++m_by_hops[size_t(h)][1];
      }
    }
    if (c >= m_warmup && c < m_stop) m_accepted += kLength;
    if (pk.created >= m_warmup && pk.created < m_stop) {
      m_latency_sum += c + 1 - pk.created;  // the packet is whole at the end of cycle c
      ++m_measured;
    }
  }

  /// Stats: the routers' counts summed over the network at the start of cycle c (before its edges);
  /// the flits sent on an output VC include those its active input VCs still hold in `sent`.
  struct Counts {
    uint64_t blocked_vc = 0, blocked_credit = 0, blocked_switch = 0, vc_allocations = 0, reads = 0, link = 0,
             ejected = 0;
    int64_t occupancy = 0;  ///< the occupancy integral up to cycle c
  };
  Counts counts(uint32_t c) const {
    Counts t;
    for (int n = 0; n < m_nodes; ++n) {
      const RouterStats& st = m_stats[size_t(n)];
      const Router& r = m_routers[size_t(n)];
      int64_t held = 0;
      for (int i = 0; i < kInVcs; ++i) {
        t.blocked_vc += st.blk_vc[i];
        t.blocked_credit += st.blk_credit[i];
        t.blocked_switch += st.blk_switch[i];
        (i / kVcs < kNet ? t.link : t.ejected) += st.vc_out[i];
        if (r.in[i].active) (r.in[i].out_port < kNet ? t.link : t.ejected) += st.sent[i];
        held += r.in[i].count;
      }
      t.vc_allocations += st.vc_allocs;
      t.reads += st.reads;
      t.occupancy += st.occupancy + held * int64_t(c);
    }
    return t;
  }
  Counts m_window[2];  // counts() at the first measured cycle and at the first after them

  // Stats: the scoreboard, an open-addressed table of (packet id, packet index) by the id's hash.
  struct BoardSlot {
    uint64_t key;
    uint32_t entry;
  };
  static constexpr uint32_t kNoEntry = ~0u;
  size_t board_home(uint64_t key) const { return size_t((key * 0x9e3779b97f4a7c15ULL) >> m_board_shift); }
  size_t board_find(uint64_t key) const {
    size_t i = board_home(key);
    while (m_board[i].entry != kNoEntry && m_board[i].key != key) i = (i + 1) & (m_board.size() - 1);
    return i;
  }
  void board_insert(uint64_t key, uint32_t entry) {
    if (2 * ++m_board_used > m_board.size()) {
      std::vector<BoardSlot> old(m_board.size() * 2, BoardSlot{0, kNoEntry});
      old.swap(m_board);
      --m_board_shift;
      for (const BoardSlot& b : old)
        if (b.entry != kNoEntry) m_board[board_find(b.key)] = b;
    }
    m_board[board_find(key)] = BoardSlot{key, entry};
  }
  void board_erase(size_t i) {  // backward-shift deletion: no tombstones
    const size_t mask = m_board.size() - 1;
    for (size_t j = (i + 1) & mask; m_board[j].entry != kNoEntry; j = (j + 1) & mask)
      if (((j - board_home(m_board[j].key)) & mask) >= ((j - i) & mask)) {
        m_board[i] = m_board[j];
        i = j;
      }
    m_board[i].entry = kNoEntry;
    --m_board_used;
  }
  int hops(int a, int b) const {
    int h = 0;
    for (int d = 0; d < Dims; ++d) {
      const int fwd = (m_coord[size_t(b) * Dims + size_t(d)] - m_coord[size_t(a) * Dims + size_t(d)] + m_k) % m_k;
      h += std::min(fwd, m_k - fwd);
    }
    return h;
  }

  int m_k, m_nodes = 0;
  uint32_t m_warmup, m_stop;
  FILE* m_trace;
  std::unique_ptr<Router[]> m_routers;
  std::unique_ptr<Nic[]> m_nics;
  std::unique_ptr<Boxes[]> m_boxes[2];
  std::vector<uint8_t> m_coord;
  std::vector<int> m_neighbour;
  double m_p = 0, m_log_q = 0;
  std::vector<std::mt19937_64> m_sources;
  std::vector<uint64_t> m_next;
  std::vector<uint32_t> m_node_packets;
  std::vector<Packet> m_packets;
  uint64_t m_in_flight = 0, m_latency_sum = 0, m_measured = 0, m_accepted = 0, m_cycles = 0;
  const char* m_error = nullptr;
  std::unique_ptr<RouterStats[]> m_stats;                // Stats
  RouterStats m_no_stats{};                              // what the edge names without Stats (unused)
  std::vector<uint64_t> m_awake_routers, m_awake_nics;  // Sleep
  std::vector<std::unique_ptr<Member>> m_members;       // Dispatch: routers, then NICs
  std::vector<BoardSlot> m_board;                       // Stats
  int m_board_shift = 54;
  size_t m_board_used = 0;
  wormcast::LatencyHistogram m_latency, m_network_latency;  // of the measured packets
  std::vector<std::array<uint64_t, 2>> m_by_hops = std::vector<std::array<uint64_t, 2>>(Stats ? 200 : 0);
  std::vector<uint64_t> m_node_accepted;  // flits of the packets whose tail arrived in the window
};

template <int Dims, bool Stats, bool Sleep, bool Dispatch>
int run(int k, double rate, uint32_t warmup, uint32_t measure, uint64_t seed, FILE* trace) {
  const auto t0 = std::chrono::steady_clock::now();
  Bound<Dims, Stats, Sleep, Dispatch> b(k, rate, warmup, measure, seed, trace);
  const bool drained = b.run();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (b.error() || !drained) {
    std::fprintf(stderr, "torus-bound: %s\n", b.error() ? b.error() : "the network did not drain in 100,000 cycles");
    return 1;
  }
  std::printf("torus-bound %d-ary %d-cube rate %g | latency mean %.10g | accepted %.10g | %llu packets measured | "
              "%llu cycles, %.3f M router-cycles/s\n",
              k, Dims, rate, std::round(b.latency() * 1e3) / 1e3, std::round(b.accepted() * 1e6) / 1e6, static_cast<unsigned long long>(b.measured()),
              static_cast<unsigned long long>(b.cycles()), double(b.nodes()) * double(b.cycles()) / wall / 1e6);
  if (Stats) std::printf("stats: %s\n", b.stats().dump().c_str());
  return 0;
}

template <int Dims>
int run_dims(bool stats, bool sleep, bool dispatch, int k, double rate, uint32_t warmup, uint32_t measure,
             uint64_t seed, FILE* trace) {
  using Run = int (*)(int, double, uint32_t, uint32_t, uint64_t, FILE*);
  static constexpr Run kRuns[8] = {run<Dims, false, false, false>, run<Dims, false, false, true>,
                                   run<Dims, false, true, false>,  run<Dims, false, true, true>,
                                   run<Dims, true, false, false>,  run<Dims, true, false, true>,
                                   run<Dims, true, true, false>,   run<Dims, true, true, true>};
  return kRuns[int(stats) * 4 + int(sleep) * 2 + int(dispatch)](k, rate, warmup, measure, seed, trace);
}

int run_with(int dims, bool stats, bool sleep, bool dispatch, int k, double rate, uint32_t warmup, uint32_t measure,
             uint64_t seed, FILE* trace) {
  return dims == 2 ? run_dims<2>(stats, sleep, dispatch, k, rate, warmup, measure, seed, trace)
                   : run_dims<3>(stats, sleep, dispatch, k, rate, warmup, measure, seed, trace);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"torus-bound: wormcast's booksim-iq torus point (2 VCs per class, 8-flit buffers, 5-flit packets, "
               "uniform-all traffic, one-port NIC) in a program of its own, for its speed alone"};
  int k = 8, dims = 2;
  double rate = 0.26;
  uint32_t warmup = 30000, measure = 30000;
  uint64_t seed = 1;
  std::string trace_path;
  std::vector<std::string> features;
  app.add_option("--k", k, "radix k (2..64)")->check(CLI::Range(2, 64));
  app.add_option("--dims", dims, "dimensions n (2 or 3)")->check(CLI::Range(2, 3));
  app.add_option("--rate", rate, "offered load, flits/node/cycle (0.000001..1)")->check(CLI::Range(1e-6, 1.0));
  app.add_option("--warmup", warmup, "warm-up cycles")->check(CLI::Range(0u, 100000000u));
  app.add_option("--measure", measure, "measured cycles (1..100000000)")->check(CLI::Range(1u, 100000000u));
  app.add_option("--seed", seed, "seed of the sources");
  app.add_option("--trace", trace_path, "write every flit hop as CSV rows: cycle,router,in_port,out_port,vc,packet,flit,head,tail");
  app.add_option("--features", features,
                 "the bookkeeping of a complete simulator to add, a comma list of stats (activity and blocking "
                 "counts, packet statistics, a scoreboard by packet id), sleep (idle members skipped), dispatch "
                 "(every edge through a virtual call), or all")
      ->delimiter(',')
      ->check(CLI::IsMember({"stats", "sleep", "dispatch", "all"}));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);
    std::fprintf(stderr, "torus-bound: %s; allowed: --k 2..64, --dims 2|3, --rate 0.000001..1, --warmup 0..100000000, "
                 "--measure 1..100000000, --features stats,sleep,dispatch,all\n", e.what());
    return 2;
  }
  auto has = [&](const char* f) { return std::count(features.begin(), features.end(), f) + std::count(features.begin(), features.end(), "all") > 0; };
  int nodes = 1;
  for (int d = 0; d < dims; ++d) nodes *= k;
  if (nodes > 65536) {
    std::fprintf(stderr, "torus-bound: --k %d --dims %d: %d nodes; allowed: at most 65536 nodes\n", k, dims, nodes);
    return 2;
  }
  // Every packet is kept to the end (24 bytes each): at most 20 million expected.
  const double packets = rate / kLength * nodes * (double(warmup) + double(measure));
  if (packets > 2e7) {
    std::fprintf(stderr, "torus-bound: --rate %g over %d nodes for %u cycles: %.0f packets; allowed: at most 20 million "
                 "(rate / 5 x nodes x cycles)\n", rate, nodes, warmup + measure, packets);
    return 2;
  }
  FILE* trace = nullptr;
  if (!trace_path.empty() && !(trace = std::fopen(trace_path.c_str(), "w"))) {
    std::fprintf(stderr, "torus-bound: --trace %s: cannot write\n", trace_path.c_str());
    return 2;
  }
  const int rc = run_with(dims, has("stats"), has("sleep"), has("dispatch"), k, rate, warmup, measure, seed, trace);
  if (trace) std::fclose(trace);
  if (rc != 0 && trace) std::remove(trace_path.c_str());
  return rc;
}
