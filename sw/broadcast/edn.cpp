// EDN broadcast — INTERPRETATION. The extended-dominating-node sets of Tsai and McKinley's 2-D
// torus algorithm are not published in any material available to us, so this is the "EDN-Z"
// stand-in of our reconstruction (section 1): the recursive Z_block split of Hou, Wang and Hsu Sec. 5.1,
// which has every published EDN property (d steps on 2^d x 2^d, the informed set grows 4x per
// step, 3 unicasts per informed node per step, stepwise but not depth contention-free).
#include "sw/broadcast/broadcast.h"
#include "sw/broadcast/builder.h"

namespace wormcast::sw {

using detail::Vec;
using detail::vec2;

Schedule edn_broadcast(const Topology& t, int source) {
  const std::string allowed = "a 2-D 2^d x 2^d torus, d >= 1 (2, 4, 8, 16, ...)";
  detail::require_torus(t, source, "edn", allowed);
  if (t.dims() != 2 || t.radix(0) != t.radix(1))
    throw UnsupportedNetwork("edn: needs " + allowed + "; got " + describe(t));
  const int n = t.radix(0);
  int d = 0;
  while ((1 << d) < n) ++d;
  if ((1 << d) != n) throw UnsupportedNetwork("edn: needs " + allowed + "; got " + describe(t));

  detail::ScheduleBuilder b(t, "edn");
  std::vector<Vec> informed{Vec{}};
  for (int j = 1; j <= d; ++j) {
    const int m = 1 << (d - j);
    std::vector<Vec> next = informed;
    for (const Vec& q : informed) {
      b.add(q, q + vec2(m, 0), j);  // first arc x+, m hops
      b.add(q, q + vec2(0, m), j);  // first arc y+, m hops
      // First arc x-, 2m hops. In the top step m = n/2, so -m is a tie that would leave on x+
      // like the first target (breaking Definition 1 condition 3); the sender sets the tie bit.
      // The router applies that bit to every tied dimension, so the y leg (also n/2) goes y-.
      b.add(q, q + vec2(-m, m), j, /*tie_negative=*/j == 1);
      next.push_back(q + vec2(m, 0));
      next.push_back(q + vec2(0, m));
      next.push_back(q + vec2(-m, m));
    }
    informed.swap(next);
  }
  return b.finish(source, d);
}

}  // namespace wormcast::sw
