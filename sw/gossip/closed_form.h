// Closed forms of Juurlink, Sibeyn, Rao (Lemmas 4-7, 9, Theorem 4) and the lower bounds (eq. 2,
// Theorem 1), in units of l t_f with r = t_s / (l t_f) and the hop term dropped, as in the paper.
#pragma once

#include <string>
#include <vector>

namespace wormcast::sw {

/// How the factor floor(a/2) of Lemmas 5, 7 and 9 is evaluated. The lemmas print floor(a/2);
/// the paper's Tables 1-3 are reproduced only with a/2 (see docs/experiments/gossip.md), so both exist.
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

// Meshes (linear arrays per line). The paper analyses circular arrays and says the results carry
// over to linear arrays "with minor modifications"; these are the modifications the generators
// make (INTERPRETATION, docs/schedules.md), as times and step counts.

/// Approach 1 on a linear array of n PUs: n - 1 steps of one packet, (n - 1)(1 + r) — the end PU
/// receives n - 1 packets over its one link.
double approach1_line_time(int n, double r);

/// Steps of the generated schedules: Approach 1 on a line n - 1; Approach 2 (ring or line)
/// 2 ceil(log3 n); CIRCGOS(n, a, b) on a line, n = a^R: ceil(log3(n/a)) + (a - 1) + the sum
/// over the R - 1 rounds of max(b, q_left, q_right) (Phase 2 circulates among the a bridgeheads
/// in a - 1 steps instead of floor(a/2); q_left, q_right are the new bridgeheads of the round
/// below the first and above the last old one, fed from one side). Returns -1 where n is not a
/// power of a.
int approach1_line_steps(int n);
int approach2_steps(int n);
int circgos_line_steps(int n, int a, int b);

/// Steps of TORGOS / CUBGOS(n, d, a, b) on the n^d mesh for n = a^R (a1 = a2 = a), coloured or
/// not: Phase 1 ceil(log3 g) + 1 (g = n/a >= 2: the aligned blocks are concentrated, then moved
/// onto the diagonal in one step), Phases 2 and 3 d (a - 1), each of the R - 1 rounds
/// max(b, a - 1) (4a: the end pieces hold up to a - 1 new bridgeheads fed from one side) plus
/// (d - 1)(a - 1) (4b). Returns -1 where n is not a power of a.
int diagonal_mesh_steps(int n, int d, int a, int b);
/// The same on the torus, for comparison: ceil(log3 g) + d floor(a/2) + (R - 1)(b + (d - 1) floor(a/2)).
int diagonal_torus_steps(int n, int d, int a, int b);

/// A corner PU of a d-D mesh has d links and must receive the other N - 1 packets: (N - 1)/d.
/// Lemma 1's first term with the corner's degree (INTERPRETATION); on a linear array n - 1, which
/// Approach 1 attains.
double lower_bound_mesh_corner(double nodes, int dims);

/// Eq. 2: max((N - 1)/Delta, log N / log(Delta+1) r), for concentration (hence gossip) on a
/// network of N PUs and degree Delta. The paper prints N/Delta; the concentrating PU holds its own
/// data, so only N - 1 PUs' data cross its Delta links (INTERPRETATION: with N/Delta the bound
/// exceeds schedules that exist, e.g. Approach 1 on a ring of 9 at r = 0, 4 < 4.5, which the paper
/// calls optimal there).
double lower_bound_eq2(double nodes, int degree, double r);
/// Theorem 1 without its constant: n ln n / ln(n / r), meaningful for r <= (n-1)/e.
double lower_bound_theorem1(double n, double r);

}  // namespace wormcast::sw
