// Gossip generators: a builder that replays line operations on every line of an axis (and every
// colour) and records the unicasts with their chunk sets; the algorithms as sequences of phases,
// all-port or one-port.
// Why one file: every algorithm is a short sequence of the builder's line operations; apart, the
// builder would need an interface for nothing but these sequences.
#include "sw/gossip/gossip.h"

#include <algorithm>
#include <functional>
#include <map>

#include "sw/gossip/line_ops.h"

namespace wormcast::sw {

using gossip_detail::LineMsg;
using gossip_detail::LineOut;
using gossip_detail::Segment;

namespace {

std::string str(int v) { return std::to_string(v); }

/// Which lines a job covers: colour `colour`'s payloads along the lines parallel to `axis`.
struct LineJob {
  int colour = 0;
  int axis = 0;
};

/// Per line: the operation's unicasts in line positions. `base` is the line's node at position 0.
using LinePlanner = std::function<int(const LineJob& job, int base, LineOut& out)>;

class Builder {
 public:
  Builder(const Topology& t, int colours, const std::string& algo) : m_t(t), m_colours(colours) {
    m_s.topology = t;
    m_s.collective = Collective::Gossip;
    m_s.chunks_per_node = colours;
    m_s.algo = algo;
    m_hold.assign(size_t(colours), std::vector<ChunkSet>(size_t(t.num_nodes())));
    for (int c = 0; c < colours; ++c)
      for (int x = 0; x < t.num_nodes(); ++x) m_hold[size_t(c)][size_t(x)].add(x * colours + c);
  }

  const Topology& topology() const { return m_t; }

  /// Node at position p of the line through `base` along `axis`.
  int at(int base, int axis, int p) const {
    Coord c = m_t.coord(base);
    c[axis] = ((p % m_t.radix(axis)) + m_t.radix(axis)) % m_t.radix(axis);
    return m_t.node(c);
  }

  /// Runs one operation on every line of every job at once (they share the steps) and appends
  /// it as a phase. Contents are cut from the payloads as they were when the operation began.
  void run(const std::string& phase, const std::vector<LineJob>& jobs, const LinePlanner& plan) {
    // Room for the operation's unicasts, counted first (the planners are cheap): a list doubling
    // as it grows would hold up to twice the schedule, and three times while it moves.
    class Count final : public LineOut {
     public:
      void push_back(const LineMsg&) override { ++n; }
      size_t n = 0;
    } count;
    for_each_line(jobs, [&](const LineJob& job, int base) { plan(job, base, count); });
    std::vector<Unicast>& us = m_s.unicasts;
    if (us.capacity() < us.size() + count.n) us.reserve(us.size() + count.n);
    // Each message becomes a unicast as the planner makes it; the receivers' holdings grow once
    // every line is planned, from the unicasts of each job (a job's are consecutive).
    class Emit final : public LineOut {
     public:
      Emit(Builder& b, const LineJob& job, int base) : m_b(b), m_job(job), m_base(base) {}
      void push_back(const LineMsg& m) override { m_b.emit(m_job, m_base, m, m_unions); }

     private:
      Builder& m_b;
      const LineJob& m_job;
      int m_base;
      Unions m_unions;
    };
    std::vector<size_t> job_begin;
    int steps = 0;
    for (const LineJob& job : jobs) {
      job_begin.push_back(us.size());
      for_each_line({job}, [&](const LineJob& j, int base) {
        Emit out(*this, j, base);
        steps = std::max(steps, plan(j, base, out));
      });
    }
    job_begin.push_back(us.size());
    for (size_t k = 0; k < jobs.size(); ++k)
      for (size_t i = job_begin[k]; i < job_begin[k + 1]; ++i)
        m_hold[size_t(jobs[k].colour)][size_t(us[i].dst)].add(us[i].chunks);
    m_phases.push_back(PhaseSpan{phase, m_step + 1, m_step + steps});
    m_step += steps;
  }

  GossipSchedule finish() {
    m_s.num_steps = m_step;
    sort_canonical(m_s);
    for (size_t u = 0; u < m_s.unicasts.size(); ++u) {
      const bool same = u > 0 && m_s.unicasts[u - 1].step == m_s.unicasts[u].step &&
                        m_s.unicasts[u - 1].src == m_s.unicasts[u].src;
      m_s.unicasts[u].order = same ? m_s.unicasts[u - 1].order + 1 : 0;
    }
    return GossipSchedule{std::move(m_s), std::move(m_phases)};
  }

