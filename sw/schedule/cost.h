// Step-synchronous cost of a schedule under the wormhole time t(d, l) = t_s + d t_d + l t_f
// (eq. 1 of Juurlink, Sibeyn, Rao): each step lasts as long as its slowest unicast.
#pragma once

#include <vector>

#include "sw/schedule/schedule.h"

namespace wormcast::sw {

/// Eq. 1: time of one l-flit message over d hops with no link contention.
inline double message_time(int hops, double flits, double t_s, double t_d, double t_f) {
  return t_s + hops * t_d + flits * t_f;
}

/// Parameters in the paper's normalised units: time in units of l t_f (l = flits of one node's
/// data), r = t_s / (l t_f), hop = t_d / (l t_f). The paper drops the hop term; `hop_term` keeps it.
struct CostParams {
  double r = 0;
  double hop = 0;
  bool hop_term = false;
};

struct StepCost {
  int step = 0;
  int unicasts = 0;
  double max_size = 0;  ///< largest unicast, in units of one node's data
  int max_hops = 0;
  double time = 0;      ///< max over the step's unicasts of r + size (+ hops * hop); 0 if empty
};

struct ScheduleCost {
  std::vector<StepCost> steps;  ///< index s-1 for step s
  double total = 0;
  int busy_steps = 0;  ///< steps with at least one unicast (each pays one start-up)
};

/// Every step of `s` timed from its unicasts: size = chunks.count() / chunks_per_node.
/// All-port model: a node's unicasts of one step leave in parallel, so a step pays one start-up.
ScheduleCost schedule_cost(const Schedule& s, const CostParams& p);

}  // namespace wormcast::sw
