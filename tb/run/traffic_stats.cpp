// Latency and throughput over the measurement window.
#include "tb/run/traffic_stats.h"

#include <algorithm>
#include <cmath>

namespace wormcast {

void TrafficStats::on_generated(uint64_t cycle, uint32_t flits) {
  if (cycle >= m_begin && cycle < m_end) m_offered_flits += flits;
}

void TrafficStats::on_submitted(uint64_t cycle, uint32_t flits, size_t targets, uint32_t packets) {
  const uint64_t copies = uint64_t(flits) * targets;
  if (m_banded) {
    Owed& o = m_band[size_t(cycle - m_band_c0)];
    o.copies_in += copies;
    o.packets_in += packets;
  } else {
    m_owed_copies += copies;
    m_owed_packets += packets;
  }
  if (cycle >= m_begin && cycle < m_end) {
    m_submitted_flits += flits;
    m_submitted_copies += copies;
  }
  const uint64_t i = cycle / m_series.period;
  if (i < m_series.copies_offered.size()) {
    m_series.copies_offered[size_t(i)] += copies;
    m_series.packets_offered[size_t(i)] += packets;
  }
}

void TrafficStats::sample(uint64_t cycle) {
  const uint64_t p = m_series.period;
  if (cycle / p >= m_series.copies_offered.size()) return;
  m_period_copies += double(m_owed_copies);
  m_period_packets += double(m_owed_packets);
  if ((cycle + 1) % p == 0) {
    m_series.copies_owed.push_back(m_period_copies / double(p));
    m_series.packets_owed.push_back(m_period_packets / double(p));
    m_period_copies = m_period_packets = 0;
  }
}

void TrafficStats::band_begin(uint64_t c0, uint64_t c1) {
  m_banded = true;
  m_band_c0 = c0;
  m_band.assign(size_t(c1 - c0), Owed{});
}

// Cycle t: sampled at its start (its rising edge), then its submissions (rising edge), then its
// deliveries (falling edge). A delivery never pays more than is owed, so the sums of a cycle's
// deliveries take off what the deliveries one by one would.
void TrafficStats::band_end(uint64_t c0, uint64_t c1) {
  for (uint64_t t = c0; t < c1; ++t) {
    const Owed& o = m_band[size_t(t - c0)];
    sample(t);
    m_owed_copies += o.copies_in;
    m_owed_packets += o.packets_in;
    m_owed_copies -= std::min(m_owed_copies, o.copies_out);
    m_owed_packets -= std::min(m_owed_packets, o.packets_out);
  }
}

void TrafficStats::on_packet(const PacketRecord& rec) {
  const uint64_t tail_cycle = rec.arrived - 1;
  // What is owed: every delivered copy pays its flits, a packet's last copy completes it.
  if (m_banded) {
    Owed& o = m_band[size_t(tail_cycle - m_band_c0)];
    o.copies_out += rec.length;
    o.packets_out += rec.last;
  } else {
    m_owed_copies -= std::min<uint64_t>(m_owed_copies, rec.length);
    if (rec.last && m_owed_packets) --m_owed_packets;
  }
  {
    const uint64_t i = tail_cycle / m_series.period;
    if (i < m_series.copies_delivered.size()) m_series.copies_delivered[size_t(i)] += rec.length;
    const uint64_t c = rec.created / m_series.period;
    if (c < m_series.latency_sum.size()) {
      m_series.latency_sum[size_t(c)] += rec.arrived - rec.created;
      ++m_series.latency_count[size_t(c)];
    }
  }
  if (tail_cycle >= m_begin && tail_cycle < m_end) {
    m_accepted_flits += rec.length;
    if (rec.dst >= 0 && rec.dst < m_nodes) {
      if (m_node_accepted.empty()) m_node_accepted.assign(size_t(m_nodes), 0);
      m_node_accepted[size_t(rec.dst)] += rec.length;
    }
  }
  if (rec.created >= m_begin && rec.created < m_end) {
    m_measured_done += rec.last;  // a multi-destination packet is done when its last copy is
    if (rec.last && rec.msg_packets <= 1) {
      m_message_latency.add(rec.arrived - rec.created);
    } else if (rec.last) {  // reported in delivery order: the message's last packet comes last
      auto at = m_message_done.try_emplace(rec.message, 0).first;
      if (++at->second == rec.msg_packets) {
        m_message_latency.add(rec.arrived - rec.created);
        m_message_done.erase(at);
      }
    }
    m_latency.add(rec.arrived - rec.created);
    m_net_latency.add(rec.arrived - rec.injected);
    const int h = m_hops && rec.dst >= 0 ? m_hops(rec) : -1;
    if (h >= 0) {
      if (size_t(h) >= m_by_hops.size()) m_by_hops.resize(size_t(h) + 1, {0, 0});
      m_by_hops[size_t(h)].first += rec.arrived - rec.created;
      ++m_by_hops[size_t(h)].second;
    }
  }
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
  // Accepted counts flit-copies (a broadcast flit is accepted once per destination): the offered
  // load in the same unit is the offered flits times their mean number of destinations.
  const double destinations = m_submitted_flits ? double(m_submitted_copies) / double(m_submitted_flits) : 1.0;
  j["destinations"] = std::round(destinations * 1e4) / 1e4;
  j["offered_copies"] = std::round(double(m_offered_flits) * destinations / denom * 1e6) / 1e6;
  j["measured_packets"] = m_measured_created;
  j["measured_delivered"] = m_measured_done;
  j["source_overflow"] = m_dropped;
  return j;
}

}  // namespace wormcast
