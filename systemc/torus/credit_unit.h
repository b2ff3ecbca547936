// The credit counters of a set of output VCs with their credit-return delay pipeline
// (docs/router.md sections 5.3 and 6): one unit for the router's outputs and the NIC port's
// injection channels.
#pragma once

#include <cstdint>
#include <vector>

namespace wormcast {

class CreditUnit {
 public:
  /// vcs counters, each starting at `depth` (the downstream buffer is empty); a returned credit
  /// becomes usable `delay` edges after it arrives (router.credit_delay).
  CreditUnit(int vcs, int depth, int delay)
      : m_count(size_t(vcs), depth), m_depth(depth), m_delay(delay), m_one_edge(delay == 1 && vcs <= 64) {}

  /// The credits of vc usable now (at the edge of the last mature()).
  int credits(int vc) const { return m_count[size_t(vc)] - int((m_fresh >> (vc & 63)) & 1); }
  /// The counter itself, for waveform tracing (exact_counters() first: then it holds only usable
  /// credits).
  const int& counter(int vc) const { return m_count[size_t(vc)]; }
  /// From now on every counter holds only the usable credits (a credit of a one-edge delay is
  /// counted when it becomes usable, not when it arrives), as a waveform of the counters shows them.
  void exact_counters() {
    if (!m_one_edge) return;
    m_one_edge = false;
    for (uint64_t m = m_fresh; m; m &= m - 1) {  // the credits arrived, not yet usable: queued
      const int vc = __builtin_ctzll(m);
      --m_count[size_t(vc)];
      if (m_pending == m_ring.size()) grow();
      at_slot(m_pending++) = Pending{m_fresh_from, vc};
    }
    m_fresh = 0;
  }
  /// A flit was sent on vc: one buffer slot downstream taken.
  void take(int vc) { --m_count[size_t(vc)]; }
  /// A credit for vc arrived; edge `at` is the first at which it could count (the router's: the
  /// edge that sampled it; the NIC port's: the next one, as it injects before it samples).
  /// Returns false when the counter would exceed the buffer depth (a protocol error).
  bool arrive(int vc, uint64_t at) {
    if (m_delay == 0) return ++m_count[size_t(vc)] <= m_depth;
    const uint64_t ready = at + uint64_t(m_delay);
    if (m_one_edge) {
      // A one-edge delay (<= 64 VCs): the counter counts the credit now, and m_fresh marks it as not
      // usable before `ready`. The credits of an earlier edge are usable by then (a link brings at
      // most one credit per VC and edge, and arrivals come in edge order): their marks go.
      if (ready != m_fresh_from) {
        m_fresh = 0;
        m_fresh_from = ready;
      }
      m_fresh |= uint64_t(1) << vc;
      return ++m_count[size_t(vc)] <= m_depth;
    }
    // A link brings at most one credit per VC and edge: the credits that count from one edge are a
    // bit set, in a wheel of the next kWheel edges after the last matured one.
    if (vc < 64 && ready > m_matured && ready - m_matured < kWheel) {
      uint64_t& slot = m_wheel[ready & (kWheel - 1)];
      const uint64_t bit = uint64_t(1) << vc;
      if (!(slot & bit)) {
        slot |= bit;
        ++m_in_wheel;
        return true;
      }
    }
    // Else in a queue in order of the edge each credit counts from: the callers' edges only grow,
    // so a new credit goes at the back (else it is moved forward to its place).
    if (m_pending == m_ring.size()) grow();
    size_t i = m_pending++;
    for (; i > 0 && at_slot(i - 1).ready > ready; --i) at_slot(i) = at_slot(i - 1);
    at_slot(i) = Pending{ready, vc};
    return true;
  }
  /// Edge t: the delayed credits usable from t are counted. Returns false on a protocol error.
  bool mature(uint64_t t) {
    if (m_one_edge) {  // nothing in the wheel or the queue
      if (t >= m_fresh_from) m_fresh = 0;
      return true;
    }
    if (m_delay == 0) return true;  // every credit counted as it arrived
    bool ok = true;
    if (m_in_wheel > 0) {
      // The wheel holds edges m_matured + 1 .. m_matured + kWheel - 1.
      const uint64_t last = t < m_matured + kWheel ? t : m_matured + kWheel - 1;
      for (uint64_t r = m_matured + 1; r <= last; ++r) {
        uint64_t& slot = m_wheel[r & (kWheel - 1)];
        for (uint64_t m = slot; m; m &= m - 1) {
          ok &= ++m_count[size_t(__builtin_ctzll(m))] <= m_depth;
          --m_in_wheel;
        }
        slot = 0;
      }
    }
    if (t > m_matured) m_matured = t;
    while (m_pending > 0) {
      const Pending& p = m_ring[m_head];
      if (p.ready > t) break;
      ok &= ++m_count[size_t(p.vc)] <= m_depth;
      m_head = (m_head + 1) & (m_ring.size() - 1);
      --m_pending;
    }
    return ok;
  }
  /// No credit in the delay pipeline.
  bool settled() const { return m_one_edge ? m_fresh == 0 : m_pending == 0 && m_in_wheel == 0; }

 private:
  struct Pending {
    uint64_t ready;
    int vc;
  };
  /// The i-th credit of the queue from its front.
  Pending& at_slot(size_t i) { return m_ring[(m_head + i) & (m_ring.size() - 1)]; }
  void grow() {
    std::vector<Pending> ring(m_ring.empty() ? 8 : 2 * m_ring.size());
    for (size_t i = 0; i < m_pending; ++i) ring[i] = at_slot(i);
    m_ring = std::move(ring);
    m_head = 0;
  }
  static constexpr uint64_t kWheel = 8;
  std::vector<int> m_count;
  uint64_t m_fresh = 0;       ///< one-edge delay: VCs with a credit counted, usable from m_fresh_from
  uint64_t m_fresh_from = 0;
  uint64_t m_wheel[kWheel] = {};  ///< [edge % kWheel]: VCs whose credit counts from that edge
  uint64_t m_matured = 0;         ///< the last edge mature() ran (the wheel holds the next ones)
  uint32_t m_in_wheel = 0;        ///< credits in the wheel
  std::vector<Pending> m_ring;  ///< the delay pipeline: a ring of a power-of-two size
  size_t m_head = 0, m_pending = 0;
  int m_depth, m_delay;
  bool m_one_edge;  ///< a one-edge delay kept in m_fresh (else the wheel and the queue)
};

}  // namespace wormcast
