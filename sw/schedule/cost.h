// Step-synchronous cost of a schedule under the wormhole time t(d, l) = t_s + d t_d + l t_f
// (eq. 1 of Juurlink, Sibeyn, Rao): each step lasts as long as its slowest unicast.
#pragma once

#include <stdint.h>

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
  /// OnePort: Sec. 7.2's model — a PU cannot send and receive at once, nor send (receive) two
  /// messages at once — so a step lasts, at its busiest PU, the sum of the times of everything it
  /// sends and receives in the step (Approach 1: n - 1 steps of 2 + 2r).
  PortModel ports = PortModel::AllPort;
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
/// All-port model: a node's unicasts of one step leave in parallel, so a step pays one start-up;
/// one-port model: see CostParams::ports.
ScheduleCost schedule_cost(const Schedule& s, const CostParams& p);

}  // namespace wormcast::sw

namespace wormcast::sw {

/// The step model in cycles, on the router's timing (t_f = 1 cycle per flit, docs/router.md 7):
/// a unicast of L flits over h hops, injected at a, has its tail at the receiver at
/// a + (h+1) R + h Ld + L. Each step lasts as long as its slowest unicast, measured from the
/// step's start; steps add up.
///
/// With both switches off this is eq. 1 with the hop term on (t_d = R + Ld) and one start-up
/// per step: the paper's all-port model. A node program on the cycle model differs in exactly
/// two ways, which the switches add: its processor pays t_s per send, one send after the other,
/// so the i-th send (from 0) of a node in a step leaves at (i+1) t_s; and every message also
/// crosses the destination's router (one more R), its injection and ejection channels' delays
/// (Di + De) and becomes visible t_r after its tail.
struct CycleCostParams {
  uint32_t length = 1;  ///< l: flits of one node's data; a unicast is ceil(l chunks / chunks_per_node)
  uint64_t t_s = 0;
  uint64_t t_r = 0;
  uint64_t router_delay = 1;  ///< R
  uint64_t link_delay = 0;    ///< Ld
  uint64_t injection_delay = 0;  ///< Di (with `ejection`)
  uint64_t ejection_delay = 0;   ///< De (with `ejection`)
  bool serial_startups = false;  ///< (i+1) t_s for a node's i-th send of a step, not one t_s
  bool ejection = false;         ///< + R + Di + De + t_r per unicast
};

struct CycleCost {
  std::vector<uint64_t> steps;  ///< index s-1 for step s
  uint64_t total = 0;
};

/// Flits of unicast `u` when one node's data is `length` flits (what ProgramImage sends).
uint32_t unicast_flits(const Schedule& s, const Unicast& u, uint32_t length);

CycleCost schedule_cycles(const Schedule& s, const CycleCostParams& p);

}  // namespace wormcast::sw
