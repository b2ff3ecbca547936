// Parameter search over the closed forms (the paper's "small program"): the best (a, b) of
// CIRCGOS, TORGOS' and CUBGOS' for given n, d, r, and the best 1-D algorithm per HIGH-DIM phase.
#pragma once

#include <string>
#include <vector>

#include "sw/gossip/closed_form.h"

namespace wormcast::sw {

struct SearchOptions {
  HalfRule half = HalfRule::Floor;
  /// Only a that divide n (what the torus generators accept); the paper's search did not
  /// restrict a (its Table 2 lists a = 23 for n = 81).
  bool divisors_only = false;
  /// Largest a tried (default n; a = n is Approach 1 on rings).
  int max_a = 0;
  /// Evaluate a = n by Lemma 5 (n/(2a) + a/2 (n/a + r), b free) instead of as Approach 1: what
  /// the paper's HIGH-DIM-GOS' column of Table 2 appears to do (its (27, 13) for n = 27).
  bool lemma5_at_n = false;
  /// Evaluation variant for the coloured algorithms (HIGH-DIM-GOS', TORGOS', CUBGOS'): a
  /// colour's share of a PU's data, in place of the exact 1/colours (0 = exact). The paper's
  /// Table 3 follows 0.333 for 1/3 (see docs/experiments/gossip.md); our tables keep the exact share.
  double share = 0;
};

struct SearchResult {
  double time = 0;
  int a = 0;
  int b = 0;               ///< 0 when a == n on a ring (Approach 1: no Phase 3)
  bool approach1 = false;  ///< ring: a == n evaluated as Approach 1 (Lemma 4)
  ClosedForm form;
};

/// CIRCGOS(n, a, b) on a ring for r; `unit` scales a phase of HIGH-DIM-GOS' whose packets are
/// `unit` times one node's data: time = unit * T(n, a, b, r / unit).
SearchResult search_circgos(int n, double r, const SearchOptions& o = {}, double unit = 1.0);

/// TORGOS (d = 2) or CUBGOS (d >= 3) on an n^d torus with `colours` colours (1 or d).
SearchResult search_diagonal(int n, int d, double r, int colours, const SearchOptions& o = {});

/// HIGH-DIM-GOS' on an n^d torus (d colours, phase f has packets of n^f / d): the best 1-D
/// algorithm per phase. `circ` true: CIRCGOS per phase; false: the better of Approach 1 and 2
/// (Lemma 4) per phase, named like "211". Option `share` applies to both.
struct HighDimResult {
  double time = 0;
  std::string approaches;               ///< e.g. "211" (approach choice only)
  std::vector<SearchResult> phases;     ///< per phase (CIRCGOS choice)
};
HighDimResult search_high_dim(int n, int d, double r, bool circ, const SearchOptions& o = {});

}  // namespace wormcast::sw
