// Sequential baseline and recursive doubling along dimensions.
#include "sw/broadcast/broadcast.h"
#include "sw/broadcast/builder.h"

namespace wormcast::sw {

Schedule sequential_broadcast(const Topology& t, int source) {
  if (source < 0 || source >= t.num_nodes())
    throw std::invalid_argument("sequential: source node " + std::to_string(source) +
                                " is outside " + describe(t));
  // One send per step keeps Definition 1 condition 3 (distinct first channels per step) true for
  // any network, and the steps are the source's send order anyway.
  Schedule s;
  s.topology = t;
  s.source = source;
  s.algo = "sequential";
  const Coord sc = t.coord(source);
  int step = 0;
  for (int rel = 1; rel < t.num_nodes(); ++rel) {
    Coord c = t.coord(rel);
    for (int d = 0; d < t.dims(); ++d) c[d] = (c[d] + sc[d]) % t.radix(d);
    Unicast u;
    u.src = source;
    u.dst = t.node(c);
    u.step = ++step;
    u.order = 0;
    s.unicasts.push_back(u);
  }
  s.num_steps = step;
  return s;
}

namespace {

/// The holder sits at offset 0 of a range of `len` positions along dimension `dim` (relative to
/// itself); it keeps the lower ceil(len/2) positions and hands the upper half to the node at the
/// same relative position there, then continues with the next dimension over its whole ring.
void rd_expand(detail::ScheduleBuilder& b, const Topology& t, const detail::Vec& at, int dim,
               int len, int step) {
  while (dim < t.dims()) {
    while (len > 1) {
      const int half = (len + 1) / 2;
      detail::Vec partner = at;
      partner[dim] += half;
      ++step;
      b.add(at, partner, step);
      rd_expand(b, t, partner, dim, len - half, step);
      len = half;
    }
    if (++dim < t.dims()) len = t.radix(dim);
  }
}

}  // namespace

Schedule recursive_doubling_broadcast(const Topology& t, int source) {
  detail::require_torus(t, source, "rd", "a torus (every dimension wraps)");
  detail::ScheduleBuilder b(t, "rd");
  rd_expand(b, t, detail::Vec{}, 0, t.radix(0), 0);
  int steps = 0;
  for (int d = 0; d < t.dims(); ++d) steps += ceil_log(t.radix(d), 2);
  return b.finish(source, steps);
}

}  // namespace wormcast::sw
