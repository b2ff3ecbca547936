// The run's clock: signal mode (a toggled signal) or fused mode (one process per cycle calling the
// riders' edges); see cycle_clock.h.
#include "systemc/common/cycle_clock.h"

#include <algorithm>
#include <cstdlib>
#include <string>

#include "systemc/common/clock.h"

namespace wormcast {

namespace {
uint64_t g_horizon = 0;  // set_clock_horizon
/// Nodes a tile's band of slices holds at least (bands mode): a few thousand routers' hot state
/// is a few MB, which the last-level cache keeps while the band runs its cycles.
constexpr int64_t kBandNodes = 4096;
}  // namespace

void set_clock_horizon(uint64_t cycle) { g_horizon = cycle; }

void CycleSignal::requested() const {
  if (m_clock.m_started && m_clock.m_fused)
    SC_REPORT_FATAL("wormcast/clock", (std::string(name()) +
                                       ": a process asked for the edges of a fused clock after it started (make it a "
                                       "clock rider or keep the clock in signal mode)")
                                          .c_str());
  ++m_requests;
}

const sc_core::sc_event& CycleSignal::posedge_event() const {
  requested();
  return sc_core::sc_signal<bool>::posedge_event();
}

const sc_core::sc_event& CycleSignal::negedge_event() const {
  requested();
  return sc_core::sc_signal<bool>::negedge_event();
}

const sc_core::sc_event& CycleSignal::value_changed_event() const {
  requested();
  return sc_core::sc_signal<bool>::value_changed_event();
}

CycleClock::CycleClock(sc_core::sc_module_name name, const sc_core::sc_time& period)
    : sc_module(name), m_signal("signal", *this), m_period(period), m_half(period / 2.0) {
  if (m_half * 2.0 != m_period || m_half == sc_core::SC_ZERO_TIME)
    SC_REPORT_ERROR("wormcast/clock", (std::string(this->name()) +
                                       ": the period must be an even, nonzero number of time resolution units")
                                          .c_str());
  SC_HAS_PROCESS(CycleClock);
  SC_METHOD(tick);  // runs at initialization (time 0): the first rising edge
}

CycleClock* CycleClock::of(sc_core::sc_interface* itf) {
  auto* s = dynamic_cast<CycleSignal*>(itf);
  return s ? &s->clock() : nullptr;
}

// Fused when there is a rider, every rider allows it, and the signal's events were asked for only
// by the riders' own processes (each rider counts its requests).
bool CycleClock::decide() const {
  if (m_riders.empty()) return false;
  int requests = 0;
  for (const ClockRider* r : m_riders) {
    if (!r->fusable()) return false;
    requests += r->edge_requests();
  }
  return requests == m_signal.requests();
}

// Bands when fused and every rider can run node by node, one of them giving the slices.
bool CycleClock::decide_bands() {
  if (!m_fused) return false;
  int plans = 0;
  for (const ClockRider* r : m_riders) {
    if (!r->bandable()) return false;
    std::vector<std::vector<int>> slices;
    int reach = 0;
    if (r->band_plan(slices, reach)) {
      ++plans;
      m_slices = std::move(slices);
      m_reach = std::max(reach, 0);
    }
  }
  return plans == 1 && !m_slices.empty();
}

// Tiles of the (slice, cycle) plane, skewed by the reach: the node of slice i at cycle c belongs
// to tile floor((i + reach * (c - c0)) / W). A node's cycle c needs the nodes within the reach at
// cycle c - 1, whose skewed positions are at most its own: in an earlier tile, or in the same
// tile at the previous cycle, which the tile ran first. So the tiles run in order, each cycle by
// cycle, its slices of a cycle in order; a slice stays in a tile for W / reach cycles in a row.
void CycleClock::run_bands(uint64_t c0, uint64_t c1) {
  for (ClockRider* r : m_riders) r->band_begin(c0, c1);
  const int64_t P = int64_t(m_slices.size()), D = m_reach, T = int64_t(c1 - c0);
  int64_t W = m_band_width;
  if (const char* e = getenv("WC_BAND")) W = atoi(e);
  if (W <= 0) {
    const int64_t per = std::max<int64_t>(1, int64_t(m_slices.front().size()));
    W = (kBandNodes + per - 1) / per;
  }
  W = std::max<int64_t>(W, std::max<int64_t>(1, 2 * D));
  const int64_t U = P + D * (T - 1);
  for (int64_t u0 = 0; u0 < U; u0 += W) {
    for (int64_t k = 0; k < T; ++k) {
      const int64_t s = D * k;
      const int64_t hi = std::min(P, u0 + W - s);
      if (hi <= 0) break;
      const int64_t lo = std::max<int64_t>(0, u0 - s);
      const uint64_t t = c0 + uint64_t(k);
      for (int64_t i = lo; i < hi; ++i) {
        const std::vector<int>& nodes = m_slices[size_t(i)];
        g_edge_stamp = 2 * t;
        for (ClockRider* r : m_riders) r->rising_nodes(nodes, t);
        g_edge_stamp = 2 * t + 1;
        for (ClockRider* r : m_riders) r->falling_nodes(nodes, t);
      }
    }
  }
  g_edge_stamp = 2 * c1 - 1;
  for (ClockRider* r : m_riders) r->band_end(c0, c1);
}

void CycleClock::tick() {
  if (!m_started) {
    m_fused = decide();
    m_started = true;
    g_fused_clock = m_fused;
    m_banded = decide_bands();
  }
  if (m_banded) {
    const uint64_t t = current_cycle();
    const uint64_t c1 = g_horizon > t ? g_horizon : t + 1;
    run_bands(t, c1);
    sc_core::next_trigger(m_period * double(c1 - t));
    return;
  }
  if (m_fused) {
    const uint64_t t = current_cycle();
    g_edge_stamp = 2 * t;
    for (ClockRider* r : m_riders) r->rising(t);
    g_edge_stamp = 2 * t + 1;
    for (ClockRider* r : m_riders) r->falling(t);
    sc_core::next_trigger(m_period);
    return;
  }
  // Signal mode: high at c * period, low at c * period + period / 2 (as sc_clock's edges, written
  // by one process and seen after the update phase).
  m_signal.write(!m_signal.read());
  sc_core::next_trigger(m_half);
}

}  // namespace wormcast