 private:
  using Unions = std::map<std::pair<int, int>, ChunkSet>;  ///< (lo, len) -> union of payloads

  /// Calls f(job, base) for every line of every job, `base` the line's node at position 0.
  template <class F>
  void for_each_line(const std::vector<LineJob>& jobs, F f) const {
    for (const LineJob& job : jobs)
      for (int base = 0; base < m_t.num_nodes(); ++base)
        if (m_t.coord_of(base, job.axis) == 0) f(job, base);
  }

  /// The unicast of message m on the line through `base` (none when it would carry nothing).
  void emit(const LineJob& job, int base, const LineMsg& m, Unions& unions) {
    const int n = m_t.radix(job.axis);
    auto key = std::make_pair(m.lo, m.len);
    auto it = unions.find(key);
    if (it == unions.end()) {
      ChunkSet u;
      for (int i = 0; i < std::min(m.len, n); ++i) u.add(m_hold[size_t(job.colour)][size_t(at(base, job.axis, m.lo + i))]);
      it = unions.emplace(key, std::move(u)).first;
    }
    ChunkSet content;
    if (m.parts <= 1) {
      content = it->second;
    } else {
      const std::vector<int> ids = it->second.ids();
      const size_t total = ids.size();
      const size_t lo = total * size_t(m.part) / size_t(m.parts);
      const size_t hi = total * size_t(m.part + 1) / size_t(m.parts);
      for (size_t i = lo; i < hi; ++i) content.add(ids[i]);
    }
    if (content.empty()) return;  // more packets than chunks: nothing to send
    Unicast u;
    u.src = at(base, job.axis, m.from);
    u.dst = at(base, job.axis, m.to);
    u.step = m_step + m.step;
    u.tie_negative = m.dir < 0;
    u.chunks = std::move(content);
    m_s.unicasts.push_back(std::move(u));
  }

