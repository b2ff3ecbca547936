// Schedule verifier: Definition 1 of Hou, Wang and Hsu, stepwise and depth contention-freedom (Theorem 1),
// the step count against the lower bound ceil(log_{2n+1} N); for gossip schedules completeness,
// chunk causality and overlap-freedom (Juurlink, Sibeyn, Rao).
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "sw/schedule/schedule.h"

namespace wormcast::sw {

/// Two unicasts (indices into Schedule::unicasts, `first` the one of the earlier or equal step)
/// and an arc both paths use.
struct UnicastPair {
  int first = -1;
  int second = -1;
  Arc arc{-1, -1};
  bool valid() const { return first >= 0; }
};

/// Machine-readable verdict. Every count refers to the schedule as given (no deduplication).
struct Verdict {
  int num_nodes = 0;
  int num_unicasts = 0;
  int steps = 0;        ///< Schedule::num_steps
  int lower_bound = 0;  ///< ceil(log_{2n+1} N), n = number of dimensions
  bool steps_valid = true;  ///< every unicast's step is in 1..steps and src != dst

  // Definition 1 (Hou, Wang and Hsu).
  bool source_only_first_step = true;   ///< condition 1: only the source sends in step 1
  bool causal = true;                   ///< condition 2: a sender received in an earlier step
  bool distinct_first_channels = true;  ///< condition 3: per sender and step
  bool exactly_once = true;             ///< condition 4: every other node receives exactly once
  int missing = 0;            ///< nodes (other than the source) that never receive
  int duplicates = 0;         ///< receipts beyond the first, plus receipts by the source
  int causality_violations = 0;
  int first_channel_clashes = 0;  ///< pairs of one sender's unicasts in a step on one channel

  // Stepwise contention-freedom: no two unicasts of one step share a directed arc.
  bool stepwise_contention_free = true;
  int stepwise_conflicts = 0;  ///< unicast pairs of one step sharing at least one arc
  UnicastPair first_stepwise_conflict;

  // Depth contention-freedom, via Theorem 1 (sufficient conditions): every pair of unicasts that
  // share an arc must meet condition 1, 3 or 4 (condition 2 is "they do not share one").
  bool depth_contention_free = true;
  int sharing_pairs = 0;  ///< unicast pairs (any steps) sharing at least one arc
  int covered_c1 = 0;     ///< counted by the first condition found, in the order 3, 4, 1
  int covered_c3 = 0;
  int covered_c4 = 0;
  int uncovered_pairs = 0;
  UnicastPair first_uncovered;

  // Gossip (Collective::Gossip): Definition 1 and Theorem 1 are broadcast notions and are not
  // evaluated; instead these three, and stepwise contention-freedom (overlap-freedom).
  bool gossip = false;
  bool complete = true;       ///< every node ends holding all N * chunks_per_node chunks
  bool chunk_causal = true;   ///< a unicast carries only chunks its sender held before its step
  int incomplete_nodes = 0;
  int chunk_causality_violations = 0;
  int empty_unicasts = 0;     ///< unicasts carrying no chunk (reported, not an error)
  /// Deliveries of a chunk to a node that already holds it (or gets it twice in a step): 0 means
  /// every chunk reaches every node exactly once. Reported, not an error: the paper's Approach 2
  /// dissemination and the Phase 3 / 4a fill send the whole data, the receiver's own part included.
  long long repeated_chunks = 0;
  int nodes_with_repeats = 0;

  // One-port rule (VerifyOptions::one_port; Sec. 7.2 of Juurlink, Sibeyn, Rao): per step a node
  // sends at most one message and receives at most one.
  bool one_port_checked = false;
  bool one_port = true;
  int one_port_violations = 0;  ///< (node, step) pairs with two or more sends or receipts

  std::vector<std::string> errors;  ///< the first few violations, one line each

  /// Gossip: what `--check` requires.
  bool gossip_ok() const { return steps_valid && complete && chunk_causal && stepwise_contention_free && one_port; }

  bool definition1() const {
    return steps_valid && source_only_first_step && causal && distinct_first_channels &&
           exactly_once;
  }
  /// What `schedule --check` requires: Definition 1 and stepwise contention-freedom.
  bool ok() const { return gossip ? gossip_ok() : definition1() && stepwise_contention_free && one_port; }
};

struct VerifyOptions {
  bool one_port = false;  ///< also require the one-port rule (Verdict::one_port)
};

/// Checks everything above. Reachable sets (Definition 2) are taken over the tree of first
/// receipts, because a node forwards once it first holds the message. A gossip schedule is
/// checked step-synchronously: holdings at the start of step s are the initial chunks plus
/// everything received in steps < s; only same-step arc sharing is looked for (the gossip
/// algorithms are overlap-free per step), which keeps the check linear in the number of arcs.
Verdict verify(const Schedule& s);
Verdict verify(const Schedule& s, const VerifyOptions& o);

/// What verify() of a broadcast schedule has to examine, counted from the paths alone (linear in
/// the schedule's arcs): every pair of unicasts sharing an arc (counted once per arc shared), and
/// an upper bound on the sends Theorem 1's cover test scans for them. A schedule with every node
/// a sender of many long paths (`sequential` on a large torus) has billions; a gossip schedule
/// is checked per step and costs nothing here.
struct VerifyCost {
  double sharing_pairs = 0;  ///< pairs of unicasts on one arc, summed over arcs
  double cover_scans = 0;    ///< sends of the pairs' senders the cover test may look at
  double unicasts = 0;
  double arc_uses = 0;   ///< channels crossed, summed over the unicasts (hops)
  /// The channels crossed exceed kMaxArcUses: the estimate stopped at arc_uses (sharing_pairs and
  /// cover_scans are not counted), and the check is refused on that count alone.
  bool partial = false;
  static constexpr double kMaxArcUses = 5e7;
  /// Rough work units and bytes of memory verify() needs (a unit is about one pair visit; each
  /// distinct pair is remembered once, in a hash set of about 48 bytes an entry).
  double work() const { return sharing_pairs + cover_scans; }
  double bytes() const { return 48.0 * std::min(sharing_pairs, unicasts * (unicasts - 1) / 2); }
};
VerifyCost verify_cost(const Schedule& s);

/// "step 1 (0,0)->(2,2) and step 2 (2,0)->(2,1) share arc (2,0) y+".
std::string describe_pair(const Schedule& s, const UnicastPair& p);

/// Multi-line human-readable summary of a verdict.
std::string format_verdict(const Schedule& s, const Verdict& v);

}  // namespace wormcast::sw
