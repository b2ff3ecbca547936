// The exact latency histogram.
#include "tb/run/latency_histogram.h"

#include <algorithm>
#include <cmath>

namespace wormcast {

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

}  // namespace wormcast
