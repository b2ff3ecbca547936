// DCF broadcast (Hou, Wang and Hsu): recursive 16-unit DCF blocks, 2 steps per phase, plus the final
// Z_block step on (2*4^k) x (2*4^k) tori. Block shape and send orders: our reconstruction section 2
// (RECONSTRUCTED; sol2 primary, sol1 alternative).
#include "sw/broadcast/broadcast.h"
#include "sw/broadcast/builder.h"

namespace wormcast::sw {

namespace {

using detail::Vec;
using detail::vec2;

/// A level-i block in units of delta, relative to its source S.
struct DcfBlock {
  Vec step1[4];  ///< S's step-1 targets A, B, C, D in send order
  /// Step-2 targets of each unit source in send order: [0] = S, [1..4] = A, B, C, D.
  int count2[5];
  Vec step2[5][4];
};

DcfBlock make_block(DcfVariant v) {
  DcfBlock b{};
  const Vec A = vec2(2, 1), D = vec2(0, -1);
  // sol2: B = (0,2) straight up, C = (-1,-1); sol1 swaps which of them is straight up.
  const Vec B = v == DcfVariant::Sol2 ? vec2(0, 2) : vec2(-1, -1);
  const Vec C = v == DcfVariant::Sol2 ? vec2(-1, -1) : vec2(0, 2);
  b.step1[0] = A;
  b.step1[1] = B;
  b.step1[2] = C;
  b.step1[3] = D;
  // S: the unit right of it, on the same first channel as S->A (Theorem 1 condition 3).
  b.count2[0] = 1;
  b.step2[0][0] = vec2(1, 0);
  // A: y-, x-, x+, y+ (our reconstruction's order; any order gives the seed's timing).
  b.count2[1] = 4;
  b.step2[1][0] = vec2(2, 0);
  b.step2[1][1] = vec2(1, 1);
  b.step2[1][2] = vec2(3, 1);
  b.step2[1][3] = vec2(2, 2);
  // The node reached second sends 3, the third 2 (five t_s per phase for everyone).
  if (v == DcfVariant::Sol2) {
    b.count2[2] = 3;  // B = (0,2)
    b.step2[2][0] = vec2(0, 1);
    b.step2[2][1] = vec2(-1, 2);
    b.step2[2][2] = vec2(1, 2);
    b.count2[3] = 2;  // C = (-1,-1)
    b.step2[3][0] = vec2(-2, -1);
    b.step2[3][1] = vec2(-1, 0);
  } else {
    b.count2[2] = 3;  // B = (-1,-1)
    b.step2[2][0] = vec2(-2, -1);
    b.step2[2][1] = vec2(-1, 0);
    b.step2[2][2] = vec2(-1, -2);
    b.count2[3] = 2;  // C = (0,2)
    b.step2[3][0] = vec2(0, 1);
    b.step2[3][1] = vec2(1, 2);
  }
  b.count2[4] = 1;  // D = (0,-1)
  b.step2[4][0] = vec2(1, -1);
  return b;
}

}  // namespace

Schedule dcf_broadcast(const Topology& t, int source, DcfVariant variant) {
  const std::string allowed =
      "a 2-D n x n torus with n = 4^k (2k steps) or 2*4^k (2k+1 steps), k >= 1 "
      "(4, 8, 16, 32, 64, ...)";
  detail::require_torus(t, source, "dcf", allowed);
  if (t.dims() != 2 || t.radix(0) != t.radix(1))
    throw UnsupportedNetwork("dcf: needs " + allowed + "; got " + describe(t));
  const int n = t.radix(0);
  int d = 0;
  while ((1 << d) < n) ++d;
  if ((1 << d) != n || d < 2)
    throw UnsupportedNetwork("dcf: needs " + allowed + "; got " + describe(t));
  const int k = d / 2;          // number of DCF phases
  const bool prime = d % 2;     // (2*4^k): DCF' with a final Z_block step
  const int base = prime ? 2 : 1;  // delta of the last phase

  const DcfBlock blk = make_block(variant);
  detail::ScheduleBuilder b(t, "dcf");
  std::vector<Vec> sources{Vec{}};
  int step = 0;
  for (int p = 1; p <= k; ++p) {
    int delta = base;
    for (int i = 0; i < k - p; ++i) delta *= 4;
    ++step;  // step 2p-1: every block source sends to A, B, C, D
    for (const Vec& q : sources)
      for (const Vec& u : blk.step1) b.add(q, q + delta * u, step);
    ++step;  // step 2p: S, A, B, C and D send to their neighbouring units
    std::vector<Vec> next;
    for (const Vec& q : sources) {
      for (int s = 0; s < 5; ++s) {
        const Vec from = s == 0 ? q : q + delta * blk.step1[s - 1];
        next.push_back(from);
        for (int j = 0; j < blk.count2[s]; ++j) {
          const Vec to = q + delta * blk.step2[s][j];
          b.add(from, to, step);
          next.push_back(to);
        }
      }
    }
    sources.swap(next);
  }
  if (prime) {
    // Z_block step: every node sends to its right, upper and upper-left neighbours, in that order.
    ++step;
    for (const Vec& q : sources) {
      b.add(q, q + vec2(1, 0), step);
      b.add(q, q + vec2(0, 1), step);
      b.add(q, q + vec2(-1, 1), step);
    }
  }
  return b.finish(source, step);
}

}  // namespace wormcast::sw
