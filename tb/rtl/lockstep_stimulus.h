// Lockstep stimulus: constrained-random flits and credits with back-pressure, in load phases,
// for the input wires that the SystemC and the Verilated router share.
#pragma once

#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "sw/topology/topology.h"
#include "systemc/torus/flit.h"
#include "systemc/torus/params.h"

namespace wormcast {

/// What the stimulus exercised (a run that moved nothing proves nothing).
struct StimulusCounts {
  uint64_t flits_in = 0, flits_out = 0, credits_out = 0, packets_in = 0, single_flit = 0;
  uint64_t stalled_port_cycles = 0;  ///< output-port cycles with credits withheld
  std::vector<uint64_t> flits_out_port;  ///< flits out per output port
};

/// The offered load: phases of 100-1600 cycles at random injection and credit-return rates, or
/// one load for the whole run (low: 5 % of the cycles carry a flit on each input port, packets
/// back to back, uniform destinations, the downstream always ready; saturating: every input port sends whenever it has a credit, credit
/// return as in the phases).
enum class StimulusLoad { Phases, Low, Saturating };

/// Plays the upstream of every input port and the downstream of every output port of one
/// router. It models the routers by their SystemC outputs: the checker guarantees the RTL's are
/// the same for as long as the stimulus matters.
class LockstepStimulus {
 public:
  LockstepStimulus(const sw::Topology& topo, const RouterParams& params, int node, uint64_t seed,
                   int max_packet, StimulusLoad load = StimulusLoad::Phases);

  /// Books what the router emitted on port p in the cycle just ended; call for every port
  /// before next_inputs().
  void observe(int p, const Flit& flit_out, const Credit& credit_out);

  /// The inputs to drive after cycle c (sampled at edge c+1), one flit and one credit per port.
  /// flits / credits false: that wire stays idle and the generator draws nothing for it, so
  /// that the random sequence of the other wire is unchanged.
  void next_inputs(uint64_t c, bool flits, bool credits, std::vector<Flit>& flit_in,
                   std::vector<Credit>& credit_in);

  const StimulusCounts& counts() const { return m_counts; }

 private:
  bool chance(double p) { return std::uniform_real_distribution<double>(0, 1)(m_rng) < p; }
  int pick(int n) { return int(m_rng() % uint64_t(n)); }

  void new_phase(uint64_t c);
  Flit next_flit(int p);
  Credit next_credit(int o);

  sw::Topology m_topo;
  RouterParams m_p;
  int m_np, m_nv;
  int m_max_packet;
  int m_node;  ///< the router's node
  /// Networks above this many nodes have the router's own node among the hot destinations.
  static constexpr int kOwnHotNodes = 64;
  StimulusLoad m_load;
  std::mt19937_64 m_rng;
  StimulusCounts m_counts;

  std::vector<bool> m_connected;
  std::vector<int> m_up_credit, m_up_left, m_owed;
  std::vector<Flit> m_up_pkt;
  std::vector<int> m_up_index;
  std::vector<char> m_stalled;  // not vector<bool>: next_credit keeps a reference
  // Credits returned in the cycle just ended: usable by the upstream only from the next one.
  std::vector<std::pair<int, int>> m_returned;
  uint64_t m_packet = 0;
  double m_inject = 0, m_credit_rate = 0, m_stall_on = 0, m_hot_share = 0;
  std::vector<int> m_hot;
  uint64_t m_phase_end = 0;
};

}  // namespace wormcast
