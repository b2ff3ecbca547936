// One-dimensional building blocks of the gossip algorithms, on a ring of n positions: ternary
// (all-port) or binary (one-port) concentration and its reverse, circulation among bridgeheads,
// the pipelined fill of Phase 3.
#pragma once

#include <vector>

namespace wormcast::sw::gossip_detail {

/// One unicast of a line operation. Its content is the union of the payloads (what the PUs held
/// when the operation began) of the positions lo, lo+1, ..., lo+len-1 (mod n), cut into `parts`
/// near-equal pieces by chunk id, of which piece `part` is sent.
struct LineMsg {
  int step = 1;  ///< 1-based, relative to the operation's first step
  int from = 0;
  int to = 0;
  int dir = 1;   ///< +1 rightwards, -1 leftwards (sets the tie bit at distance n/2)
  int lo = 0;
  int len = 1;
  int part = 0;
  int parts = 1;
};

/// Where a line operation puts its unicasts, one at a time in the order it makes them: the gossip
/// builder turns each into a unicast at once (Approach 1 on a ring of n PUs makes n(n - 1) of
/// them, 16.8 million on 4,096 PUs, which are never held as a list of their own).
class LineOut {
 public:
  virtual void push_back(const LineMsg& m) = 0;

 protected:
  ~LineOut() = default;
};

/// A LineOut that keeps the messages.
class LineList final : public LineOut {
 public:
  void push_back(const LineMsg& m) override { msgs.push_back(m); }
  std::vector<LineMsg> msgs;
};

struct Segment {
  int lo = 0;
  int len = 1;
};

/// Concentrates every segment into its centre, all in parallel, aligned so that every segment's
/// last merge is in the last step. Returns the number of steps (max ceil(log3 len)).
int concentrate(int n, const std::vector<Segment>& segments, LineOut& out);

/// Approach 2's dissemination: the concentration of [0, n) reversed, every message carrying the
/// complete line. Steps are numbered from 1 again.
int disseminate_all(int n, LineOut& out);

/// Approach 1 among the bridgeheads `bh` (sorted positions): in step s each sends to its right
/// (left) neighbour bridgehead the payload of the bridgehead s-1 places to its left (right).
/// `steps` steps; when 2*steps == period, the last step goes rightwards only, because its
/// leftward copy would deliver data the receiver gets from the right anyway (even rings).
int circulate(int n, const std::vector<int>& bh, int steps, int period, LineOut& out);

/// Phase 3 of CIRCGOS (Fig. 1): between every two consecutive old bridgeheads the new ones
/// (positions in `all` but not in `old`) receive the old bridgeheads' data as k packets, streamed
/// rightwards in order and leftwards in reverse order; each new bridgehead takes a packet from
/// whichever stream brings it first. Returns the number of steps (max over the gaps).
int fill(int n, const std::vector<int>& old, const std::vector<int>& all, int k, LineOut& out);

// Linear arrays (meshes): the same operations without the wrap-around link. Positions 0..n-1,
// every path inside [0, n).

/// Approach 1 within blocks of `period` consecutive bridgeheads (the last block may be shorter):
/// in step s each sends to its right (left) neighbour in the block the payload of the one s-1
/// places to its left (right), as long as that one is in the block. Every bridgehead ends with
/// its block's payloads, exactly once; (largest block - 1) steps (Approach 1 on a line of m PUs:
/// m - 1 steps, the end PU receives m - 1 packets over one link).
int circulate_blocks(const std::vector<int>& bh, int period, LineOut& out);

/// Phase 3 / 4a on a line: the gaps between consecutive old bridgeheads (sorted) as in `fill`;
/// the new bridgeheads left of the first and right of the last old one (the end pieces) get one
/// stream from it of k_end = max(1, S - q + 1) packets (S = the gaps' steps, q = new ones in the
/// piece), so that an end piece takes max(q, S) steps. Returns the steps.
int fill_line(int n, const std::vector<int>& old, const std::vector<int>& all, int k, LineOut& out);

// One-port variants (Sec. 7.2 of Juurlink, Sibeyn, Rao): per step a PU sends at most one message
// and receives at most one. Each keeps the all-port function's contract otherwise.
// INTERPRETATION (docs/schedules.md): Sec. 7.2 spells out only Approach 1 (n - 1 steps) and the
// binary concentration; the one-direction circulation among bridgeheads and the rightward-only
// fill are our reading of its "rather straightforward" modifications.

/// Binary concentration: a segment of m PUs is split into halves (the right one ceil(m/2), which
/// keeps the data), each concentrated recursively, then the left centre sends to the right one.
/// ceil(log2 len) steps; every PU sends or receives, never both, in a step.
int concentrate_one_port(int n, const std::vector<Segment>& segments, LineOut& out);

/// The binary concentration of [0, n) reversed, every message carrying the complete line.
int disseminate_all_one_port(int n, LineOut& out);

/// Approach 1 in one direction (Sec. 7.2: n - 1 steps): in step s each bridgehead sends to its
/// right neighbour bridgehead the payload of the bridgehead s-1 places to its left. `period - 1`
/// steps, so that every bridgehead ends with the payloads of `period` consecutive bridgeheads.
int circulate_one_port(int n, const std::vector<int>& bh, int period, LineOut& out);

/// Phase 3 / 4a with the rightward stream only: the left old bridgehead sends its k packets in
/// order and every new bridgehead forwards each packet one step after receiving it, so a gap with
/// q new bridgeheads takes q + k - 1 steps (the all-port fill's leftward stream would make a new
/// bridgehead receive twice in a step).
int fill_one_port(int n, const std::vector<int>& old, const std::vector<int>& all, int k, LineOut& out);

}  // namespace wormcast::sw::gossip_detail
