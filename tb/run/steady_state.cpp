// The steady-state verdict: MSER truncation, a trend test of the backlog on batch means, and the
// batch-means confidence interval of the latency (docs/statistics.md).
#include "tb/run/steady_state.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

namespace wormcast {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

double round6(double x) { return std::isfinite(x) ? std::round(x * 1e6) / 1e6 : x; }

nlohmann::json num(double x) { return std::isfinite(x) ? nlohmann::json(round6(x)) : nlohmann::json(nullptr); }

// The growth of one owed series over the judged batches, relative to its arrival rate.
struct Growth {
  Trend whole, first_half, last_half;
  double rate = 0;  ///< arrivals per cycle over the judged span
  double lo() const { return (whole.slope - whole.half_width) / rate; }
  double hi() const { return (whole.slope + whole.half_width) / rate; }
  double rel() const { return whole.slope / rate; }
  double last_lo() const { return (last_half.slope - last_half.half_width) / rate; }
  double last_hi() const { return (last_half.slope + last_half.half_width) / rate; }
  /// Significantly slower in the last half than in the first (the intervals apart): the shape of
  /// a transient that is settling, not of a queue beyond saturation, which grows at a steady or
  /// rising rate.
  bool settling() const {
    return last_half.slope + last_half.half_width < first_half.slope - first_half.half_width;
  }
  /// Significantly above the tolerance over the span, still significantly growing in its last
  /// half, and not settling (a transient that ends inside the window does not count).
  bool growing(double tol) const { return lo() > tol && last_lo() > 0 && !settling(); }
  /// The 95 % interval lies within +-tol.
  bool steady(double tol) const { return hi() <= tol && lo() >= -tol; }
};

Growth growth(const std::vector<double>& t, const std::vector<double>& y, double rate) {
  Growth g;
  g.rate = rate;
  g.whole = linear_trend(t, y);
  const size_t h = t.size() / 2;
  g.first_half = linear_trend(std::vector<double>(t.begin(), t.begin() + long(h)),
                              std::vector<double>(y.begin(), y.begin() + long(h)));
  g.last_half = linear_trend(std::vector<double>(t.begin() + long(h), t.end()),
                             std::vector<double>(y.begin() + long(h), y.end()));
  return g;
}

nlohmann::json growth_json(const Growth& g, const std::vector<double>& y, const char* unit) {
  return {{"unit", unit},
          {"first_batch_mean", num(y.front())},
          {"last_batch_mean", num(y.back())},
          {"growth_per_cycle", num(g.whole.slope)},
          {"growth_ci95", {num(g.whole.slope - g.whole.half_width), num(g.whole.slope + g.whole.half_width)}},
          {"arrivals_per_cycle", num(g.rate)},
          {"relative_growth", num(g.rel())},
          {"relative_ci95", {num(g.lo()), num(g.hi())}},
          {"first_half_relative_ci95",
           {num((g.first_half.slope - g.first_half.half_width) / g.rate),
            num((g.first_half.slope + g.first_half.half_width) / g.rate)}},
          {"last_half_relative_ci95", {num(g.last_lo()), num(g.last_hi())}},
          {"settling", g.settling()},
          {"lag1_autocorrelation", num(g.whole.lag1)}};
}

std::string pct(double x) { return std::isfinite(x) ? fmt::format("{:+.2f}%", 100.0 * x) : std::string("inf"); }

}  // namespace

void SteadySeries::init(uint64_t end, size_t max_periods) {
  period = std::max<uint64_t>(1, (end + max_periods - 1) / std::max<size_t>(max_periods, 1));
  const size_t n = size_t(end / period);
  copies_owed.clear();
  packets_owed.clear();
  copies_owed.reserve(n);
  packets_owed.reserve(n);
  copies_offered.assign(n, 0);
  packets_offered.assign(n, 0);
  copies_delivered.assign(n, 0);
  latency_sum.assign(n, 0);
  latency_count.assign(n, 0);
}

