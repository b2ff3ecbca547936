// Latency samples as an exact histogram: mean, percentiles and equal-width bins.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

namespace wormcast {

/// Latency samples as an exact histogram (count per latency value): memory grows with the largest
/// latency, not with the number of samples; mean and percentiles are those of the sorted samples.
class LatencyHistogram {
 public:
  void add(uint64_t latency);
  /// count, mean, p50, p99, max ({"count": 0} when empty).
  nlohmann::json summary() const;
  /// The distribution in at most `max_bins` bins of equal width (a whole number of cycles):
  /// {"bin_width": w, "counts": [c0, c1, ...]} where c_i counts latencies in [i w, (i+1) w).
  nlohmann::json bins(size_t max_bins = 64) const;

 private:
  std::vector<uint64_t> m_count;  ///< [latency] samples
  uint64_t m_n = 0;
  uint64_t m_sum = 0;  ///< exact (a long double holds it exactly too, for the mean)
};

}  // namespace wormcast
