// Closed forms of Juurlink, Sibeyn, Rao (Lemmas 4-7, 9, Theorem 4) and the lower bounds (eq. 2,
// Theorem 1), in units of l t_f with r = t_s / (l t_f) and the hop term dropped, as in the paper.
#pragma once

#include <string>
#include <vector>

namespace wormcast::sw {

/// How the factor floor(a/2) of Lemmas 5, 7 and 9 is evaluated. The lemmas print floor(a/2);
/// the paper's Tables 1-3 are reproduced only with a/2 (see docs/experiments.md), so both exist.
enum class HalfRule { Floor, Half };

/// One closed form split into its phases (names as in the lemma) and its start-up count.
struct ClosedForm {
  std::vector<std::pair<std::string, double>> phases;
  double total = 0;
  void add(const std::string& name, double t) {
    phases.emplace_back(name, t);
    total += t;
  }
};

double log_base(double x, double base);

/// Lemma 4: floor(n/2) (1 + r).
double approach1_time(int n, double r);
/// Lemma 4: log3 n (n + 2 r) (the lower-order n/2 of the concentration dropped).
double approach2_time(int n, double r);
/// Lemma 4's proof before dropping the lower-order term, for n = 3^k:
/// sum_{i<k} (3^i + r) + k (n + r).
double approach2_sum(int n, double r);

// Sec. 7.2 prints closed forms for the one-port Approach 1 and 2 only ("a detailed analysis of all
// algorithms under this model is omitted"): none for the one-port CIRCGOS/TORGOS(a1, a2, k) or
// Approach i-j, whose schedules are costed step by step (Approach i-j per phase from these two, as
// Lemma 6 does from Lemma 4, is what the tool prints as their closed form).

/// Sec. 7.2 (one-port: a PU sends or receives one message at a time): Approach 1 in n - 1 steps,
/// (n - 1)(2 + 2r).
double approach1_one_port_time(int n, double r);
/// Sec. 7.2: ceil(log2 n)(n + 2r), binary concentration and its reverse (approximate).
double approach2_one_port_time(int n, double r);
/// The same before dropping the concentration's lower-order term, for n = 2^k:
/// sum_{i<k} (2^i + r) + k (n + r).
double approach2_one_port_sum(int n, double r);

/// Lemma 5: phases 1, 2, 3 of CIRCGOS(n, a, b), k = 2b - a + 2.
ClosedForm circgos_time(double n, double a, double b, double r, HalfRule half = HalfRule::Floor);

/// Lemma 6 (HIGH-DIM-GOS' on an n x n torus): i, j in {1, 2}; 1-2 is not defined by the paper.
double approach_ij_time(int i, int j, int n, double r);

/// Lemma 7: TORGOS(n, a, b) phases 1, 4a, 2+3+4b; `colours` divides the transfer terms
/// (TORGOS' = 2, the coloured version the paper's Table 2 lists). `share` > 0 replaces the
/// colour's share 1/colours of the data (an evaluation variant; see SearchOptions::share).
ClosedForm torgos_time(double n, double a, double b, double r, HalfRule half, int colours, double share = 0);

/// Lemma 9: CUBGOS(n, d, a, b) phases 1, 4a, 2+3+4b; `colours` and `share` as above (CUBGOS' = d).
ClosedForm cubgos_time(double n, int d, double a, double b, double r, HalfRule half, int colours,
                       double share = 0);

/// Theorem 4: CUBGOS'(n, d, a, b) ~ a/(a-1) n^d/(2d) + d a/2 log_a n r.
double cubgos_theorem4(double n, int d, double a, double r);

/// Eq. 2: max(N/Delta, log N / log(Delta+1) r), for concentration (hence gossip) on a network
/// of N PUs and degree Delta.
double lower_bound_eq2(double nodes, int degree, double r);
/// Theorem 1 without its constant: n ln n / ln(n / r), meaningful for r <= (n-1)/e.
double lower_bound_theorem1(double n, double r);

}  // namespace wormcast::sw
