// The run's clock: signal mode (a toggled signal) or fused mode (one process per cycle calling the
// riders' edges); see cycle_clock.h.
#include "systemc/common/cycle_clock.h"

#include <string>

#include "systemc/common/clock.h"

namespace wormcast {

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

void CycleClock::tick() {
  if (!m_started) {
    m_fused = decide();
    m_started = true;
    g_fused_clock = m_fused;
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
