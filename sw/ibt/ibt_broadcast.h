// Pipelined k-packet broadcasts on iBT and torus networks (line, two-colour rectangular, d-colour
// global, torus spanning trees) and the step-level simulator that times them.
#pragma once

#include <stdint.h>

#include <string>
#include <vector>

#include "sw/schedule/schedule.h"
#include "sw/topology/ibt.h"

namespace wormcast::sw {

enum class IbtAlgo {
  /// Sec. 4.1: the line through the source in one dimension (torus and bypass links of that
  /// dimension); on a torus this is the two-stream ring broadcast of eq. (4).
  Line,
  /// Sec. 5.1: two colours in the plane of dimensions (i1, i2).
  Rectangular,
  /// Sec. 6.1: d colours, colour i starting in dimension i, turning by chi / Omega / k_m.
  Global,
  /// Torus only: four link-disjoint spanning trees in the plane (i1, i2), each carrying a quarter
  /// of the packets: the algorithm behind eqs. (5) (d = 2) and (6).
  TorusTrees,
};

/// Packets of one colour: contiguous ids [first, first + count), first sent along `dim`.
struct IbtColour {
  int dim = 0;
  int first = 0;
  int count = 0;
  /// Source's link packet-sending orders, Bin(pn) = rRLl (bit 3 = right torus link, 2 = right
  /// bypass, 1 = left bypass, 0 = left torus); a set bit sends pkt(k) first (reverse order).
  int pn = 0;
};

struct IbtBroadcast {
  IbtAlgo algo = IbtAlgo::Line;
  int64_t source = 0;
  int packets = 0;          ///< k (1..64)
  std::vector<int> dims;    ///< the broadcast group's dimensions, in colour order
  std::vector<IbtColour> colours;
};

/// Line broadcast of k packets from `source` along `dim` with packet order code pn in 0..15.
IbtBroadcast ibt_line(int64_t source, int dim, int k, int pn);
/// Two-colour rectangular broadcast: k1 packets start along i1, k2 along i2.
IbtBroadcast ibt_rectangular(int64_t source, int i1, int i2, int k1, int k2, int pn1, int pn2);
/// d-colour global broadcast: counts[i] packets of colour i start along dimension i.
IbtBroadcast ibt_global(int64_t source, const std::vector<int>& counts, const std::vector<int>& pns);
/// Torus trees in the plane (i1, i2): packet p belongs to tree p mod 4.
IbtBroadcast torus_trees(int64_t source, int i1, int i2, int k);

/// One packet over one link in one step.
struct IbtSend {
  int step = 0;
  int64_t src = 0;
  int port = 0;
  int64_t dst = 0;
  int packet = 0;
};

struct IbtSimOptions {
  bool record = false;   ///< keep every send (small networks: for checks and the schedule IR)
  int max_steps = 100000;
};

struct IbtSimResult {
  bool complete = false;     ///< every node of the group holds every packet
  int steps = 0;             ///< T: the step in which the last node of the group completed
  int64_t group_size = 0;
  int64_t group_links = 0;   ///< directed links between group nodes (utilization denominator)
  int64_t sends = 0;
  std::vector<int64_t> sends_per_step;  ///< index 0 = step 1
  std::vector<IbtSend> trace;           ///< when IbtSimOptions::record
  double utilization(int step) const {
    return group_links ? static_cast<double>(sends_per_step[step - 1]) / static_cast<double>(group_links) : 0.0;
  }
};

/// Runs a broadcast one step at a time: in one step a directed link carries at most one packet,
/// and a packet received in step t can leave in step t+1. See the .cpp for the two choices the
/// paper leaves open (marked INTERPRETATION). Throws IbtConfigError on an invalid broadcast.
IbtSimResult simulate_broadcast(const IbtTopology& t, const IbtBroadcast& b, const IbtSimOptions& o = {});

/// Independent replay of a recorded trace: every send uses a real link from a node holding the
/// packet, each directed link carries at most one packet per step, and every group node other than
/// the source receives every packet exactly once. Returns the violations (empty = ok).
std::vector<std::string> check_trace(const IbtTopology& t, const IbtBroadcast& b, const IbtSimResult& r);

/// The trace as a schedule IR (chunk = packet id, step = broadcast step, order = port rank within
/// (src, step)). Every unicast is between neighbours. On an iBT the schedule's topology is the
/// torus under the bypass links: the IR's own path functions route dimension-ordered and know no
/// bypass links, so such a schedule is checked by check_trace, and runs on the ibt router family
/// with ibt.routing = bypass, where a unicast to a bypass neighbour is one bypass hop.
Schedule to_schedule(const IbtTopology& t, const IbtBroadcast& b, const IbtSimResult& r);

/// The sends of one packet as a single-chunk broadcast schedule whose step 1 is the source's send
/// of that packet, so that Definition 1 of the schedule verifier applies. Torus only.
Schedule packet_schedule(const IbtTopology& t, const IbtBroadcast& b, const IbtSimResult& r, int packet);

/// Best line broadcast over the given pn codes: {T, pn}.
struct LineBest {
  int steps = 0;
  int pn = 0;
};
LineBest best_line(const IbtTopology& t, int64_t source, int dim, int k, const std::vector<int>& pns);

/// Best rectangular broadcast: k1 over |k1 - k2| <= split_range, pn1 and pn2 over `pns`.
/// `staged`: first choose pn1 and pn2 by the line broadcasts with k1 = k2 = k/2, then the split
/// only (for networks too large for the full search).
struct RectBest {
  int steps = 0;
  int k1 = 0, k2 = 0, pn1 = 0, pn2 = 0;
};
RectBest best_rectangular(const IbtTopology& t, int64_t source, int i1, int i2, int k, int split_range,
                          const std::vector<int>& pns, bool staged = false);

/// Global broadcast: colour i carries counts[i] packets. split <= 1: the even split (the first
/// k mod d colours get one more packet); split > 1: the fastest of every split whose counts differ
/// by at most `split` (the even split wins a tie; the paper's rule 1 allows unequal counts and
/// names no search, INTERPRETATION). Each colour's pn is the best of `pns` for that colour's line
/// broadcast alone (INTERPRETATION).
IbtBroadcast global_plan(const IbtTopology& t, int64_t source, int k, const std::vector<int>& pns, int split = 1);

/// Closed forms of Zhang and Deng for the torus: eq. (4) line, eq. (5) all, eq. (6) rectangle.
int torus_line_steps(int n, int k);
int torus_all_steps(int n, int d, int k);
int torus_rect_steps(int n, int k);

}  // namespace wormcast::sw
