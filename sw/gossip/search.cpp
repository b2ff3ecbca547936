// Closed-form parameter search: exhaustive in a, and in b up to the minimum of a convex function.
#include "sw/gossip/search.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace wormcast::sw {

SearchResult search_circgos(int n, double r, const SearchOptions& o, double unit) {
  SearchResult best;
  best.time = unit * approach1_time(n, r / unit);
  best.a = n;
  best.approach1 = true;
  best.form.add("approach1", best.time);
  const int max_a = o.max_a > 0 ? o.max_a : n;
  if (o.lemma5_at_n) best.time = std::numeric_limits<double>::infinity();
  const int last_a = o.lemma5_at_n ? std::min(n, max_a) : std::min(n - 1, max_a);
  for (int a = 2; a <= last_a; ++a) {
    if (o.divisors_only && n % a) continue;
    // T(b) = c1 b / (2b - a + 2) + c2 b is convex for 2b - a + 2 >= 1, so walk up to its minimum.
    double prev = std::numeric_limits<double>::infinity();
    for (int b = a / 2; b <= 2 * n; ++b) {
      ClosedForm f = circgos_time(n, a, b, r / unit, o.half);
      const double t = unit * f.total;
      if (t >= prev) break;
      prev = t;
      if (t < best.time) {
        best.time = t;
        best.a = a;
        best.b = b;
        best.approach1 = false;
        for (auto& p : f.phases) p.second *= unit;
        f.total *= unit;
        best.form = f;
      }
    }
  }
  return best;
}

SearchResult search_diagonal(int n, int d, double r, int colours, const SearchOptions& o) {
  SearchResult best;
  best.time = std::numeric_limits<double>::infinity();
  const int max_a = o.max_a > 0 ? o.max_a : n;
  for (int a = 2; a <= std::min(n, max_a); ++a) {
    if (o.divisors_only && n % a) continue;
    double prev = std::numeric_limits<double>::infinity();
    // b from floor(a/2) up to the minimum of the (convex) closed form, at most 2n. This includes
    // a = n: Phase 4 then has no rounds, but the lemma's Phase 4a transfer term still depends on b
    // (it decreases as b grows; its start-up term (log_a n - 1) b r vanishes), and the paper's
    // search minimises the closed form as printed there too (Table 3 lists (81, 161) for n = 81).
    for (int b = a / 2; b <= 2 * n; ++b) {
      const ClosedForm f = d == 2 ? torgos_time(n, a, b, r, o.half, colours, o.share)
                                  : cubgos_time(n, d, a, b, r, o.half, colours, o.share);
      if (f.total >= prev) break;
      prev = f.total;
      if (f.total < best.time) {
        best.time = f.total;
        best.a = a;
        best.b = b;
        best.form = f;
      }
    }
  }
  return best;
}

HighDimResult search_high_dim(int n, int d, double r, bool circ, const SearchOptions& o) {
  HighDimResult res;
  for (int f = 0; f < d; ++f) {
    const double unit = std::pow(double(n), f) * (o.share > 0 ? o.share : 1.0 / d);
    double t = 0;
    if (circ) {
      res.phases.push_back(search_circgos(n, r, o, unit));
      t = res.phases.back().time;
    } else {
      const double t1 = unit * approach1_time(n, r / unit), t2 = unit * approach2_time(n, r / unit);
      res.approaches += t2 < t1 ? '2' : '1';
      t = std::min(t1, t2);
    }
    res.time += t;
  }
  return res;
}

}  // namespace wormcast::sw
