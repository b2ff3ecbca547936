// The traffic generator: Bernoulli or on-off packet and message injection at every node, with
// the destination patterns, region broadcasts and trace replay.
#pragma once

#include <cstdint>
#include <queue>
#include <random>
#include <vector>

#include <systemc>

#include "systemc/common/clock.h"
#include "systemc/common/config.h"
#include "systemc/net/network.h"
#include "tb/run/patterns.h"
#include "tb/run/traffic_stats.h"

namespace wormcast {

/// traffic.pattern = randperm: each node's destination, the permutation drawn from sim.seed.
std::vector<int> random_permutation(const Config& cfg, int n);
/// The family's rules on its traffic (Family::self_unicast, min_packet_flits), checked before a
/// run and by `wormcast config --check`: a message its NIC would refuse is a configuration error
/// (ConfigError), not a failure in the middle of a run.
void check_family_traffic(const Config& cfg);
/// What a synthetic traffic run (`run`, `traffic`, `mway`) refuses of the keys that apply to node
/// programs only: node.cpu other than native, nic.tr other than 0 (ConfigError naming the key).
void check_synthetic_keys(const Config& cfg);
/// A source's mean message length in flits (traffic.message_len or packet_len, or the mean of
/// traffic.sizes).
double mean_message_flits(const TrafficConfig& t);
/// A source's probability of a message per cycle: traffic.rate / mean_message_flits, and under
/// traffic.process = onoff while it is on (the same mean load concentrated in the on periods).
double message_probability(const TrafficConfig& t);
/// How many times the variance of a source's message count over a long window exceeds its mean
/// (the index of dispersion; 1: independent arrivals, Bernoulli). Under onoff, with p the message
/// probability while on (at most 1), pi = alpha / (alpha + beta) the share of on cycles and
/// 1 - alpha - beta the state's lag-1 correlation: (1 - pi p) + 2 p (1 - pi) (1 - alpha - beta) /
/// (alpha + beta); at least 1.
double message_dispersion(const TrafficConfig& t);
void check_family_traffic(const Config& cfg, const sw::Topology& topo, const std::vector<int>& perm,
                          const std::vector<TraceEntry>& trace);

class TrafficGen : public sc_core::sc_module, private ClockRider {
 public:
  sc_core::sc_in<bool> clk{"clk"};
  TrafficGen(sc_core::sc_module_name name, const Config& cfg, Network& net, TrafficStats& stats);
  /// Stop generating from this cycle on (the drain phase).
  void stop_at(uint64_t cycle) { m_stop = cycle; }

 private:
  void tick();
  /// Bound to a CycleClock: rides it (its one process, sensitive to the rising edge, does nothing
  /// that a call at the rising edge would not).
  void end_of_elaboration() override {
    if (CycleClock* cc = CycleClock::of(clk.get_interface())) cc->ride(this);
  }
  bool fusable() const override { return true; }
  int edge_requests() const override { return 1; }
  void rising(uint64_t) override { tick(); }
  /// Its cycle is its own count, its work all in the rising edge.
  bool stretchable() const override { return true; }
  // Bands (systemc/kernel/cycle_clock.h): a node's arrivals of cycle t at its rising edge; the
  // samples of the owed work per cycle at the band's end. (Not with a trace: its messages are in
  // one list.)
  bool bandable() const override { return m_cfg.sim.schedule != Schedule::Cycles && m_trace.empty(); }
  void band_begin(uint64_t c0, uint64_t c1) override { m_stats.band_begin(c0, c1); }
  void rising_nodes(const int* nodes, size_t count, uint64_t t) override {
    if (t >= m_stop) return;
    for (size_t i = 0; i < count; ++i)
      if (generates(nodes[i], t)) create(nodes[i], t);
  }
  void band_end(uint64_t c0, uint64_t c1) override {
    m_stats.band_end(c0, c1);
    m_cycle = c1;
  }
  /// Cycle by cycle again (sim.schedule = auto): the arrivals' heap, which bands do not keep, is
  /// made anew from each source's next arrival.
  void band_leave(uint64_t c) override;
  uint64_t next_gap(SourceRng& rng) const;
  /// Refuses (ConfigError) traffic the network's family does not take: a unicast to its own node,
  /// a packet below its least length (Family::self_unicast, min_packet_flits).
  void check_family_rules() const;
  /// Whether node s generates in cycle t (the injection process).
  bool generates(int s, uint64_t t);
  uint32_t draw_length(SourceRng& rng) const;
  /// Packets of a message of len flits (nic.max_packet).
  uint32_t packets_of(uint32_t len) const {
    return (len + uint32_t(m_cfg.nic.max_packet) - 1) / uint32_t(m_cfg.nic.max_packet);
  }
  /// Node s generates a packet/message in cycle t.
  void create(int s, uint64_t t);
  void emit(int s, uint64_t t, const Destination& d, uint32_t len, bool tie);
  /// A region broadcast's destination from node s (never only s itself).
  Destination region(int s, SourceRng& rng) const;
  /// The tie bit of node s's next unicast message (traffic.tie).
  bool next_tie(int s, SourceRng& rng);

