// Gossip (all-to-all, data combination) schedule generators of Juurlink, Sibeyn, Rao: Approach 1
// and 2, CIRCGOS, HIGH-DIM-GOS(') with Approach i-j, TORGOS('), CUBGOS(') — as Schedule IR —
// all-port, and one-port as in their Sec. 7.2 (with the black/white Approach 1-1).
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "sw/schedule/schedule.h"

namespace wormcast::sw {

/// A gossip generator was given parameters outside its range. One line, naming the option and
/// the allowed range (the CLI turns it into exit code 2).
class GossipParamError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// One-dimensional gossip along the lines of one axis (a ring each).
enum class LineAlgo {
  Approach1,  ///< every PU sends left and right for floor(n/2) steps (Lemma 4)
  Approach2,  ///< concentrate in the middle PU, disseminate by reversing (Lemma 4)
  Circgos,    ///< CIRCGOS(n, a1, a2, k) (Lemma 5; a1 = a2 = a, k = 2b - a + 2 in the paper's form)
};

/// CIRCGOS parameters in the three-parameter form of the paper's Sec. 7.2: a1 bridgeheads,
/// a2 the factor by which their number grows per round, k packets per round of Phase 3.
struct CircParams {
  int a1 = 3;
  int a2 = 3;
  int k = 1;
  /// The two-parameter form (a, b) of Lemma 5: a1 = a2 = a, k = 2b - a + 2.
  static CircParams from_ab(int a, int b) { return CircParams{a, a, 2 * b - a + 2}; }
};

struct LineSpec {
  LineAlgo algo = LineAlgo::Approach1;
  CircParams circ;
};

enum class GossipAlgo {
  Approach1,   ///< rings
  Approach2,   ///< rings
  Circgos,     ///< rings
  HighDimGos,  ///< d phases of 1-D gossip, phase f along axis f (coloured: d colours, Sec. 4.3)
  Torgos,      ///< 2-D tori, diagonal (j - i) mod g = 0 (Lemma 7)
  Cubgos,      ///< d-D tori, generalized diagonal sum(x) mod g = 0 (eq. 4, Lemma 9)
  /// n x n tori, n even (Sec. 7.3, Fig. 6): gossip in every 2 x 2 submesh, then PUs with x0 + x1
  /// even (black) run Approach 1-1 rows first, odd ones (white) columns first, each among the
  /// PUs of its own place in the other submeshes (hops of 2). A one-port schedule by design.
  Approach11BlackWhite,
};

struct GossipSpec {
  GossipAlgo algo = GossipAlgo::Approach1;
  /// HIGH-DIM-GOS', TORGOS', CUBGOS': the data of every PU is split into d colours and colour c
  /// runs phase f along axis (f + c) mod d, so all axes work at once (transfer time / d).
  bool coloured = true;
  std::vector<LineSpec> phases;  ///< HighDimGos: one per dimension, phase f along axis f
  CircParams circ;               ///< Circgos, Torgos, Cubgos
  /// OnePort builds Sec. 7.2's variants: binary concentration, Approach 1 in one direction
  /// (n - 1 steps), the pipelined fill with its rightward stream only; never coloured on d > 1.
  PortModel ports = PortModel::AllPort;
};

/// Where a phase of the generated schedule lies (for phase-by-phase cost against the lemmas).
struct PhaseSpan {
  std::string name;  ///< e.g. "1", "2", "3", "4a.1", "4b.1"
  int first_step = 1;
  int last_step = 0;  ///< first_step - 1 when the phase has no step
};

struct GossipSchedule {
  Schedule schedule;
  std::vector<PhaseSpan> phases;
};

/// Checks `spec` against `t` and builds the schedule. Throws GossipParamError.
GossipSchedule generate_gossip(const Topology& t, const GossipSpec& spec);

/// Command-line names: approach1, approach2, circgos, high-dim-gos, torgos, cubgos, approach1-1-bw.
const char* gossip_algo_name(GossipAlgo a);
GossipAlgo parse_gossip_algo(const std::string& name);  ///< throws GossipParamError
/// TORGOS and CUBGOS need an n x n (n^d) network: throws GossipParamError naming the shape
/// otherwise (before any of their parameters are asked for); other algorithms pass.
void check_diagonal_net(const Topology& t, GossipAlgo algo);
std::vector<std::string> gossip_algo_names();

/// The CIRCGOS bridgeheads of a ring of n PUs with a1 of them: the centres (see
/// concentration_centre) of the segments [floor(i n / a1), floor((i+1) n / a1)).
std::vector<int> ring_bridgeheads(int n, int a1, PortModel ports = PortModel::AllPort);

/// Position, relative to the segment start, of the PU a segment of m PUs is concentrated into
/// by the ternary recursion (the middle of the middle third, recursively).
int concentration_centre(int m);

/// Eq. 4 scaled to spacing g: x lies on the generalized diagonal of its g x ... x g submesh when
/// (x_0 + ... + x_{d-1}) mod g == offset. With g = n this is the diagonal of the whole cube.
bool on_generalized_diagonal(const std::vector<int>& x, int g, int offset = 0);

/// Steps of the ternary concentration of m PUs: ceil(log3 m).
int concentration_steps(int m);

/// One-port (binary) counterparts: ceil(log2 m) steps; the centre lies near the middle.
int concentration_centre_one_port(int m);
int concentration_steps_one_port(int m);

}  // namespace wormcast::sw