double t975(int df) {
  static const double kTable[] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                                  2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
                                  2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
  if (df < 1) return kInf;
  if (df <= 30) return kTable[df - 1];
  // Cornish-Fisher expansion of t about the normal quantile z = 1.959964.
  const double z = 1.959964, z3 = z * z * z, z5 = z3 * z * z, d = double(df);
  return z + (z3 + z) / (4 * d) + (5 * z5 + 16 * z3 + 3 * z) / (96 * d * d);
}

Trend linear_trend(const std::vector<double>& t, const std::vector<double>& y) {
  Trend r;
  const size_t n = std::min(t.size(), y.size());
  r.points = int(n);
  if (n < 3) {
    r.half_width = kInf;
    return r;
  }
  double tm = 0, ym = 0;
  for (size_t i = 0; i < n; ++i) tm += t[i], ym += y[i];
  tm /= double(n);
  ym /= double(n);
  double sxx = 0, sxy = 0;
  for (size_t i = 0; i < n; ++i) {
    sxx += (t[i] - tm) * (t[i] - tm);
    sxy += (t[i] - tm) * (y[i] - ym);
  }
  if (sxx <= 0) {
    r.half_width = kInf;
    return r;
  }
  r.slope = sxy / sxx;
  double see = 0, lag = 0, prev = 0;
  for (size_t i = 0; i < n; ++i) {
    const double e = y[i] - (ym + r.slope * (t[i] - tm));
    see += e * e;
    if (i) lag += e * prev;
    prev = e;
  }
  r.lag1 = see > 0 ? lag / see : 0.0;
  // Positively correlated residuals carry less information than their count says: widen the
  // interval by the AR(1) factor sqrt((1 + rho) / (1 - rho)), rho capped at 0.9.
  const double rho = std::clamp(r.lag1, 0.0, 0.9);
  const double se = std::sqrt(see / double(n - 2) / sxx);
  r.half_width = t975(int(n) - 2) * se * std::sqrt((1 + rho) / (1 - rho));
  return r;
}

size_t mser_truncation(const std::vector<double>& x, size_t max_d) {
  const size_t n = x.size();
  if (n < 2) return 0;
  max_d = std::min(max_d, n - 2);
  // Suffix sums, so each candidate costs O(1).
  double s = 0, q = 0;
  std::vector<double> ss(n + 1, 0.0), qq(n + 1, 0.0);
  for (size_t i = n; i-- > 0;) {
    s += x[i];
    q += x[i] * x[i];
    ss[i] = s;
    qq[i] = q;
  }
  size_t best = 0;
  double best_v = kInf;
  for (size_t d = 0; d <= max_d; ++d) {
    const double m = double(n - d), mean = ss[d] / m;
    const double sse = std::max(0.0, qq[d] - m * mean * mean);
    const double v = sse / (m * m);
    if (v < best_v) {
      best_v = v;
      best = d;
    }
  }
  return best;
}

BatchMeans batch_means(const std::vector<double>& x) {
  BatchMeans b;
  b.batches = int(x.size());
  if (x.empty()) return b;
  for (double v : x) b.mean += v;
  b.mean /= double(x.size());
  double ss = 0, lag = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    ss += (x[i] - b.mean) * (x[i] - b.mean);
    if (i) lag += (x[i] - b.mean) * (x[i - 1] - b.mean);
  }
  b.lag1 = ss > 0 ? lag / ss : 0.0;
  b.half_width = x.size() >= 2 ? t975(int(x.size()) - 1) * std::sqrt(ss / double(x.size() - 1) / double(x.size())) : kInf;
  return b;
}

const char* outcome_name(SteadyOutcome o) {
  switch (o) {
    case SteadyOutcome::Stable:
      return "stable";
    case SteadyOutcome::Unstable:
      return "unstable";
    case SteadyOutcome::Undecided:
      return "undecided";
  }
  return "?";
}