  Config m_cfg;
  Network& m_net;
  TrafficStats& m_stats;
  sw::Topology m_topo;
  uint64_t m_cycle = 0, m_stop = ~uint64_t(0);
  uint32_t m_len;
  double m_p;  ///< per-cycle probability of a new packet/message at a node (while on, for onoff)
  double m_log_q = 0;  ///< log1p(-m_p), the geometric gap's denominator
  /// The sources' random streams (traffic.rng): a twister each, or a counter-based state each.
  std::vector<std::mt19937_64> m_twister;
  std::vector<uint64_t> m_counter;
  SourceRng rng_of(int s) {
    return m_twister.empty() ? SourceRng(&m_counter[size_t(s)]) : SourceRng(&m_twister[size_t(s)]);
  }
  std::vector<uint64_t> m_next;
  /// Bernoulli process, so that a cycle visits only the nodes that generate in it, in node order:
  /// the nodes whose next arrival is less than the wheel's length ahead of the cycle it was drawn
  /// in, in the wheel slot of its cycle (slot = cycle mod length, so a slot holds one cycle's
  /// arrivals), and the later ones as (arrival, node) in a heap, earliest first. A slot costs a
  /// push per arrival, where the heap's order costs a logarithm of the network's size.
  std::vector<std::vector<int>> m_wheel;
  uint64_t m_wheel_mask = 0;
  std::priority_queue<std::pair<uint64_t, int>, std::vector<std::pair<uint64_t, int>>, std::greater<>> m_later;
  /// Whether an arrival in cycle a, known in cycle `now`, goes into the wheel (else the heap).
  bool wheeled(uint64_t a, uint64_t now) const { return a >= now && a - now <= m_wheel_mask; }
  /// Node s's next arrival m_next[s], known in cycle `now`, into the wheel or the heap.
  void schedule(int s, uint64_t now) {
    const uint64_t a = m_next[size_t(s)];
    if (wheeled(a, now))
      m_wheel[size_t(a & m_wheel_mask)].push_back(s);
    else
      m_later.emplace(a, s);
  }
  /// The wheel and the heap anew from every node's next arrival, in cycle `now`.
  void schedule_all(uint64_t now);
  std::vector<uint8_t> m_on;            ///< onoff: node in its on state
  std::discrete_distribution<int> m_size;  ///< index into cfg.traffic.sizes
  std::vector<int> m_perm;              ///< randperm: destination of each node
  std::vector<TraceEntry> m_trace;
  size_t m_trace_next = 0;
  std::vector<uint8_t> m_tie_next;  ///< [node] tie bit of its next message under balanced
};

}  // namespace wormcast
