// The traffic generator: geometric inter-arrival (Bernoulli) or on-off injection per node.
#include "tb/run/traffic_gen.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "systemc/common/family.h"

namespace wormcast {

std::vector<int> random_permutation(const Config& cfg, int n) {
  std::vector<int> perm(static_cast<size_t>(n), 0);
  for (int i = 0; i < n; ++i) perm[size_t(i)] = i;
  std::mt19937_64 prng(cfg.sim.seed ^ 0x9e3779b97f4a7c15ULL);
  std::shuffle(perm.begin(), perm.end(), prng);
  return perm;
}

TrafficGen::TrafficGen(sc_core::sc_module_name name, const Config& cfg, Network& net, TrafficStats& stats)
    : sc_module(name), m_cfg(cfg), m_net(net), m_stats(stats), m_topo(net.topology()) {
  const bool message = cfg.traffic.mode == InjectionMode::Message;
  m_len = uint32_t(message ? cfg.traffic.message_len : cfg.traffic.packet_len);
  if (!cfg.traffic.sizes.empty()) {
    std::vector<double> w;
    for (auto& [l, x] : cfg.traffic.sizes) w.push_back(x);
    m_size = std::discrete_distribution<int>(w.begin(), w.end());
  }
  m_p = message_probability(cfg.traffic);
  m_log_q = std::log1p(-m_p);
  const int n = m_topo.num_nodes();
  // Every array sized once (no copies while it grows; a 2^20-node network's twisters take 2.6 GB).
  const bool twister = cfg.traffic.twister(n);
  if (twister)
    m_twister.reserve(size_t(n));
  else
    m_counter.reserve(size_t(n));
  m_next.reserve(size_t(n));
  for (int i = 0; i < n; ++i) {
    if (twister) {
      std::seed_seq seq{uint64_t(cfg.sim.seed), uint64_t(i), uint64_t(0x5eed)};
      m_twister.emplace_back(seq);
    } else {
      m_counter.push_back(SourceRng::start(cfg.sim.seed, uint64_t(i)));
    }
    SourceRng rng = rng_of(i);
    m_next.push_back(next_gap(rng) - 1);
  }
  // The wheel: about four mean gaps (a gap beyond is rare), a power of two from 64 to 4096 cycles.
  const double cover = m_p > 0 ? 4.0 / m_p : 4096.0;
  size_t slots = 64;
  while (slots < 4096 && double(slots) < cover) slots <<= 1;
  m_wheel.resize(slots);
  m_wheel_mask = slots - 1;
  schedule_all(0);
  m_on.assign(size_t(n), 0);
  if (cfg.traffic.process == InjectionProcess::OnOff) {
    // Each source starts in the chain's stationary state (on with probability alpha / (alpha +
    // beta)), so the offered load is the configured one from the first cycle, however slow the
    // bursts: all sources off at first would offer less until the chain mixes (1 / (alpha + beta)
    // cycles).
    const double on = cfg.traffic.burst_alpha / (cfg.traffic.burst_alpha + cfg.traffic.burst_beta);
    for (int i = 0; i < n; ++i) {
      SourceRng rng = rng_of(i);
      m_on[size_t(i)] = rng.uniform01() < on;
    }
  }
  if (cfg.traffic.pattern == Pattern::RandPerm) m_perm = random_permutation(cfg, n);
  if (!cfg.traffic.trace.empty()) m_trace = read_traffic_trace(cfg.traffic.trace, n);
  check_family_rules();
  m_tie_next.assign(size_t(n), 0);
  SC_HAS_PROCESS(TrafficGen);
  SC_METHOD(tick);
  sensitive << clk.pos();
  dont_initialize();
}

// The family's rules on its traffic (Family::self_unicast, min_packet_flits), before the run: a
// message its NIC would refuse is a configuration error, not a failure in the middle of a run.
void check_family_traffic(const Config& cfg, const sw::Topology& topo, const std::vector<int>& perm,
                          const std::vector<TraceEntry>& trace) {
  const TrafficConfig& tc = cfg.traffic;
  // The sources stop at warmup + measure: a trace message at or after it would never be injected.
  // (The trace is sorted by cycle: its last message is the latest.)
  const uint64_t stop = cfg.sim.warmup + cfg.sim.measure;
  if (!tc.trace.empty() && !trace.empty() && trace.back().cycle >= stop)
    throw ConfigError(fmt::format("config: traffic.trace '{}': a message at cycle {}, at or after sim.warmup + sim.measure "
                                  "= {}, when the sources stop; allowed: cycles below {} (raise sim.measure, or cut "
                                  "the trace)",
                                  tc.trace, trace.back().cycle, stop, stop));
  // A trace's messages are unicasts: a share of region broadcasts would be silently unused.
  if (!tc.trace.empty() && tc.broadcast_fraction > 0)
    throw ConfigError(fmt::format("config: traffic.broadcast_fraction = {} is not used with traffic.trace (its messages "
                                  "are unicasts); allowed with a trace: 0",
                                  tc.broadcast_fraction));
  const Family* f = find_family(cfg.net.family);
  if (!f) return;
  const int n = topo.num_nodes();
  const std::string& fam = f->name;
  if (!f->self_unicast) {
    if (!tc.trace.empty()) {
      for (const TraceEntry& e : trace)
        if (e.src == e.dst)
          throw ConfigError(fmt::format("config: traffic.trace '{}': a message from node {} to itself; allowed for the {} "
                                        "family: another node",
                                        tc.trace, e.src, fam));
    } else if (tc.broadcast_fraction < 1) {  // unicasts are drawn
      if (tc.pattern == Pattern::UniformAll || tc.pattern == Pattern::Hotspot)
        throw ConfigError(fmt::format("config: traffic.pattern is invalid for the {} family (a node may address "
                                      "itself, which its NIC refuses); allowed: uniform, or a pattern without a fixed "
                                      "point on the network",
                                      fam));
      std::mt19937_64 unused;  // the deterministic patterns draw nothing
      for (int s = 0; s < n; ++s) {
        SourceRng rng(&unused);
        if (pattern_destination(topo, cfg.traffic, s, rng, perm) == s)
          throw ConfigError(fmt::format("config: traffic.pattern is invalid for the {} family on this network: node {} "
                                        "would address itself, which its NIC refuses; allowed: uniform, or a pattern "
                                        "without a fixed point here",
                                        fam, s));
      }
    }
  }
  if (f->min_packet_flits > 1) {
    const int max_packet = cfg.nic.max_packet, least = f->min_packet_flits;
    auto check = [&](uint32_t len, const char* key) {
      const int last = int(len) % max_packet == 0 ? max_packet : int(len) % max_packet;
      if (last < least)
        throw ConfigError(fmt::format("config: {}: a message of {} flits leaves a packet of {} flit(s) (nic.max_packet = "
                                      "{}); allowed for the {} family: packets of at least {} flits",
                                      key, len, last, max_packet, fam, least));
    };
    if (!tc.trace.empty())
      for (const TraceEntry& e : trace) check(e.len, "traffic.trace");
    else if (!tc.sizes.empty())
      for (const auto& [l, w] : tc.sizes) check(uint32_t(l), "traffic.sizes");
  }
}

double mean_message_flits(const TrafficConfig& t) {
  if (t.sizes.empty()) return t.mode == InjectionMode::Message ? t.message_len : t.packet_len;
  double lw = 0, total = 0;
  for (auto& [l, x] : t.sizes) {
    lw += l * x;
    total += x;
  }
  return lw / total;
}

double message_probability(const TrafficConfig& t) {
  const double p = t.rate / mean_message_flits(t);
  if (t.process != InjectionProcess::OnOff) return p;
  return p / (t.burst_alpha / (t.burst_alpha + t.burst_beta));  // the same mean load, in the on periods
}

double message_dispersion(const TrafficConfig& t) {
  if (t.process != InjectionProcess::OnOff) return 1;
  const double a = t.burst_alpha, b = t.burst_beta, p = std::min(1.0, message_probability(t));
  if (a + b <= 0) return 1;
  const double pi = a / (a + b);
  return std::max(1.0, (1 - pi * p) + 2 * p * (1 - pi) * (1 - a - b) / (a + b));
}

void check_synthetic_keys(const Config& cfg) {
  if (cfg.node.cpu != CpuKind::Native)  // synthetic traffic runs no node software
    throw ConfigError("config: node.cpu = 'rv32' applies to node programs (broadcast, gossip --simulate, ibt bcast --simulate), not to "
                      "synthetic traffic; allowed here: native");
  if (cfg.nic.tr != 0)  // no receiving software: a packet's latency ends with its tail's delivery
    throw ConfigError(fmt::format("config: nic.tr = {} applies to node programs' receives (broadcast, gossip "
                                  "--simulate), not to synthetic traffic, whose latency ends at the tail's delivery; "
                                  "allowed here: 0", cfg.nic.tr));
}

void check_family_traffic(const Config& cfg) {
  const sw::Topology topo = cfg.net.topology();
  const int n = topo.num_nodes();
  const std::vector<int> perm = cfg.traffic.pattern == Pattern::RandPerm ? random_permutation(cfg, n) : std::vector<int>{};
  const std::vector<TraceEntry> trace = cfg.traffic.trace.empty() ? std::vector<TraceEntry>{}
                                                                  : read_traffic_trace(cfg.traffic.trace, n);
  check_family_traffic(cfg, topo, perm, trace);
}

void TrafficGen::check_family_rules() const { check_family_traffic(m_cfg, m_topo, m_perm, m_trace); }

// Cycles until the next arrival of a Bernoulli(p) process (geometric, >= 1).
uint64_t TrafficGen::next_gap(SourceRng& rng) const { return rng.bernoulli_gap(m_p, m_log_q); }

Destination TrafficGen::region(int s, SourceRng& rng) const {
  Destination d;
  const int dims = m_topo.dims();
  d.lo.assign(size_t(dims), 0);
  d.hi.assign(size_t(dims), 0);
  for (;;) {
    for (int k = 0; k < dims; ++k) {
      if (m_cfg.traffic.region == RegionMode::All) {
        d.hi[size_t(k)] = m_topo.radix(k) - 1;
        continue;
      }
      std::uniform_int_distribution<int> u(0, m_topo.radix(k) - 1);
      const int a = u(rng), b = u(rng);
      d.lo[size_t(k)] = std::min(a, b);
      d.hi[size_t(k)] = std::max(a, b);
    }
    bool only_source = true;
    for (int k = 0; k < dims && only_source; ++k)
      only_source = d.lo[size_t(k)] == d.hi[size_t(k)] && d.lo[size_t(k)] == m_topo.coord_of(s, k);
    if (!only_source) return d;
  }
}

void TrafficGen::band_leave(uint64_t c) {
  m_stats.band_leave();
  m_cycle = c;
  schedule_all(c);
}

void TrafficGen::schedule_all(uint64_t now) {
  for (auto& slot : m_wheel) slot.clear();
  m_later = decltype(m_later)();
  // (cycle, node) pairs are distinct: they leave the heap in their own order, however it was built.
  for (size_t i = 0; i < m_next.size(); ++i) schedule(int(i), now);
}

bool TrafficGen::generates(int s, uint64_t t) {
  SourceRng rng = rng_of(s);
  if (m_cfg.traffic.process == InjectionProcess::OnOff) {
    uint8_t& on = m_on[size_t(s)];
    on = on ? rng.uniform01() >= m_cfg.traffic.burst_beta : rng.uniform01() < m_cfg.traffic.burst_alpha;
    return on && rng.uniform01() < m_p;
  }
  if (m_next[size_t(s)] != t) return false;
  m_next[size_t(s)] = t + next_gap(rng);
  return true;
}

uint32_t TrafficGen::draw_length(SourceRng& rng) const {
  if (m_cfg.traffic.sizes.empty()) return m_len;
  auto dist = m_size;  // discrete_distribution::operator() is not const
  return uint32_t(m_cfg.traffic.sizes[size_t(dist(rng))].first);
}

void TrafficGen::emit(int s, uint64_t t, const Destination& d, uint32_t len, bool tie) {
  Nic& nic = m_net.nic(s);
  nic.submit(d, len, tie, 0, t);
  m_stats.on_generated(t, len);
  const uint32_t packets = packets_of(len);
  m_stats.on_submitted(t, len, nic.last_targets(), packets);
  if (t >= m_stats.m_begin && t < m_stats.m_end) m_stats.m_measured_created += packets;
}

bool TrafficGen::next_tie(int s, SourceRng& rng) {
  switch (m_cfg.traffic.tie) {
    case TiePolicy::Plus:
      return false;
    case TiePolicy::Random:  // drawn after the destination, so plus keeps today's random sequence
      return (rng() >> 63) != 0;
    case TiePolicy::Balanced: {
      uint8_t& next = m_tie_next[size_t(s)];
      next ^= 1;
      return next == 0;  // plus first, then minus, per source
    }
  }
  return false;
}

void TrafficGen::tick() {
  const uint64_t t = m_cycle++;
  m_stats.sample(t);  // what is owed at the start of cycle t
  if (t >= m_stop) return;
  if (!m_cfg.traffic.trace.empty()) {  // exactly the trace's messages, at their cycles
    for (; m_trace_next < m_trace.size() && m_trace[m_trace_next].cycle <= t; ++m_trace_next) {
      const TraceEntry& e = m_trace[m_trace_next];
      if (e.cycle != t) continue;
      SourceRng rng = rng_of(e.src);  // the tie policy's coin (traffic.tie = random), as for drawn traffic
      emit(e.src, t, Destination::to(e.dst), e.len, next_tie(e.src, rng));
    }
    return;
  }
  if (m_cfg.traffic.process == InjectionProcess::OnOff) {  // a state per node and cycle
    for (int s = 0; s < m_topo.num_nodes(); ++s)
      if (generates(s, t)) create(s, t);
    return;
  }
  // This cycle's slot holds arrivals of this cycle only (an arrival enters the wheel less than its
  // length ahead), and a node's next arrival is at least a cycle later: into another slot.
  std::vector<int>& due = m_wheel[size_t(t & m_wheel_mask)];
  while (!m_later.empty() && m_later.top().first == t) {
    due.push_back(m_later.top().second);
    m_later.pop();
  }
  if (due.empty()) return;
  std::sort(due.begin(), due.end());  // node order
  for (const int s : due) {
    generates(s, t);  // draws the next arrival
    schedule(s, t);
    create(s, t);
  }
  due.clear();
}

void TrafficGen::create(int s, uint64_t t) {
  SourceRng rng = rng_of(s);
  const bool broadcast = m_cfg.traffic.broadcast_fraction > 0 &&
                         rng.uniform01() < m_cfg.traffic.broadcast_fraction;
  const uint32_t len = draw_length(rng);
  Destination dest;
  bool tie = false;
  if (broadcast) {
    dest = region(s, rng);
  } else {
    dest = Destination::to(pattern_destination(m_topo, m_cfg.traffic, s, rng, m_perm));
    tie = next_tie(s, rng);
  }
  Nic& nic = m_net.nic(s);
  if (nic.backlog() >= uint64_t(m_cfg.traffic.source_queue)) {
    // Above saturation the queue would grow without end: drop, count, report the run unstable.
    // The message was still offered, and what it owes stays owed (the verdict's backlog).
    m_stats.on_generated(t, len);
    m_stats.on_submitted(t, len, broadcast ? nic.targets_of(dest) : 1, packets_of(len));
    ++m_stats.m_dropped;
    return;
  }
  emit(s, t, dest, len, tie);
}

}  // namespace wormcast