SteadyVerdict judge_steady_state(const SteadySeries& s, const SteadyParams& p) {
  SteadyVerdict v;
  const size_t n = s.periods();
  const double P = double(s.period);
  const double tol = p.tolerance;
  // The initial transient: MSER over the whole series from cycle 0, truncating at most half of
  // it. A minimum at that limit means the series is still drifting at mid-window.
  const size_t max_d = n / 2;
  const size_t d = mser_truncation(s.copies_owed, max_d);
  const bool transient_over = n >= 2 && d < max_d;
  const size_t warm = std::min<size_t>(n, size_t((double(p.warmup) + P - 1) / P));
  size_t start = std::max(warm, d);
  const size_t span = n > start ? n - start : 0;
  const int k = int(std::min<size_t>(size_t(std::max(p.batches, 1)), span));
  v.figures["method"] = "trend of the backlog's batch means (docs/statistics.md)";
  v.figures["tolerance"] = tol;
  v.figures["sample_period"] = s.period;
  nlohmann::json warmup = {{"configured", p.warmup},
                           {"transient_end", uint64_t(double(d) * P)},
                           {"transient_over", transient_over}};
  if (k < p.min_batches) {
    warmup["judged_from"] = uint64_t(double(start) * P);
    warmup["judged_cycles"] = uint64_t(double(span) * P);
    v.figures["warmup"] = warmup;
    v.outcome = SteadyOutcome::Undecided;
    v.reasons.push_back(fmt::format("window too short: {} cycles after the transient, fewer than {} sample periods of {} "
                                    "cycles to judge",
                                    uint64_t(double(span) * P), p.min_batches, s.period));
    v.brief = "undecided: window too short";
    return v;
  }
  const size_t m = span / size_t(k);
  start = n - size_t(k) * m;  // batches end with the window; the remainder joins the discarded start
  warmup["judged_from"] = uint64_t(double(start) * P);
  warmup["judged_cycles"] = uint64_t(double(n - start) * P);
  warmup["discarded_after_warmup"] = uint64_t(double(start - std::min(start, warm)) * P);
  v.figures["warmup"] = warmup;

  std::vector<double> tb, copies, packets, latency;
  uint64_t offered = 0, pk_offered = 0, delivered = 0;
  for (int b = 0; b < k; ++b) {
    const size_t lo = start + size_t(b) * m, hi = lo + m;
    double c = 0, pk = 0;
    uint64_t ls = 0, ln = 0;
    for (size_t i = lo; i < hi; ++i) {
      c += s.copies_owed[i];
      pk += s.packets_owed[i];
      offered += s.copies_offered[i];
      pk_offered += s.packets_offered[i];
      delivered += s.copies_delivered[i];
      ls += s.latency_sum[i];
      ln += s.latency_count[i];
    }
    tb.push_back((double(lo) + double(m) / 2) * P);
    copies.push_back(c / double(m));
    packets.push_back(pk / double(m));
    if (ln) latency.push_back(double(ls) / double(ln));
  }
  const double cycles = double(n - start) * P;
  v.figures["batches"] = k;
  v.figures["batch_cycles"] = uint64_t(double(m) * P);
  v.figures["accepted_over_offered"] = offered ? num(double(delivered) / double(offered)) : nlohmann::json(nullptr);
  const BatchMeans lat = batch_means(latency);
  // (No batch: no packet created in the judged span was delivered; no mean to give.)
  const nlohmann::json none(nullptr);
  v.figures["latency"] = {{"mean", lat.batches ? num(lat.mean) : none},
                          {"ci95_half_width", lat.batches ? num(lat.half_width) : none},
                          {"batches", lat.batches},
                          {"lag1_autocorrelation", num(lat.lag1)},
                          {"of", "flit-copies created in the judged span"}};
  if (offered == 0) {
    // Settled: nothing owed through the judged span. A backlog there is packets offered before it
    // still in flight (a long message, an overload in the discarded start): nothing to judge yet.
    double owed = 0;
    for (size_t i = start; i < n; ++i) owed = std::max(owed, s.copies_owed[i]);
    v.outcome = transient_over && owed == 0 ? SteadyOutcome::Stable : SteadyOutcome::Undecided;
    if (owed > 0)
      v.reasons.push_back(fmt::format("no load offered in the judged span, while up to {:.6g} flit-copies offered "
                                      "before it are still owed: the packets still draining decide nothing; a "
                                      "longer sim.measure or a load in the window",
                                      owed));
    else if (!transient_over)
      v.reasons.push_back("no load offered in the judged span, and the series still drifts");
    v.brief = owed > 0 ? "undecided: no load offered in the judged span, earlier packets still draining"
                       : "no load offered in the judged span";
    return v;
  }
  const Growth gc = growth(tb, copies, double(offered) / cycles);
  const Growth gp = growth(tb, packets, double(pk_offered) / cycles);
  v.figures["backlog"] = growth_json(gc, copies, "flit-copies owed");
  v.figures["packets_owed"] = growth_json(gp, packets, "packets not complete at every addressed node");

  // The minimum evidence. A packet stays in the backlog for at least the network's zero-load
  // crossing, so batch means over shorter batches share their packets and are not the nearly
  // independent samples the trend's interval assumes (a cold start's fill then looks like
  // growth); and a batch mean of a few packets is no mean at all (the interval rests on batch means
  // close to normal: the usual floor of 5 events of a count). Either way the window cannot tell.
  const uint64_t batch_cycles = uint64_t(double(m) * P);
  const double batch_packets = double(delivered) * double(pk_offered) / double(offered) / double(k);
  v.figures["evidence"] = {{"batch_cycles", batch_cycles},
                           {"zero_load_crossing", p.crossing},
                           {"delivered_packets_per_batch", num(batch_packets)},
                           {"min_packets_per_batch", num(p.min_batch_packets * p.burst_packets)},
                           {"packets_per_burst", num(p.burst_packets)}};
  // Batches long enough but too few deliveries in them for the batch test, and a shortfall no
  // window explains: over the judged span the packets delivered fall short of those offered (at
  // least kGrossMinOffered) by more than the tolerance, four standard deviations of the two counts
  // (Poisson) and the packets a cold start's fill holds (two zero-load crossings' worth), while the
  // backlog grows: unstable. (Batches shorter than the crossing stay undecided: a cold start at a
  // high load still filling its network would read as such a shortfall.)
  const double pk_delivered = double(delivered) * double(pk_offered) / double(offered);
  const double shortfall = double(pk_offered) - pk_delivered;
  const double allowed = tol * double(pk_offered) + 4 * std::sqrt(2 * double(pk_offered) * p.burst_packets) +
                         2 * double(p.crossing) * double(pk_offered) / cycles;
  const bool gross = double(pk_offered) >= kGrossMinOffered && shortfall > allowed && gc.lo() > tol;
  v.figures["evidence"]["shortfall_packets"] = num(shortfall);
  v.figures["evidence"]["shortfall_allowed"] = num(allowed);
  const double min_packets = p.min_batch_packets * p.burst_packets;  // min_batch_packets arrivals
  if (gross && batch_cycles >= p.crossing && batch_packets < min_packets) {
    v.outcome = SteadyOutcome::Unstable;
    v.reasons.push_back(fmt::format(
        "delivered {:.1f} of {} packets offered over the judged span ({:.1f}%): short by more than the tolerance, the "
        "counts' noise and a cold start's fill allow ({:.1f}), while the backlog grows ({} of the offered load, 95% CI "
        "{}..{}); too few deliveries per batch for the trend test, but no longer window turns this into a transient",
        pk_delivered, pk_offered, 100.0 * pk_delivered / double(pk_offered), allowed, pct(gc.rel()), pct(gc.lo()),
        pct(gc.hi())));
    v.brief = fmt::format("unstable: delivered {:.1f}% of the offered packets", 100.0 * pk_delivered / double(pk_offered));
    return v;
  }
  if (batch_cycles < p.crossing || batch_packets < min_packets) {
    v.outcome = SteadyOutcome::Undecided;
    if (batch_cycles < p.crossing)
      v.reasons.push_back(fmt::format("window too short: batches of {} cycles are shorter than the network's zero-load "
                                      "crossing of {} cycles, so they carry no independent evidence; lengthen "
                                      "sim.measure to at least {} cycles",
                                      batch_cycles, p.crossing, 2 * uint64_t(p.batches) * p.crossing));
    else  // (raising the load helps only a run that carries what it is offered)
      v.reasons.push_back(fmt::format("window too short: {:.2f} packets delivered per batch, fewer than {:.4g}{}; "
                                      "lengthen sim.measure{}",
                                      batch_packets, min_packets,
                                      p.burst_packets > 1 ? fmt::format(" ({} bursts of {:.4g} packets)", p.min_batch_packets, p.burst_packets) : "",
                                      double(delivered) < (1 - p.tolerance) * double(offered)
                                          ? fmt::format(" (it delivered {:.1f}% of the offered flit-copies)",
                                                        100.0 * double(delivered) / double(offered))
                                          : " (or raise the load)"));
    v.brief = "undecided: window too short";
    return v;
  }
  // Accepted below offered by more than the tolerance with the growth interval wholly above it:
  // a backlog that grows, whatever its shape (a settling-looking growth that still loses this much
  // of the load is a queue beyond saturation, not a transient).
  const bool short_of_offered = double(delivered) < (1 - tol) * double(offered);
  const auto growing = [&](const Growth& g) { return g.growing(tol) || (g.lo() > tol && short_of_offered); };

  const std::string ci = fmt::format("growth {} of the offered load (95% CI {}..{}, {} batches of {} cycles)", pct(gc.rel()),
                                     pct(gc.lo()), pct(gc.hi()), k, uint64_t(double(m) * P));
  if (growing(gc) || growing(gp)) {
    v.outcome = SteadyOutcome::Unstable;
    const Growth& g = growing(gc) ? gc : gp;
    v.reasons.push_back(fmt::format("the {} keeps growing: {} of the offered {} accumulate (95% CI {}..{}; {}..{} in the "
                                    "window's last half), above the tolerance {}",
                                    &g == &gc ? "backlog" : "count of incomplete packets", pct(g.rel()),
                                    &g == &gc ? "flit-copies" : "packets", pct(g.lo()), pct(g.hi()), pct(g.last_lo()),
                                    pct(g.last_hi()), pct(tol)));
    if (!g.growing(tol))
      v.reasons.push_back(fmt::format("accepted {:.2f}% of the offered load over the judged span, short by more than "
                                      "the tolerance {}: the growth does not settle enough to be a transient",
                                      100.0 * double(delivered) / double(offered), pct(tol)));
  } else if (transient_over && gc.steady(tol) && gp.steady(tol)) {
    v.outcome = SteadyOutcome::Stable;
  } else {
    v.outcome = SteadyOutcome::Undecided;
    if (!transient_over)
      v.reasons.push_back(fmt::format("the initial transient does not end by mid-window (MSER truncation at its limit, "
                                      "cycle {}): lengthen sim.measure",
                                      uint64_t(double(d) * P)));
    if (!gc.steady(tol) || !gp.steady(tol)) {
      const Growth& g = !gc.steady(tol) ? gc : gp;
      const char* what = &g == &gc ? "backlog" : "count of incomplete packets";
      if (g.lo() > tol && g.settling())
        v.reasons.push_back(fmt::format("the {} grows ({}..{} of the offered load, 95% CI) but settles ({}..{} in the "
                                        "window's last half): the transient may outlast the window; lengthen sim.measure",
                                        what, pct(g.lo()), pct(g.hi()), pct(g.last_lo()), pct(g.last_hi())));
      else if (g.lo() > tol)
        v.reasons.push_back(fmt::format("the {} grows ({}..{} of the offered load, 95% CI) but not significantly in the "
                                        "window's last half ({}..{}): lengthen sim.measure",
                                        what, pct(g.lo()), pct(g.hi()), pct(g.last_lo()), pct(g.last_hi())));
      else
        v.reasons.push_back(fmt::format("the {} growth {}..{} of the offered load (95% CI) cannot be told from the "
                                        "tolerance {}: lengthen sim.measure",
                                        what, pct(g.lo()), pct(g.hi()), pct(tol)));
    }
  }
  v.brief = lat.batches ? fmt::format("{}: {}; latency {:.1f} +- {:.1f}", outcome_name(v.outcome), ci, lat.mean, lat.half_width)
                        : fmt::format("{}: {}; latency: none of the packets created in the judged span was delivered",
                                      outcome_name(v.outcome), ci);
  return v;
}

}  // namespace wormcast
