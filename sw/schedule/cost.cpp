// Step-synchronous schedule cost (eq. 1 per unicast, max per step, sum over steps).
#include "sw/schedule/cost.h"

#include <algorithm>

namespace wormcast::sw {

ScheduleCost schedule_cost(const Schedule& s, const CostParams& p) {
  ScheduleCost c;
  c.steps.resize(size_t(std::max(0, s.num_steps)));
  for (int i = 0; i < s.num_steps; ++i) c.steps[size_t(i)].step = i + 1;
  const double per = s.chunks_per_node > 0 ? double(s.chunks_per_node) : 1.0;
  for (const Unicast& u : s.unicasts) {
    if (u.step < 1 || u.step > s.num_steps) continue;
    StepCost& st = c.steps[size_t(u.step - 1)];
    const double size = u.chunks.count() / per;
    const int hops = s.topology.hops(u.src, u.dst, u.tie_negative);
    ++st.unicasts;
    st.max_size = std::max(st.max_size, size);
    st.max_hops = std::max(st.max_hops, hops);
    // eq. 1 divided by l t_f: r + hops t_d/(l t_f) + size.
    st.time = std::max(st.time, message_time(p.hop_term ? hops : 0, size, p.r, p.hop, 1.0));
  }
  for (const StepCost& st : c.steps) {
    c.total += st.time;
    if (st.unicasts) ++c.busy_steps;
  }
  return c;
}

}  // namespace wormcast::sw
