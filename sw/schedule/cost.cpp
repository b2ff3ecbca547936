// Step-synchronous schedule cost (eq. 1 per unicast, max per step, sum over steps).
#include "sw/schedule/cost.h"

#include <algorithm>

namespace wormcast::sw {

ScheduleCost schedule_cost(const Schedule& s, const CostParams& p) {
  ScheduleCost c;
  c.steps.resize(size_t(std::max(0, s.num_steps)));
  for (int i = 0; i < s.num_steps; ++i) c.steps[size_t(i)].step = i + 1;
  const double per = s.chunks_per_node > 0 ? double(s.chunks_per_node) : 1.0;
  const bool one = p.ports == PortModel::OnePort;
  // One-port: per (step, node), the time the node is busy sending and receiving.
  std::vector<std::vector<double>> busy(one ? c.steps.size() : 0);
  for (std::vector<double>& b : busy) b.assign(size_t(s.topology.num_nodes()), 0.0);
  for (const Unicast& u : s.unicasts) {
    if (u.step < 1 || u.step > s.num_steps) continue;
    StepCost& st = c.steps[size_t(u.step - 1)];
    const double size = u.chunks.count() / per;
    const int hops = s.topology.hops(u.src, u.dst, u.tie_negative);
    ++st.unicasts;
    st.max_size = std::max(st.max_size, size);
    st.max_hops = std::max(st.max_hops, hops);
    // eq. 1 divided by l t_f: r + hops t_d/(l t_f) + size.
    const double t = message_time(p.hop_term ? hops : 0, size, p.r, p.hop, 1.0);
    if (!one) {
      st.time = std::max(st.time, t);
      continue;
    }
    std::vector<double>& b = busy[size_t(u.step - 1)];
    b[size_t(u.src)] += t;
    b[size_t(u.dst)] += t;
    st.time = std::max({st.time, b[size_t(u.src)], b[size_t(u.dst)]});
  }
  for (const StepCost& st : c.steps) {
    c.total += st.time;
    if (st.unicasts) ++c.busy_steps;
  }
  return c;
}

}  // namespace wormcast::sw

namespace wormcast::sw {

uint32_t unicast_flits(const Schedule& s, const Unicast& u, uint32_t length) {
  const uint64_t per = uint64_t(std::max(1, s.chunks_per_node));
  return std::max<uint32_t>(1, uint32_t((uint64_t(length) * uint64_t(u.chunks.count()) + per - 1) / per));
}

CycleCost schedule_cycles(const Schedule& s, const CycleCostParams& p) {
  CycleCost c;
  c.steps.assign(size_t(std::max(0, s.num_steps)), 0);
  // A node's sends of one step leave in (order) sequence: rank them per (src, step).
  std::vector<size_t> idx(s.unicasts.size());
  for (size_t i = 0; i < idx.size(); ++i) idx[i] = i;
  std::stable_sort(idx.begin(), idx.end(), [&](size_t a, size_t b) {
    const Unicast &x = s.unicasts[a], &y = s.unicasts[b];
    if (x.src != y.src) return x.src < y.src;
    if (x.step != y.step) return x.step < y.step;
    return x.order < y.order;
  });
  uint64_t rank = 0;
  for (size_t k = 0; k < idx.size(); ++k) {
    const Unicast& u = s.unicasts[idx[k]];
    if (k > 0 && s.unicasts[idx[k - 1]].src == u.src && s.unicasts[idx[k - 1]].step == u.step) ++rank;
    else rank = 0;
    if (u.step < 1 || u.step > s.num_steps) continue;
    const uint64_t h = uint64_t(s.topology.hops(u.src, u.dst, u.tie_negative));
    uint64_t t = (p.serial_startups ? rank + 1 : 1) * p.t_s + h * (p.router_delay + p.link_delay) +
                 unicast_flits(s, u, p.length);
    if (p.ejection) t += p.router_delay + p.injection_delay + p.ejection_delay + p.t_r;
    uint64_t& st = c.steps[size_t(u.step - 1)];
    st = std::max(st, t);
  }
  for (uint64_t t : c.steps) c.total += t;
  return c;
}

}  // namespace wormcast::sw