  Topology m_t;
  int m_colours;
  std::vector<std::vector<ChunkSet>> m_hold;  ///< [colour][node]: what the generator has delivered
  Schedule m_s;
  std::vector<PhaseSpan> m_phases;
  int m_step = 0;
};

std::vector<LineJob> jobs_for(int colours, int dims, int phase) {
  std::vector<LineJob> jobs;
  for (int c = 0; c < colours; ++c) jobs.push_back(LineJob{c, (phase + c) % dims});
  return jobs;
}

std::vector<int> all_positions(int n) {
  std::vector<int> v(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) v[size_t(i)] = i;
  return v;
}

void check_circ(const CircParams& c, int n, const std::string& where) {
  if (c.a1 < 2 || c.a1 > n)
    throw GossipParamError(where + ": --a (a1) must be in 2.." + str(n) + " (got " + str(c.a1) + ")");
  if (c.a2 < 2 || c.a2 > n)
    throw GossipParamError(where + ": --a2 must be in 2.." + str(n) + " (got " + str(c.a2) + ")");
  if (c.k < 1)
    throw GossipParamError(where + ": --b must be >= floor(a/2) (k = 2b - a + 2 >= 1; got k = " + str(c.k) + ")");
}

/// Every dimension a mesh (a linear array per line), or every one a torus (a ring per line).
bool all_mesh(const Topology& t) { return !t.torus(0); }

/// One 1-D gossip along phase `phase`'s axes (axis (phase + c) mod d for colour c); used for the
/// rings and linear arrays and for every phase of HIGH-DIM-GOS. Each axis uses its own radix.
void line_gossip(Builder& b, const LineSpec& spec, int colours, int phase, const std::string& prefix, PortModel ports) {
  const bool one = ports == PortModel::OnePort;
  const Topology& t = b.topology();
  const bool line = all_mesh(t);
  const std::vector<LineJob> jobs = jobs_for(colours, t.dims(), phase);
  auto radix = [&t](const LineJob& j) { return t.radix(j.axis); };
  switch (spec.algo) {
    case LineAlgo::Approach1:
      // A ring: floor(n/2) steps both ways. A line: n - 1 steps both ways (INTERPRETATION, the
      // paper's "minor modifications" for linear arrays: the end PU receives n - 1 packets over
      // its one link).
      b.run(prefix + "approach1", jobs, [&](const LineJob& j, int, LineOut& out) {
        const int n = radix(j);
        if (line) return gossip_detail::circulate_blocks(all_positions(n), n, out);
        return one ? gossip_detail::circulate_one_port(n, all_positions(n), n, out)
                   : gossip_detail::circulate(n, all_positions(n), n / 2, n, out);
      });
      return;
    case LineAlgo::Approach2:
      // The ternary tree inside [0, n) never uses the wrap-around link: the same on a line.
      b.run(prefix + "concentrate", jobs, [&](const LineJob& j, int, LineOut& out) {
        const int n = radix(j);
        return one ? gossip_detail::concentrate_one_port(n, {Segment{0, n}}, out)
                   : gossip_detail::concentrate(n, {Segment{0, n}}, out);
      });
      b.run(prefix + "disseminate", jobs, [&](const LineJob& j, int, LineOut& out) {
        const int n = radix(j);
        return one ? gossip_detail::disseminate_all_one_port(n, out) : gossip_detail::disseminate_all(n, out);
      });
      return;
    case LineAlgo::Circgos: {
      const CircParams c = spec.circ;
      for (const LineJob& j : jobs)
        check_circ(c, radix(j), prefix.empty() ? "circgos" : "--phases: circgos along an axis of " + str(radix(j)) + " PUs");
      // INTERPRETATION (docs/schedules.md): segments of near-equal length when a1 does not divide
      // n; each round puts min(a2, gap) - 1 new bridgeheads evenly into every gap (on a line the
      // wrap-around gap is the two end pieces, filled by fill_line).
      auto bridgeheads = [&](int n) { return ring_bridgeheads(n, c.a1, ports); };
      b.run(prefix + "1", jobs, [&](const LineJob& j, int, LineOut& out) {
        const int n = radix(j);
        std::vector<Segment> segs;
        for (int i = 0; i < c.a1; ++i) {
          const int lo = int((long long)i * n / c.a1), hi = int((long long)(i + 1) * n / c.a1);
          segs.push_back(Segment{lo, hi - lo});
        }
        return one ? gossip_detail::concentrate_one_port(n, segs, out) : gossip_detail::concentrate(n, segs, out);
      });
      b.run(prefix + "2", jobs, [&](const LineJob& j, int, LineOut& out) {
        const int n = radix(j);
        const std::vector<int> bh = bridgeheads(n);
        if (line) return gossip_detail::circulate_blocks(bh, c.a1, out);
        return one ? gossip_detail::circulate_one_port(n, bh, c.a1, out) : gossip_detail::circulate(n, bh, c.a1 / 2, c.a1, out);
      });
      // The rounds of every axis, ahead: axes of different radices may need different numbers.
      std::map<int, std::vector<std::vector<int>>> rounds;  // radix -> bridgehead sets, round 0 first
      int max_rounds = 0;
      for (const LineJob& j : jobs) {
        const int n = radix(j);
        if (rounds.count(n)) continue;
        std::vector<std::vector<int>>& sets = rounds[n];
        sets.push_back(bridgeheads(n));
        while (int(sets.back().size()) < n) {
          const std::vector<int>& bh = sets.back();
          std::vector<int> next;
          for (size_t i = 0; i < bh.size(); ++i) {
            const int left = bh[i];
            const int gap = bh.size() == 1 ? n : (bh[(i + 1) % bh.size()] - left + n) % n;
            const int parts = std::min(c.a2, gap);
            for (int q = 0; q < parts; ++q) next.push_back((left + int((long long)q * gap / parts)) % n);
          }
          std::sort(next.begin(), next.end());
          next.erase(std::unique(next.begin(), next.end()), next.end());
          sets.push_back(std::move(next));
        }
        max_rounds = std::max(max_rounds, int(sets.size()) - 1);
      }
      for (int round = 1; round <= max_rounds; ++round)
        b.run(prefix + "3." + str(round), jobs, [&](const LineJob& j, int, LineOut& out) {
          const int n = radix(j);
          const std::vector<std::vector<int>>& sets = rounds[n];
          if (round >= int(sets.size())) return 0;
          const std::vector<int>& old = sets[size_t(round - 1)];
          const std::vector<int>& all = sets[size_t(round)];
          if (line) return gossip_detail::fill_line(n, old, all, c.k, out);
          return one ? gossip_detail::fill_one_port(n, old, all, c.k, out) : gossip_detail::fill(n, old, all, c.k, out);
        });
      return;
    }
  }
}

/// TORGOS / CUBGOS: bridgeheads on (generalized) diagonals, see the declarations.
}  // namespace

void check_diagonal_net(const Topology& t, GossipAlgo algo) {
  if (algo != GossipAlgo::Torgos && algo != GossipAlgo::Cubgos) return;
  const int d = t.dims();
  const bool torgos = algo == GossipAlgo::Torgos;
  const std::string name = torgos ? "torgos" : "cubgos";
  for (int i = 0; i < d; ++i)
    if (t.radix(i) != t.radix(0))
      throw GossipParamError(name + ": --net must be a torus or mesh n x ... x n (got " + describe(t) + ")");
  if (torgos && d != 2) throw GossipParamError("torgos: --net must be a 2-D torus or mesh n x n (got " + describe(t) + ")");
  if (!torgos && d < 2) throw GossipParamError("cubgos: --net must be a d-D torus or mesh n^d with d >= 2 (got " + describe(t) + ")");
}

namespace {

GossipSchedule diagonal_gossip(const Topology& t, const GossipSpec& spec) {
  const int d = t.dims();
  const int n = t.radix(0);
  const bool torgos = spec.algo == GossipAlgo::Torgos;
  const std::string name = torgos ? "torgos" : "cubgos";
  const bool line = all_mesh(t);
  check_diagonal_net(t, spec.algo);
  const CircParams c = spec.circ;
  check_circ(c, n, name);
  if (n % c.a1 != 0)
    throw GossipParamError(name + ": --a must divide n = " + str(n) + " (the diagonals need n/a integral; got " + str(c.a1) + ")");
  const bool one = spec.ports == PortModel::OnePort;
  if (one && spec.coloured)
    throw GossipParamError(name + ": the one-port variant is uncoloured (a colour per axis would make a PU send d messages per step)");
  const int colours = spec.coloured ? d : 1;
  Builder b(t, colours, (spec.coloured ? name + "'" : name) + (one ? " one-port" : ""));
  const int g0 = n / c.a1;
  const int centre = one ? concentration_centre_one_port(g0) : concentration_centre(g0);
  // Bridgehead test at spacing g: TORGOS (x0 - x1) = centre, CUBGOS sum(x) = centre (mod g).
  auto is_bridgehead = [&](int node, int g) {
    if (torgos) return ((t.coord_of(node, 0) - t.coord_of(node, 1) - centre) % g + g) % g == 0;
    return on_generalized_diagonal(node_coords(t, node), g, centre);
  };
  auto bridgeheads = [&](int base, int axis, int g) {
    std::vector<int> v;
    for (int p = 0; p < n; ++p) {
      Coord x = t.coord(base);
      x[axis] = p;
      if (is_bridgehead(t.node(x), g)) v.push_back(p);
    }
    return v;
  };
  const std::vector<LineJob> rows = jobs_for(colours, d, 0);
  b.run("1", rows, [&](const LineJob& j, int base, LineOut& out) {
    std::vector<Segment> segs;
    const std::vector<int> bh = bridgeheads(base, j.axis, g0);
    if (!line) {
      for (int p : bh) segs.push_back(Segment{p - centre, g0});
      return one ? gossip_detail::concentrate_one_port(n, segs, out) : gossip_detail::concentrate(n, segs, out);
    }
    // INTERPRETATION (docs/schedules.md), the paper's "few extra routing steps" for meshes: a
    // bridgehead's segment would wrap around; instead every aligned block [i g, (i+1) g) of the
    // row (it holds one bridgehead) is concentrated into its centre, and one more step moves the
    // block's data from the centre to the bridgehead where they differ.
    for (int p = 0; p < n; p += g0) segs.push_back(Segment{p, g0});
    const int depth = gossip_detail::concentrate(n, segs, out);
    bool moved = false;
    for (int p : bh) {
      const int lo = p - p % g0;
      if (p == lo + centre) continue;
      out.push_back(LineMsg{depth + 1, lo + centre, p, p > lo + centre ? +1 : -1, lo, g0, 0, 1});
      moved = true;
    }
    return depth + (moved ? 1 : 0);
  });
  // Circulation among the bridgeheads of a line: each ends with `period` consecutive ones' data
  // (on a mesh: blocks of `period` consecutive ones, Approach 1 on a line within each).
  auto circulate = [&](const std::vector<int>& bh, int period, LineOut& out) {
    if (line) return gossip_detail::circulate_blocks(bh, period, out);
    return one ? gossip_detail::circulate_one_port(n, bh, period, out) : gossip_detail::circulate(n, bh, period / 2, period, out);
  };
  b.run("2", rows, [&](const LineJob& j, int base, LineOut& out) {
    return circulate(bridgeheads(base, j.axis, g0), c.a1, out);
  });
  for (int f = 1; f < d; ++f)
    b.run("3." + str(f), jobs_for(colours, d, f), [&](const LineJob& j, int base, LineOut& out) {
      return circulate(bridgeheads(base, j.axis, g0), c.a1, out);
    });
  int g = g0;
  for (int round = 1; g > 1; ++round) {
    // INTERPRETATION (docs/schedules.md): the factor is a2 while a2 divides the spacing; a round
    // whose spacing it does not divide fills every remaining PU (factor = spacing).
    const int factor = g % c.a2 == 0 ? c.a2 : g;
    const int next = g / factor;
    b.run("4a." + str(round), rows, [&](const LineJob& j, int base, LineOut& out) {
      if (line) return gossip_detail::fill_line(n, bridgeheads(base, j.axis, g), bridgeheads(base, j.axis, next), c.k, out);
      return one ? gossip_detail::fill_one_port(n, bridgeheads(base, j.axis, g), bridgeheads(base, j.axis, next), c.k, out)
                 : gossip_detail::fill(n, bridgeheads(base, j.axis, g), bridgeheads(base, j.axis, next), c.k, out);
    });
    for (int f = 1; f < d; ++f)
      b.run("4b." + str(round) + "." + str(f), jobs_for(colours, d, f),
            [&](const LineJob& j, int base, LineOut& out) {
              return circulate(bridgeheads(base, j.axis, next), factor, out);
            });
    g = next;
  }
  return b.finish();
}

struct AlgoName {
  GossipAlgo algo;
  const char* name;
};
const AlgoName kNames[] = {
    {GossipAlgo::Approach1, "approach1"}, {GossipAlgo::Approach2, "approach2"},
    {GossipAlgo::Circgos, "circgos"},     {GossipAlgo::HighDimGos, "high-dim-gos"},
    {GossipAlgo::Torgos, "torgos"},       {GossipAlgo::Cubgos, "cubgos"},
    {GossipAlgo::Approach11BlackWhite, "approach1-1-bw"},
};

/// The black/white Approach 1-1 of the paper's Fig. 6 (see GossipAlgo::Approach11BlackWhite).
/// INTERPRETATION (docs/schedules.md): the paper gives one sentence; the 2 x 2 gossip exchanges
/// along x then along y (two steps, sizes 1 and 2), after which every PU of a submesh holds the
/// same 4-PU packet; the black PUs of a row (x0 + x1 even) are then one place of every submesh
/// along it, so they run Approach 1 in one direction with hops of 2, and the white PUs do the same
/// along the columns: black uses only x links and white only y links in a step, and every PU
/// sends one and receives one message per step.
GossipSchedule black_white_gossip(const Topology& t, const GossipSpec& spec) {
  const int n = t.radix(0);
  if (t.dims() != 2 || t.radix(1) != n || n % 2 != 0)
    throw GossipParamError("approach1-1-bw: --net must be an n x n torus with n even (2 x 2 submeshes; got " + describe(t) + ")");
  (void)spec;
  Builder b(t, 1, "approach1-1-bw");
  // 2 x 2 gossip: partners differ in the lowest bit of one coordinate.
  for (int axis = 0; axis < 2; ++axis)
    b.run("2x2." + str(axis), {LineJob{0, axis}}, [n](const LineJob&, int, LineOut& out) {
      for (int p = 0; p < n; p += 2) {
        out.push_back(LineMsg{1, p, p + 1, +1, p, 1, 0, 1});
        out.push_back(LineMsg{1, p + 1, p, -1, p + 1, 1, 0, 1});
      }
      return 1;
    });
  // Phase f: black (x0 + x1 even) along axis f, white along the other axis, at the same time.
  for (int f = 0; f < 2; ++f)
    b.run("bw." + str(f + 1), {LineJob{0, 0}, LineJob{0, 1}}, [&t, n, f](const LineJob& j, int base, LineOut& out) {
      const int parity = j.axis == f ? 0 : 1;
      const int other = t.coord_of(base, 1 - j.axis);
      std::vector<int> mine;
      for (int p = 0; p < n; ++p)
        if ((p + other) % 2 == parity) mine.push_back(p);
      return gossip_detail::circulate_one_port(n, mine, int(mine.size()), out);
    });
  return b.finish();
}

}  // namespace

bool on_generalized_diagonal(const std::vector<int>& x, int g, int offset) {
  long long sum = 0;
  for (int v : x) sum += v;
  return (((sum - offset) % g) + g) % g == 0;
}

std::vector<int> ring_bridgeheads(int n, int a1, PortModel ports) {
  std::vector<int> bh;
  for (int i = 0; i < a1; ++i) {
    const int lo = int((long long)i * n / a1), hi = int((long long)(i + 1) * n / a1);
    bh.push_back(lo + (ports == PortModel::OnePort ? concentration_centre_one_port(hi - lo) : concentration_centre(hi - lo)));
  }
  return bh;
}

const char* gossip_algo_name(GossipAlgo a) {
  for (const AlgoName& x : kNames)
    if (x.algo == a) return x.name;
  return "?";
}

std::vector<std::string> gossip_algo_names() {
  std::vector<std::string> v;
  for (const AlgoName& x : kNames) v.push_back(x.name);
  return v;
}

GossipAlgo parse_gossip_algo(const std::string& name) {
  for (const AlgoName& x : kNames)
    if (name == x.name) return x.algo;
  std::string all;
  for (const AlgoName& x : kNames) all += std::string(all.empty() ? "" : ", ") + x.name;
  throw GossipParamError("--algo: unknown gossip algorithm '" + name + "' (allowed: " + all + ")");
}

GossipSchedule generate_gossip(const Topology& t, const GossipSpec& spec) {
  const int d = t.dims();
  for (int i = 1; i < d; ++i)
    if (t.torus(i) != t.torus(0))
      throw GossipParamError("gossip: --net must be a ring, torus or mesh, not mixed (got " + describe(t) + ")");
  if (all_mesh(t)) {
    if (spec.algo == GossipAlgo::Approach11BlackWhite)
      throw GossipParamError("approach1-1-bw: --net must be an n x n torus with n even (got " + describe(t) + ")");
    if (spec.ports == PortModel::OnePort)
      throw GossipParamError("--port: one on a mesh is not built (the one-port variants are for rings and tori); allowed on " +
                             describe(t) + ": --port all");
  }
  switch (spec.algo) {
    case GossipAlgo::Approach1:
    case GossipAlgo::Approach2:
    case GossipAlgo::Circgos: {
      if (d != 1)
        throw GossipParamError(std::string(gossip_algo_name(spec.algo)) + ": --net must be a ring or a 1-D mesh (got " + describe(t) + "; use high-dim-gos)");
      const bool one = spec.ports == PortModel::OnePort;
      Builder b(t, 1, std::string(gossip_algo_name(spec.algo)) + (one ? " one-port" : ""));
      LineSpec line;
      line.algo = spec.algo == GossipAlgo::Approach1 ? LineAlgo::Approach1
                  : spec.algo == GossipAlgo::Approach2 ? LineAlgo::Approach2 : LineAlgo::Circgos;
      line.circ = spec.circ;
      line_gossip(b, line, 1, 0, "", spec.ports);
      return b.finish();
    }
    case GossipAlgo::HighDimGos: {
      if (int(spec.phases.size()) != d)
        throw GossipParamError("high-dim-gos: --phases must name one 1-D algorithm per dimension (" + str(d) + ", got " + str(int(spec.phases.size())) + ")");
      const bool one = spec.ports == PortModel::OnePort;
      if (one && spec.coloured && d > 1)
        throw GossipParamError("high-dim-gos: the one-port variant is uncoloured (a colour per axis would make a PU send d messages per step)");
      const int colours = spec.coloured ? d : 1;
      if (spec.coloured && !all_mesh(t))  // meshes: every axis runs with its own radix
        for (int i = 1; i < d; ++i)
          if (t.radix(i) != t.radix(0)) throw GossipParamError("--net: high-dim-gos' coloured phases need an n x ... x n torus (got " + describe(t) + "); allowed: equal radices, or --uncoloured");
      Builder b(t, colours, std::string(spec.coloured ? "high-dim-gos'" : "high-dim-gos") + (one ? " one-port" : ""));
      for (int f = 0; f < d; ++f) line_gossip(b, spec.phases[size_t(f)], colours, f, "p" + str(f) + ".", spec.ports);
      return b.finish();
    }
    case GossipAlgo::Torgos:
    case GossipAlgo::Cubgos:
      return diagonal_gossip(t, spec);
    case GossipAlgo::Approach11BlackWhite:
      return black_white_gossip(t, spec);
  }
  throw GossipParamError("gossip: unknown algorithm");
}

}  // namespace wormcast::sw
