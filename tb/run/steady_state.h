// The steady-state verdict of a traffic run: instability is a backlog that keeps growing, judged
// by a trend test on batch means with its confidence interval; the initial transient is detected
// (MSER truncation), not assumed; latency gets a batch-means confidence interval. The method and
// its assumptions are stated in docs/statistics.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace wormcast {

/// What a traffic run owes, sampled over [0, window end) in periods of `period` cycles (the last
/// partial period, if any, is not sampled).
struct SteadySeries {
  uint64_t period = 1;
  std::vector<double> copies_owed;         ///< [period] mean flit-copies submitted, not yet delivered
  std::vector<double> packets_owed;        ///< [period] mean packets not yet complete at every addressed node
  std::vector<uint64_t> copies_offered;    ///< [period] flit-copies submitted in it
  std::vector<uint64_t> packets_offered;   ///< [period] packets submitted in it
  std::vector<uint64_t> copies_delivered;  ///< [period] flit-copies whose tail was delivered in it
  std::vector<uint64_t> latency_sum;       ///< [period] latency of the copies created in it (delivered)
  std::vector<uint64_t> latency_count;     ///< [period] those copies
  /// Periods of `period` cycles covering [0, end): at most `max_periods` of them.
  void init(uint64_t end, size_t max_periods = 4096);
  size_t periods() const { return copies_owed.size(); }
};

/// Least-squares line through (t_k, y_k) with a 95 % confidence interval of its slope, widened
/// for the lag-1 autocorrelation of the residuals (an AR(1) approximation).
struct Trend {
  double slope = 0;       ///< y units per t unit
  double half_width = 0;  ///< of the 95 % interval of the slope
  double lag1 = 0;        ///< lag-1 autocorrelation of the residuals
  int points = 0;
};
Trend linear_trend(const std::vector<double>& t, const std::vector<double>& y);

/// MSER truncation (the marginal standard error rule): the d in [0, max_d] that minimises the
/// squared standard error of the mean of x[d..n), sum((x_i - mean)^2) / (n - d)^2.
size_t mser_truncation(const std::vector<double>& x, size_t max_d);

/// Student's t quantile t(0.975, df), df >= 1 (tabulated to 30; an expansion beyond, within 0.001).
double t975(int df);

/// Batch means of a series: mean, 95 % half-width t(0.975, K-1) s / sqrt(K), lag-1 autocorrelation.
struct BatchMeans {
  double mean = 0, half_width = 0, lag1 = 0;
  int batches = 0;
};
BatchMeans batch_means(const std::vector<double>& means);

struct SteadyParams {
  uint64_t warmup = 0;      ///< configured warm-up (cycles), discarded in any case
  double tolerance = 0.01;  ///< growth, as a share of the offered load, that still counts as steady
  int batches = 20;         ///< batch means over the judged span
  int min_batches = 8;      ///< fewer periods in the span: undecided
  /// The minimum evidence of a verdict (docs/statistics.md, "Minimum evidence"): a batch shorter
  /// than the network's zero-load crossing (cycles), or one that delivers fewer than
  /// min_batch_packets packets on average, carries no independent information about the trend.
  uint64_t crossing = 0;
  double min_batch_packets = 5;
  /// Packets per independent arrival (a message's packets times the message count's dispersion,
  /// tb/run/traffic_gen.h): the evidence counts arrivals, so the floor is min_batch_packets such
  /// arrivals' packets, and the counts' noise of the gross shortfall grows with it.
  double burst_packets = 1;
};
/// The fewest packets offered over the judged span for a shortfall of deliveries to decide a run
/// unstable without the batch test's evidence (docs/statistics.md, "Minimum evidence").
inline constexpr double kGrossMinOffered = 50;

enum class SteadyOutcome { Stable, Unstable, Undecided };
const char* outcome_name(SteadyOutcome o);

struct SteadyVerdict {
  SteadyOutcome outcome = SteadyOutcome::Undecided;
  std::vector<std::string> reasons;  ///< why unstable or undecided (empty when stable)
  nlohmann::json figures;            ///< the numbers that decided it (docs/statistics.md)
  std::string brief;                 ///< the deciding figures in a few words, for a summary line
};

/// The verdict on a run's series (docs/statistics.md, "Stability verdict").
SteadyVerdict judge_steady_state(const SteadySeries& s, const SteadyParams& p);

}  // namespace wormcast
