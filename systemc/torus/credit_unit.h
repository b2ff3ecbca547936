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
  CreditUnit(int vcs, int depth, int delay) : m_count(size_t(vcs), depth), m_depth(depth), m_delay(delay) {}

  int credits(int vc) const { return m_count[size_t(vc)]; }
  /// The counter itself, for waveform tracing.
  const int& counter(int vc) const { return m_count[size_t(vc)]; }
  /// A flit was sent on vc: one buffer slot downstream taken.
  void take(int vc) { --m_count[size_t(vc)]; }
  /// A credit for vc arrived; edge `at` is the first at which it could count (the router's: the
  /// edge that sampled it; the NIC port's: the next one, as it injects before it samples).
  /// Returns false when the counter would exceed the buffer depth (a protocol error).
  bool arrive(int vc, uint64_t at) {
    if (m_delay == 0) return ++m_count[size_t(vc)] <= m_depth;
    m_pending.push_back(Pending{at + uint64_t(m_delay), vc});
    return true;
  }
  /// Edge t: the delayed credits usable from t are counted. Returns false on a protocol error.
  bool mature(uint64_t t) {
    if (m_pending.empty()) return true;
    bool ok = true;
    size_t keep = 0;
    for (const Pending& p : m_pending) {
      if (p.ready <= t)
        ok &= ++m_count[size_t(p.vc)] <= m_depth;
      else
        m_pending[keep++] = p;
    }
    m_pending.resize(keep);
    return ok;
  }
  /// No credit in the delay pipeline.
  bool settled() const { return m_pending.empty(); }

 private:
  struct Pending {
    uint64_t ready;
    int vc;
  };
  std::vector<int> m_count;
  std::vector<Pending> m_pending;
  int m_depth, m_delay;
};

}  // namespace wormcast
