// The run's clock: signal mode (a toggled signal) or fused mode (one process per cycle calling the
// riders' edges); see cycle_clock.h.
#include "systemc/kernel/cycle_clock.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "systemc/common/clock.h"

namespace wormcast {

namespace {
uint64_t g_horizon = 0;  // set_clock_horizon
/// The end (exclusive) of the cycles from t that one activation may run: the driver's horizon, or
/// t + 1 when it is unknown.
uint64_t horizon_after(uint64_t t) { return g_horizon > t ? g_horizon : t + 1; }
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

// Bands when fused and every rider can run node by node, one of them giving the grid.
bool CycleClock::decide_bands() {
  if (!m_fused) return false;
  int plans = 0;
  for (const ClockRider* r : m_riders) {
    if (!r->bandable()) return false;
    BandPlan plan;
    if (r->band_plan(plan)) {
      ++plans;
      m_plan = std::move(plan);
    }
  }
  const BandPlan& p = m_plan;
  return plans == 1 && p.rows > 0 && p.cols > 0 && p.start.size() == size_t(p.rows) * size_t(p.cols) + 1 &&
         p.start.back() == p.nodes.size() && p.row_reach >= 0 && p.col_reach >= 0;
}

// Tiles of the (row, column, cycle) space, skewed by the reaches: the cell (a, b) at cycle c0 + k
// has the skewed position (a + Ra k, b + Rb k), and tile (i, j) holds the positions in
// [i Wa, (i + 1) Wa) x [j Wb, (j + 1) Wb). A cell's cycle c needs the cells within the reaches at
// cycle c - 1, whose skewed positions are at most its own in both coordinates: in a tile before
// it in row-major order of the tiles, or in the same tile at the previous cycle, which the tile
// ran first. So the tiles run in that order, each cycle by cycle. A block of Wa x Wb cells holds
// about plan.block_nodes nodes, and a cell stays in a tile for up to min(Wa / Ra, Wb / Rb) cycles in a
// row. A grid whose columns fit in one block is tiled by rows only.
void CycleClock::run_bands(uint64_t c0, uint64_t c1) {
  for (ClockRider* r : m_riders) r->band_begin(c0, c1);
  const BandPlan& p = m_plan;
  const int64_t A = p.rows, B = p.cols, T = int64_t(c1 - c0);
  const int64_t per_cell = std::max<int64_t>(1, int64_t(p.nodes.size()) / (A * B));
  const int64_t cells = std::max<int64_t>(1, int64_t(p.block_nodes) / per_cell);
  int64_t Wb = B, Rb = 0;
  if (B * B > cells) {  // a square block of cells
    Wb = std::max<int64_t>(std::max<int64_t>(1, 2 * p.col_reach), int64_t(std::sqrt(double(cells))));
    Rb = p.col_reach;
  }
  const int64_t Ra = p.row_reach;
  const int64_t Wa = std::max<int64_t>({1, 2 * Ra, cells / Wb});
  const int64_t Ua = A + Ra * (T - 1), Ub = B + Rb * (T - 1);
  // The first step at which a tile starting at skewed position u0 reaches back into [0, n).
  auto first_step = [T](int64_t u0, int64_t n, int64_t reach) -> int64_t {
    if (u0 < n) return 0;
    return reach == 0 ? T : (u0 - n) / reach + 1;
  };
  auto clamp = [](int64_t x, int64_t n) { return std::min(n, std::max<int64_t>(0, x)); };
  for (int64_t u0 = 0; u0 < Ua; u0 += Wa) {
    const int64_t ka = first_step(u0, A, Ra);
    for (int64_t v0 = 0; v0 < Ub; v0 += Wb) {
      // The nodes of the cells in the tile's window at step k that were not at step k - 1 (the
      // window moves towards lower rows and columns), appended to `out`: their state was last
      // used a tile or more ago, so the memory is asked for it kBandStages steps ahead, one
      // stage per step.
      auto entering = [&](int64_t k, std::vector<int>& out) {
        const int64_t alo = clamp(u0 - Ra * k, A), ahi = clamp(u0 + Wa - Ra * k, A);
        const int64_t blo = clamp(v0 - Rb * k, B), bhi = clamp(v0 + Wb - Rb * k, B);
        const int64_t amid = std::min(ahi, clamp(u0 - Ra * (k - 1), A));
        const int64_t bmid = std::min(bhi, clamp(v0 - Rb * (k - 1), B));
        auto rows = [&](int64_t a0, int64_t a1, int64_t b0, int64_t b1) {
          if (b0 >= b1) return;
          for (int64_t a = a0; a < a1; ++a)
            out.insert(out.end(), p.nodes.data() + p.start[size_t(a * B + b0)], p.nodes.data() + p.start[size_t(a * B + b1)]);
        };
        rows(alo, amid, blo, bhi);
        rows(amid, ahi, blo, bmid);
      };
      const int64_t k0 = std::max(ka, first_step(v0, B, Rb));
      for (int64_t k = k0; k < T; ++k) {
        const int64_t ahi = std::min(A, u0 + Wa - Ra * k), bhi = std::min(B, v0 + Wb - Rb * k);
        if (ahi <= 0 || bhi <= 0) break;
        const int64_t alo = std::max<int64_t>(0, u0 - Ra * k), blo = std::max<int64_t>(0, v0 - Rb * k);
        // A node entering the tile at step k + kBandStages - s gets stage s of its prefetch during
        // step k, spread over the step's rows so that the requests do not come in one burst. The
        // set of stage s at step k is that of stage s - 1 at step k - 1: each step computes only
        // its stage 0 (the tile's first step computes every stage).
        if (k == k0) {
          for (int stage = 0; stage < kBandStages; ++stage) {
            m_entering[size_t(stage)].clear();
            if (k + kBandStages - stage < T) entering(k + kBandStages - stage, m_entering[size_t(stage)]);
          }
        } else {
          for (int stage = kBandStages - 1; stage > 0; --stage) m_entering[size_t(stage)].swap(m_entering[size_t(stage - 1)]);
          m_entering[0].clear();
          if (k + kBandStages < T) entering(k + kBandStages, m_entering[0]);
        }
        const uint64_t t = c0 + uint64_t(k);
        const size_t nrows = size_t(ahi - alo);
        for (int64_t a = alo; a < ahi; ++a) {
          const size_t first = p.start[size_t(a * B + blo)], last = p.start[size_t(a * B + bhi)];
          const int* nodes = p.nodes.data() + first;
          const size_t row = size_t(a - alo);
          for (int stage = 0; stage < kBandStages; ++stage) {
            const std::vector<int>& e = m_entering[size_t(stage)];
            const size_t e0 = e.size() * row / nrows, e1 = e.size() * (row + 1) / nrows;
            if (e1 > e0)
              for (ClockRider* r : m_riders) r->prefetch_nodes(e.data() + e0, e1 - e0, stage);
          }
          g_edge_stamp = 2 * t;
          for (ClockRider* r : m_riders) r->rising_nodes(nodes, last - first, t);
          g_edge_stamp = 2 * t + 1;
          for (ClockRider* r : m_riders) r->falling_nodes(nodes, last - first, t);
        }
      }
    }
  }
  g_edge_stamp = 2 * c1 - 1;
  for (ClockRider* r : m_riders) r->band_end(c0, c1);
}

void CycleClock::run_cycles(uint64_t c0, uint64_t c1) {
  for (uint64_t t = c0; t < c1; ++t) {
    g_edge_stamp = 2 * t;
    for (ClockRider* r : m_riders) r->rising(t);
    g_edge_stamp = 2 * t + 1;
    for (ClockRider* r : m_riders) r->falling(t);
  }
}

void CycleClock::tick() {
  if (!m_started) {
    m_fused = decide();
    m_stretched = m_fused && std::all_of(m_riders.begin(), m_riders.end(), [](const ClockRider* r) { return r->stretchable(); });
    m_started = true;
    g_fused_clock = m_fused;
    m_banded = decide_bands();
    if (m_banded)
      for (const ClockRider* r : m_riders) m_probed = m_probed || r->band_probe();
  }
  if (m_probed) {
    // A stretch of the cycles up to the driver's horizon, bands or cycle by cycle, timed.
    const uint64_t t = current_cycle();
    const uint64_t c1 = horizon_after(t);
    uint64_t n = 0;
    const bool bands = m_choice.next(c1 - t, n);
    const auto start = std::chrono::steady_clock::now();
    if (bands) {
      run_bands(t, t + n);
    } else {
      if (m_in_bands)
        for (ClockRider* r : m_riders) r->band_leave(t);
      run_cycles(t, t + n);
    }
    m_in_bands = bands;
    m_choice.ran(bands, t, n, std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count());
    sc_core::next_trigger(m_period * double(n));
    return;
  }
  if (m_banded) {
    const uint64_t t = current_cycle();
    const uint64_t c1 = horizon_after(t);
    run_bands(t, c1);
    sc_core::next_trigger(m_period * double(c1 - t));
    return;
  }
  if (m_fused) {
    const uint64_t t = current_cycle();
    const uint64_t c1 = m_stretched ? horizon_after(t) : t + 1;
    run_cycles(t, c1);
    sc_core::next_trigger(m_period * double(c1 - t));
    return;
  }
  // Signal mode: high at c * period, low at c * period + period / 2 (as sc_clock's edges, written
  // by one process and seen after the update phase).
  m_signal.write(!m_signal.read());
  sc_core::next_trigger(m_half);
}

}  // namespace wormcast
