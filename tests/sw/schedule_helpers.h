// Small builders the sw tests share: square tori, nodes by coordinates, hand-made schedules.
#pragma once

#include <string>

#include "sw/broadcast/broadcast.h"

namespace wormcast::sw::test {

inline Topology square(int n) { return parse_net("torus:" + std::to_string(n) + "x" + std::to_string(n)); }

inline int at(const Topology& t, int x, int y, int z = 0) { return t.node(Coord{{x, y, z, 0}}); }

/// An empty schedule from node 0 with `steps` steps, to fill with add().
inline Schedule hand_made(const Topology& t, int steps) {
  Schedule s;
  s.topology = t;
  s.source = 0;
  s.num_steps = steps;
  s.algo = "hand";
  return s;
}

inline void add(Schedule& s, int src, int dst, int step, int order = 0) {
  Unicast u;
  u.src = src;
  u.dst = dst;
  u.step = step;
  u.order = order;
  s.unicasts.push_back(u);
}

}  // namespace wormcast::sw::test
