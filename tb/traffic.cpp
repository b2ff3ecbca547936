// Traffic patterns, geometric inter-arrival injection and latency/throughput statistics.
#include "tb/traffic.h"

#include <algorithm>
#include <cmath>

namespace wormcast {

int pattern_destination(const sw::Topology& t, const TrafficConfig& cfg, int src, std::mt19937_64& rng) {
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
  }
  return src;
}

void TrafficStats::on_generated(uint64_t cycle, uint32_t flits) {
  if (cycle >= m_begin && cycle < m_end) m_offered_flits += flits;
}

void TrafficStats::on_packet(const PacketRecord& rec) {
  const uint64_t tail_cycle = rec.arrived - 1;
  if (tail_cycle >= m_begin && tail_cycle < m_end) m_accepted_flits += rec.length;
  if (rec.created >= m_begin && rec.created < m_end) {
    ++m_measured_done;
    m_latency.push_back(uint32_t(rec.arrived - rec.created));
    m_net_latency.push_back(uint32_t(rec.arrived - rec.injected));
  }
}

namespace {
nlohmann::json summary(std::vector<uint32_t> v) {
  nlohmann::json j;
  if (v.empty()) return nlohmann::json{{"count", 0}};
  std::sort(v.begin(), v.end());
  double sum = 0;
  for (auto x : v) sum += x;
  auto pct = [&](double q) { return v[std::min(v.size() - 1, size_t(q * double(v.size() - 1) + 0.5))]; };
  j["count"] = v.size();
  j["mean"] = std::round(sum / double(v.size()) * 1000.0) / 1000.0;
  j["p50"] = pct(0.50);
  j["p99"] = pct(0.99);
  j["max"] = v.back();
  return j;
}
}  // namespace

nlohmann::json TrafficStats::report() const {
  const double denom = double(m_nodes) * double(m_end - m_begin);
  nlohmann::json j;
  j["latency"] = summary(m_latency);
  j["network_latency"] = summary(m_net_latency);
  j["offered"] = std::round(double(m_offered_flits) / denom * 1e6) / 1e6;
  j["accepted"] = std::round(double(m_accepted_flits) / denom * 1e6) / 1e6;
  j["measured_packets"] = m_measured_created;
  j["measured_delivered"] = m_measured_done;
  return j;
}

TrafficGen::TrafficGen(sc_core::sc_module_name name, const Config& cfg, TorusNetwork& net, TrafficStats& stats)
    : sc_module(name), m_cfg(cfg), m_net(net), m_stats(stats), m_topo(net.topology()) {
  const bool message = cfg.traffic.mode == InjectionMode::Message;
  m_len = uint32_t(message ? cfg.traffic.message_len : cfg.traffic.packet_len);
  m_p = cfg.traffic.rate / double(m_len);
  const int n = m_topo.num_nodes();
  for (int i = 0; i < n; ++i) {
    std::seed_seq seq{uint64_t(cfg.sim.seed), uint64_t(i), uint64_t(0x5eed)};
    m_rng.emplace_back(seq);
    m_next.push_back(next_gap(m_rng.back()) - 1);
  }
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
  return 1 + uint64_t(std::floor(std::log1p(-u) / std::log1p(-m_p)));
}

void TrafficGen::tick() {
  const uint64_t t = m_cycle++;
  if (t >= m_stop) return;
  const int n = m_topo.num_nodes();
  for (int s = 0; s < n; ++s) {
    if (m_next[size_t(s)] != t) continue;
    auto& rng = m_rng[size_t(s)];
    m_next[size_t(s)] = t + next_gap(rng);
    const int dst = pattern_destination(m_topo, m_cfg.traffic, s, rng);
    m_net.nic(s).submit(dst, m_len, false, 0, t);
    m_stats.on_generated(t, m_len);
    if (t >= m_stats.m_begin && t < m_stats.m_end)
      m_stats.m_measured_created += (m_len + uint32_t(m_cfg.nic.max_packet) - 1) / uint32_t(m_cfg.nic.max_packet);
  }
}

}  // namespace wormcast
