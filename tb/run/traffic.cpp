// Traffic patterns, geometric inter-arrival injection and latency/throughput statistics.
#include "tb/run/traffic.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <memory>

#include <fmt/format.h>

#include "systemc/common/clock.h"
#include "tb/out/files.h"
#include "tb/out/output_plan.h"
#include "tb/run/driver.h"

namespace wormcast {

int pattern_destination(const sw::Topology& t, const TrafficConfig& cfg, int src, std::mt19937_64& rng,
                        const std::vector<int>& perm) {
  const int n = t.num_nodes();
  auto uniform = [&]() {
    if (n == 1) return src;
    int d = int(std::uniform_int_distribution<int>(0, n - 2)(rng));
    return d >= src ? d + 1 : d;  // never the source itself
  };
  sw::Coord c = t.coord(src), o = c;
  switch (cfg.pattern) {
    case Pattern::Uniform:
      return uniform();
    case Pattern::UniformAll:  // the source too (it goes through its own router, 0 hops)
      return int(std::uniform_int_distribution<int>(0, n - 1)(rng));
    case Pattern::Hotspot:
      if (std::uniform_real_distribution<double>(0, 1)(rng) < cfg.hotspot_fraction) {
        const size_t i = std::uniform_int_distribution<size_t>(0, cfg.hotspots.size() - 1)(rng);
        return cfg.hotspots[i];
      }
      return uniform();
    case Pattern::Transpose:  // reverse the coordinate order (needs equal radices; else wraps)
      for (int d = 0; d < t.dims(); ++d) o[d] = c[t.dims() - 1 - d] % t.radix(d);
      return t.node(o);
    case Pattern::BitComplement:
      for (int d = 0; d < t.dims(); ++d) o[d] = t.radix(d) - 1 - c[d];
      return t.node(o);
    case Pattern::Tornado:
      for (int d = 0; d < t.dims(); ++d) o[d] = (c[d] + (t.radix(d) + 1) / 2 - 1) % t.radix(d);
      return t.node(o);
    case Pattern::Neighbor:
      o[0] = (c[0] + 1) % t.radix(0);
      return t.node(o);
    case Pattern::BitReverse:
    case Pattern::Shuffle:
    case Pattern::Butterfly: {  // on the node id's b = log2 N bits
      int b = 0;
      while ((1 << b) < n) ++b;
      const unsigned x = unsigned(src);
      if (b == 0) return src;
      if (cfg.pattern == Pattern::Shuffle) return int(((x << 1) | (x >> (b - 1))) & unsigned(n - 1));
      if (cfg.pattern == Pattern::Butterfly) {  // swap the most and least significant bits
        const unsigned lo = x & 1u, hi = (x >> (b - 1)) & 1u;
        return int((x & ~(1u | (1u << (b - 1)))) | (lo << (b - 1)) | hi);
      }
      unsigned r = 0;
      for (int i = 0; i < b; ++i) r |= ((x >> i) & 1u) << (b - 1 - i);
      return int(r);
    }
    case Pattern::RandPerm:
      return perm[size_t(src)];
  }
  return src;
}

void TrafficStats::on_generated(uint64_t cycle, uint32_t flits) {
  if (cycle >= m_begin && cycle < m_end) m_offered_flits += flits;
}

void TrafficStats::on_packet(const PacketRecord& rec) {
  const uint64_t tail_cycle = rec.arrived - 1;
  if (tail_cycle >= m_begin && tail_cycle < m_end) {
    m_accepted_flits += rec.length;
    if (rec.dst >= 0 && rec.dst < m_nodes) {
      if (m_node_accepted.empty()) m_node_accepted.assign(size_t(m_nodes), 0);
      m_node_accepted[size_t(rec.dst)] += rec.length;
    }
  }
  if (rec.created >= m_begin && rec.created < m_end) {
    m_measured_done += rec.last;  // a multi-destination packet is done when its last copy is
    if (rec.last) m_message_latency.add(rec.arrived - rec.created);
    m_latency.add(rec.arrived - rec.created);
    m_net_latency.add(rec.arrived - rec.injected);
    const int q = int((rec.created - m_begin) * kQuarters / std::max<uint64_t>(m_end - m_begin, 1));
    m_qsum[q] += rec.arrived - rec.created;
    ++m_qn[q];
    const int h = m_hops && rec.dst >= 0 ? m_hops(rec) : -1;
    if (h >= 0) {
      if (size_t(h) >= m_by_hops.size()) m_by_hops.resize(size_t(h) + 1, {0, 0});
      m_by_hops[size_t(h)].first += rec.arrived - rec.created;
      ++m_by_hops[size_t(h)].second;
    }
  }
}

nlohmann::json Stability::to_json() const { return {{"verdict", stable ? "stable" : "unstable"}, {"reasons", reasons}}; }

Stability stability_verdict(const Config& cfg, const TrafficStats& stats, const nlohmann::json& report, bool drained) {
  Stability v;
  auto unstable = [&](std::string why) {
    v.stable = false;
    v.reasons.push_back(std::move(why));
  };
  if (!drained) unstable("did not drain: measured packets still in flight at the drain limit");
  if (stats.dropped() > 0)
    unstable(fmt::format("{} packets dropped at full source queues (traffic.source_queue = {})", stats.dropped(),
                         cfg.traffic.source_queue));
  const double offered = report["offered"], accepted = report["accepted"];
  // Packets in the network at the window's end are offered but not yet accepted in it (all of them
  // when the window starts on an empty network): judge only a window long against the network
  // latency (10 mean network latencies; source queueing, the sign of instability, is not in it)
  // with enough packets (1000).
  const double net_latency = report["network_latency"].value("mean", 0.0);
  if (report["measured_packets"].get<uint64_t>() >= 1000 && double(cfg.sim.measure) >= 10.0 * net_latency &&
      accepted < 0.95 * offered)
    unstable(fmt::format("accepted {} < 0.95 x offered {}", accepted, offered));
  const uint64_t first = stats.quarter_count(0), last = stats.quarter_count(TrafficStats::kQuarters - 1);
  const double m0 = stats.quarter_mean(0), m3 = stats.quarter_mean(TrafficStats::kQuarters - 1);
  if (first >= 50 && last >= 50 && m3 > 1.5 * m0)
    unstable(fmt::format("latency grows across the window: {:.1f} cycles in its last quarter, {:.1f} in its first", m3, m0));
  const double mean = report["latency"].value("mean", 0.0);
  if (cfg.sim.latency_threshold > 0 && mean > double(cfg.sim.latency_threshold))
    unstable(fmt::format("mean latency {} > sim.latency_threshold = {}", mean, cfg.sim.latency_threshold));
  return v;
}

void LatencyHistogram::add(uint64_t latency) {
  if (latency >= m_count.size()) m_count.resize(size_t(latency) + 1 + m_count.size() / 2, 0);
  ++m_count[size_t(latency)];
  ++m_n;
  m_sum += latency;
}

nlohmann::json LatencyHistogram::summary() const {
  if (m_n == 0) return nlohmann::json{{"count", 0}};
  // The sample of rank k (0-based) among the sorted samples.
  auto rank = [&](uint64_t k) {
    uint64_t seen = 0;
    for (size_t v = 0; v < m_count.size(); ++v) {
      seen += m_count[v];
      if (seen > k) return uint64_t(v);
    }
    return uint64_t(m_count.size() - 1);
  };
  auto pct = [&](double q) { return rank(std::min(m_n - 1, uint64_t(q * double(m_n - 1) + 0.5))); };
  nlohmann::json j;
  j["count"] = m_n;
  j["mean"] = std::round(double((long double)m_sum / (long double)m_n) * 1000.0) / 1000.0;
  j["p50"] = pct(0.50);
  j["p99"] = pct(0.99);
  j["max"] = rank(m_n - 1);
  return j;
}

nlohmann::json LatencyHistogram::bins(size_t max_bins) const {
  // The width follows the largest sample only (not the storage, which grows by history), so the
  // bins do not depend on the order in which the samples came.
  size_t last = 0;
  for (size_t v = 0; v < m_count.size(); ++v)
    if (m_count[v]) last = v;
  const uint64_t width = std::max<uint64_t>(1, (last + max_bins) / max_bins);  // ceil((last + 1) / max_bins)
  std::vector<uint64_t> counts;
  if (m_n) counts.assign(size_t(last / width) + 1, 0);
  for (size_t v = 0; v <= last && m_n; ++v) counts[size_t(v / width)] += m_count[v];
  return {{"bin_width", width}, {"counts", counts}};
}

nlohmann::json TrafficStats::report(uint64_t window) const {
  const double denom = double(m_nodes) * double(std::max<uint64_t>(window, 1));
  nlohmann::json j;
  j["latency_histogram"] = m_latency.bins();
  j["network_latency_histogram"] = m_net_latency.bins();
  nlohmann::json by_hops = nlohmann::json::array();
  for (size_t h = 0; h < m_by_hops.size(); ++h)
    if (m_by_hops[h].second)
      by_hops.push_back({{"hops", h}, {"packets", m_by_hops[h].second},
                         {"mean", std::round(double(m_by_hops[h].first) / double(m_by_hops[h].second) * 1000.0) / 1000.0}});
  j["latency_by_hops"] = by_hops;
  // Accepted flits per node over the window: the least and most served node and Jain's fairness
  // index (sum x)^2 / (N sum x^2), 1 when every node receives the same.
  {
    const double w = double(std::max<uint64_t>(window, 1));
    double lo = 0, hi = 0, sum = 0, sq = 0;
    for (int v = 0; v < m_nodes; ++v) {
      const double x = m_node_accepted.empty() ? 0.0 : double(m_node_accepted[size_t(v)]) / w;
      lo = v == 0 ? x : std::min(lo, x);
      hi = std::max(hi, x);
      sum += x;
      sq += x * x;
    }
    auto r6 = [](double x) { return std::round(x * 1e6) / 1e6; };
    j["accepted_per_node"] = {{"min", r6(lo)}, {"max", r6(hi)}, {"mean", r6(sum / m_nodes)},
                              {"jain_fairness", sq > 0 ? r6(sum * sum / (double(m_nodes) * sq)) : 0.0},
                              {"unit", "flits/node/cycle"}};
  }
  j["latency"] = m_latency.summary();
  j["network_latency"] = m_net_latency.summary();
  j["message_latency"] = m_message_latency.summary();
  j["offered"] = std::round(double(m_offered_flits) / denom * 1e6) / 1e6;
  j["accepted"] = std::round(double(m_accepted_flits) / denom * 1e6) / 1e6;
  j["measured_packets"] = m_measured_created;
  j["measured_delivered"] = m_measured_done;
  j["source_overflow"] = m_dropped;
  return j;
}

std::vector<TraceEntry> read_traffic_trace(const std::string& path, int nodes) {
  std::ifstream in(path);
  if (!in) throw ConfigError(fmt::format("config: traffic.trace = '{}' cannot be read", path));
  std::vector<TraceEntry> v;
  std::string line;
  for (int no = 1; std::getline(in, line); ++no) {
    if (line.empty() || line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const auto f = split_list(line, ',');
    if (no == 1 && line.find_first_of("0123456789") != 0) continue;  // a header
    auto field = [&](size_t i, long long lo, long long hi, const char* what) {
      size_t pos = 0;
      long long x = -1;
      try {
        if (i < f.size()) x = std::stoll(f[i], &pos, 10);
      } catch (...) {
      }
      if (i >= f.size() || pos != f[i].size() || x < lo || x > hi)
        throw ConfigError(fmt::format("config: traffic.trace '{}' line {}: {} is invalid; allowed: {}..{} (a line "
                                      "is cycle,src,dst,len)",
                                      path, no, what, lo, hi));
      return x;
    };
    if (f.size() != 4)
      throw ConfigError(fmt::format("config: traffic.trace '{}' line {}: expected cycle,src,dst,len", path, no));
    v.push_back(TraceEntry{uint64_t(field(0, 0, 1000000000000LL, "cycle")), int(field(1, 0, nodes - 1, "src")),
                           int(field(2, 0, nodes - 1, "dst")), uint32_t(field(3, 1, 1000000, "len"))});
  }
  std::stable_sort(v.begin(), v.end(), [](auto& a, auto& b) { return a.cycle < b.cycle; });
  return v;
}

TrafficGen::TrafficGen(sc_core::sc_module_name name, const Config& cfg, Network& net, TrafficStats& stats)
    : sc_module(name), m_cfg(cfg), m_net(net), m_stats(stats), m_topo(net.topology()) {
  const bool message = cfg.traffic.mode == InjectionMode::Message;
  m_len = uint32_t(message ? cfg.traffic.message_len : cfg.traffic.packet_len);
  double mean = m_len;
  if (!cfg.traffic.sizes.empty()) {
    std::vector<double> w;
    double lw = 0, total = 0;
    for (auto& [l, x] : cfg.traffic.sizes) {
      w.push_back(x);
      lw += l * x;
      total += x;
    }
    m_size = std::discrete_distribution<int>(w.begin(), w.end());
    mean = lw / total;
  }
  m_p = cfg.traffic.rate / mean;
  if (cfg.traffic.process == InjectionProcess::OnOff)  // the same mean load, concentrated in the on periods
    m_p /= cfg.traffic.burst_alpha / (cfg.traffic.burst_alpha + cfg.traffic.burst_beta);
  m_log_q = std::log1p(-m_p);
  const int n = m_topo.num_nodes();
  for (int i = 0; i < n; ++i) {
    std::seed_seq seq{uint64_t(cfg.sim.seed), uint64_t(i), uint64_t(0x5eed)};
    m_rng.emplace_back(seq);
    m_next.push_back(next_gap(m_rng.back()) - 1);
    m_due.emplace(m_next.back(), i);
  }
  m_on.assign(size_t(n), 0);
  if (cfg.traffic.pattern == Pattern::RandPerm) {
    m_perm.resize(size_t(n));
    for (int i = 0; i < n; ++i) m_perm[size_t(i)] = i;
    std::mt19937_64 prng(cfg.sim.seed ^ 0x9e3779b97f4a7c15ULL);
    std::shuffle(m_perm.begin(), m_perm.end(), prng);
  }
  if (!cfg.traffic.trace.empty()) m_trace = read_traffic_trace(cfg.traffic.trace, n);
  m_tie_next.assign(size_t(n), 0);
  SC_HAS_PROCESS(TrafficGen);
  SC_METHOD(tick);
  sensitive << clk.pos();
  dont_initialize();
}

// Cycles until the next arrival of a Bernoulli(p) process (geometric, >= 1).
uint64_t TrafficGen::next_gap(std::mt19937_64& rng) const {
  if (m_p <= 0) return ~uint64_t(0) / 2;
  if (m_p >= 1) return 1;
  const double u = std::uniform_real_distribution<double>(0.0, 1.0)(rng);
  const double gap = std::floor(std::log1p(-u) / m_log_q);
  // A tiny rate gives a gap beyond any run (or inf, or nan for 0/-0): never, not an integer
  // conversion out of range.
  if (!(gap < 0x1p62)) return ~uint64_t(0) / 2;
  return 1 + uint64_t(gap);
}

Destination TrafficGen::region(int s, std::mt19937_64& rng) const {
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

bool TrafficGen::generates(int s, uint64_t t) {
  auto& rng = m_rng[size_t(s)];
  if (m_cfg.traffic.process == InjectionProcess::OnOff) {
    std::uniform_real_distribution<double> u(0, 1);
    uint8_t& on = m_on[size_t(s)];
    on = on ? u(rng) >= m_cfg.traffic.burst_beta : u(rng) < m_cfg.traffic.burst_alpha;
    return on && u(rng) < m_p;
  }
  if (m_next[size_t(s)] != t) return false;
  m_next[size_t(s)] = t + next_gap(rng);
  return true;
}

uint32_t TrafficGen::draw_length(std::mt19937_64& rng) const {
  if (m_cfg.traffic.sizes.empty()) return m_len;
  auto dist = m_size;  // discrete_distribution::operator() is not const
  return uint32_t(m_cfg.traffic.sizes[size_t(dist(rng))].first);
}

void TrafficGen::emit(int s, uint64_t t, const Destination& d, uint32_t len, bool tie) {
  m_net.nic(s).submit(d, len, tie, 0, t);
  m_stats.on_generated(t, len);
  if (t >= m_stats.m_begin && t < m_stats.m_end)
    m_stats.m_measured_created += (len + uint32_t(m_cfg.nic.max_packet) - 1) / uint32_t(m_cfg.nic.max_packet);
}

bool TrafficGen::next_tie(int s, std::mt19937_64& rng) {
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
  if (t >= m_stop) return;
  if (!m_cfg.traffic.trace.empty()) {  // exactly the trace's messages, at their cycles
    for (; m_trace_next < m_trace.size() && m_trace[m_trace_next].cycle <= t; ++m_trace_next) {
      const TraceEntry& e = m_trace[m_trace_next];
      if (e.cycle == t) emit(e.src, t, Destination::to(e.dst), e.len, false);
    }
    return;
  }
  if (m_cfg.traffic.process == InjectionProcess::OnOff) {  // a state per node and cycle
    for (int s = 0; s < m_topo.num_nodes(); ++s)
      if (generates(s, t)) create(s, t);
    return;
  }
  while (!m_due.empty() && m_due.top().first == t) {
    const int s = m_due.top().second;
    m_due.pop();
    generates(s, t);  // draws the next arrival
    m_due.emplace(m_next[size_t(s)], s);
    create(s, t);
  }
}

void TrafficGen::create(int s, uint64_t t) {
  auto& rng = m_rng[size_t(s)];
  const bool broadcast = m_cfg.traffic.broadcast_fraction > 0 &&
                         std::uniform_real_distribution<double>(0, 1)(rng) < m_cfg.traffic.broadcast_fraction;
  const uint32_t len = draw_length(rng);
  if (m_net.nic(s).backlog() >= uint64_t(m_cfg.traffic.source_queue)) {
    // Above saturation the queue would grow without end: drop, count, report the run unstable.
    // The packet was still offered.
    m_stats.on_generated(t, len);
    ++m_stats.m_dropped;
    return;
  }
  if (broadcast) {
    emit(s, t, region(s, rng), len, false);
  } else {
    const int dst = pattern_destination(m_topo, m_cfg.traffic, s, rng, m_perm);
    emit(s, t, Destination::to(dst), len, next_tie(s, rng));
  }
}

namespace {

struct Top : sc_core::sc_module {
  CycleClock clk;
  std::unique_ptr<Network> net;
  std::unique_ptr<TrafficGen> traffic;
  Top(sc_core::sc_module_name n, const Config& cfg, TrafficStats& stats, const NetworkOptions& opt)
      : sc_module(n), clk("clk", cycle_time()), net(make_network("net", cfg, opt)) {
    traffic = std::make_unique<TrafficGen>("traffic", cfg, *net, stats);
    net->clk(clk.signal());
    traffic->clk(clk.signal());
  }
};

}  // namespace

RunOutcome run_traffic(const Config& cfg, const RunOptions& given) {
  check_record_options(given);
  const uint64_t begin = cfg.sim.warmup, end = cfg.sim.warmup + cfg.sim.measure;
  const int nodes = cfg.net.topology().num_nodes();
  {
    double hops = 0;
    for (int r : cfg.net.radix) hops += r / 4.0;
    if (cfg.router.routing == RouterRouting::Valiant) hops *= 2;  // to a random node, then on
    check_recording_estimate(given, nodes, end, cfg.traffic.rate, hops);
  }
  OutputPlan own;
  RunOptions opt = given;
  if (!opt.plan) {
    plan_recordings(own, opt);
    if (!opt.json_path.empty()) own.add("--json", opt.json_path);
    opt.plan = &own;
  }
  TrafficStats stats(begin, end, nodes);
  NetworkOptions nopt;
  nopt.listener = &stats;
  nopt.trace_internals = !opt.rtl_vcd.empty();
  RunTopPtr<Top> top(new Top("top", cfg, stats, nopt));
  top->traffic->stop_at(end);
  Network& net = *top->net;
  stats.set_hops([&net](const PacketRecord& p) { return net.packet_hops(p); });
  Recorders rec(opt, top->clk.signal(), net);

  RunPhases ph;
  ph.warmup = begin;
  ph.measure = cfg.sim.measure;
  ph.limit = end + cfg.sim.drain;
  ph.on_limit = RunStatus::DrainTimeout;
  ph.max_step = 1000;
  ph.finished = [&](uint64_t cycle) { return cycle >= end && net.outstanding() == 0; };
  ph.stops = rec.stops();
  ph.at = [&rec](uint64_t cycle) { rec.at(cycle); };
  const RunResult r = drive(net, cfg.sim, ph, opt);
  rec.finish();

  const nlohmann::json st = stats.report(r.window);
  // The stability verdict; a drained, clean but unstable run ends with its own status (exit 5).
  const bool judged = r.status == RunStatus::Ok || r.status == RunStatus::DrainTimeout;
  const Stability verdict = stability_verdict(cfg, stats, st, r.status != RunStatus::DrainTimeout);
  RunResult rr = r;
  if (rr.status == RunStatus::Ok && !verdict.stable) rr.status = RunStatus::Unstable;
  // The JSON result: built when asked for (RunOptions::want_result) or written to a file.
  const auto result = [&]() {
    nlohmann::json j = common_result(opt.command, cfg, rr, net);
    j["latency"] = st["latency"];
    j["network_latency"] = st["network_latency"];
    j["message_latency"] = st["message_latency"];
    j["latency_histogram"] = st["latency_histogram"];
    j["network_latency_histogram"] = st["network_latency_histogram"];
    j["latency_by_hops"] = st["latency_by_hops"];
    j["accepted_per_node"] = st["accepted_per_node"];
    j["throughput"] = {{"offered", st["offered"]}, {"accepted", st["accepted"]},
                       {"unit", "flits/node/cycle"}, {"measured_packets", st["measured_packets"]},
                       {"measured_delivered", st["measured_delivered"]},
                       {"window", r.window},
                       {"source_overflow", st["source_overflow"]},
                       {"measured_undelivered", st["measured_packets"].get<uint64_t>() - st["measured_delivered"].get<uint64_t>()},
                       {"stable", judged && verdict.stable}};
    nlohmann::json stab = verdict.to_json();
    stab["latency_by_quarter"] = nlohmann::json::array();
    for (int q = 0; q < TrafficStats::kQuarters; ++q)
      stab["latency_by_quarter"].push_back({{"packets", stats.quarter_count(q)},
                                            {"mean", std::round(stats.quarter_mean(q) * 1000.0) / 1000.0}});
    if (!judged) stab["verdict"] = "none";  // a deadlock, livelock or scoreboard error ends the run first
    j["stability"] = stab;
    return j;
  };

  RunOutcome out;
  if (opt.want_result || !opt.json_path.empty()) out.result = result();
  out.exit_code = exit_code(rr.status);
  const double rcps = r.wall_seconds > 0 ? double(nodes) * double(r.cycles) / r.wall_seconds : 0;
  const nlohmann::json echo = cfg.echo();
  out.summary = fmt::format(
      "{} {} {} rate {} | latency mean {} p99 {} max {} cycles | accepted {} flits/node/cycle (offered {}) | "
      "{} packets | {} cycles, {:.3f} M router-cycles/s{}",
      status_name(rr.status), echo["net"].value("topology", cfg.net.family), echo["net"]["radix"].get<std::string>(),
      cfg.traffic.rate, st["latency"].value("mean", 0.0), st["latency"].value("p99", 0), st["latency"].value("max", 0),
      st["accepted"].get<double>(), st["offered"].get<double>(), net.scoreboard().delivered_packets(), r.cycles,
      rcps / 1e6, judged ? (verdict.stable ? " | stable" : " | UNSTABLE") : "");
  if (r.status == RunStatus::Deadlock) {
    out.summary += fmt::format("\ndeadlock: no flit moved since cycle {}; {} buffers wait, {} wait-for edges", r.last_move,
                               r.wait_for.nodes.size(), r.wait_for.edges.size());
    if (!r.wait_for.cycle.empty()) {
      out.summary += "\nwait-for cycle:";
      for (int i : r.wait_for.cycle) out.summary += " " + r.wait_for.nodes[size_t(i)] + " ->";
      out.summary += " " + r.wait_for.nodes[size_t(r.wait_for.cycle.front())];
    }
  }
  if (r.status == RunStatus::Livelock)
    out.summary += fmt::format("\nlivelock: flits kept moving but none was delivered since cycle {}", r.last_delivery);
  if (judged)
    for (auto& why : verdict.reasons) out.summary += "\nunstable: " + why;
  for (auto& e : net.scoreboard().errors()) out.summary += "\nscoreboard: " + e;
  if (!opt.json_path.empty()) opt.plan->write(opt.json_path, out.result.dump(2) + "\n");
  if (!given.plan) own.commit();
  return out;
}

}  // namespace wormcast
