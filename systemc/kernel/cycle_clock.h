// The simulation kernel (systemc/kernel/, docs/kernel.md): what makes a network's routers and
// NIC ports act once per clock edge. A cycle's life, cycle c:
//  1. The cycle clock (this file) starts cycle c: by a signal edge, or, fused, by calling its
//     riders' rising edge directly; in bands, for one cell of the network at a time.
//  2. The rising edge set (edge_set.h) runs every awake router once, in node order, on one thread
//     or split into lanes (lanes.h) on several; a sleeping router costs nothing.
//  3. Each router reads its input wires (link_signal.h: a LinkSignal, or two mailboxes per link),
//     evaluates every stage and writes each output once; a write wakes the wire's sleeping reader.
//  4. The falling edge set then runs the NIC ports the same way (injection and ejection).
//  5. A value written at one edge is read from the next edge on (a router's output by a NIC at
//     the falling edge, a NIC's by a router at rising edge c + 1), whichever thread, lane or band
//     wrote it: the results never depend on how the cycle was run.
//
// The clock of a run (docs/kernel.md section 4): one period per cycle, the rising edge at the
// start of cycle c (time c * period), the falling edge in its middle, as an sc_clock that starts
// at time 0 with a rising edge and a duty cycle of 0.5.
//
// It runs in one of two modes, chosen at time 0 (once every module has finished elaboration and
// start_of_simulation):
// - signal: one process toggles a boolean signal every half period; every clocked module may be
//   sensitive to its edges, exactly as with an sc_clock;
// - fused: every process that waits for the clock's edges is a rider's (a network whose members
//   all run from its edge sets with mailbox links, the traffic generator) and every rider allows
//   it. The signal then stays low and one process per cycle calls, at time c * period, every
//   rider's rising edge of cycle c and then every rider's falling edge of cycle c, in the order
//   they were added. No event, delta cycle or update phase of the kernel is spent on the edges.
//   Edge sets tell the edges apart by an edge stamp (2c for the rising edge of cycle c, 2c + 1 for
//   its falling edge) instead of the simulation time, so their wake rule is that of signal mode.
//   When every rider is stretchable (nothing but their edges acts between two cycles: a traffic
//   run), the process runs the cycles up to the driver's horizon (set_clock_horizon) in one
//   activation, the same calls in the same order, without a return to the kernel per cycle.
// - bands (fused, with sim.schedule = bands and every rider able; docs/kernel.md section 5): the
//   process runs the cycles up to the driver's horizon (set_clock_horizon) at once, cell by cell
//   of a grid of the nodes (BandPlan): a cell's edges of cycle c (every rider's rising edges for
//   its nodes, then every rider's falling edges) run once the cells it is wired to have run cycle
//   c - 1, in tiles of a block of cells over many cycles, so that a block's state serves several
//   cycles while it is in the cache. A run's results are those of the fused mode, byte for byte.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <vector>

#include <systemc>

namespace wormcast {

/// Bands: a network's nodes on a grid of cells, `rows` x `cols` (a node in exactly one cell), and
/// how far a link may reach across it: every link joins cells at most row_reach rows and col_reach
/// columns apart. `nodes` lists the cells row by row, each row column by column; `start[row * cols
/// + col]` is the first node of a cell and start[rows * cols] the number of nodes.
struct BandPlan {
  /// Nodes of a tile's block of cells (sim.band_nodes): their state should stay in the cache while
  /// the block runs its cycles.
  int block_nodes = 1024;
  int rows = 0, cols = 0;
  int row_reach = 0, col_reach = 0;
  std::vector<int> nodes;
  std::vector<size_t> start;
};

/// A module the fused clock runs directly.
class ClockRider {
 public:
  virtual ~ClockRider() = default;
  /// Whether the clock may call the edges below instead of its processes (asked at time 0).
  virtual bool fusable() const = 0;
  /// How many times the rider's own processes asked the clock signal for an event (their static
  /// sensitivity to its edges), which fused mode replaces by the calls below.
  virtual int edge_requests() const = 0;
  /// Fused mode: the rising (falling) edge of cycle t.
  virtual void rising(uint64_t /*t*/) {}
  virtual void falling(uint64_t /*t*/) {}
  /// Whether, between the edges of two cycles, nothing outside the riders' edges has to run (no
  /// process of the rider's own waits for a time or an event of the kernel, and nothing the edges
  /// call reads the simulation time): the fused clock may then run every cycle up to the driver's
  /// horizon in one activation (asked at time 0).
  virtual bool stretchable() const { return false; }

  // Bands (see above). A rider that can run its edges node by node: its state of one node at one
  // cycle is reached only through that node's calls below, and through links whose writer and
  // reader are nodes the plan keeps within its reach.
  /// Whether this rider's edges can run node by node (asked at time 0).
  virtual bool bandable() const { return false; }
  /// The grid of the nodes (BandPlan). One rider (the network) gives it; the others return false.
  virtual bool band_plan(BandPlan& /*plan*/) const { return false; }
  /// Before and after the cycles [c0, c1) run node by node.
  virtual void band_begin(uint64_t /*c0*/, uint64_t /*c1*/) {}
  virtual void band_end(uint64_t /*c0*/, uint64_t /*c1*/) {}
  /// The rising (falling) edge of cycle t at nodes[0 .. count), in that order. (The clock runs the
  /// rising edges of such a run of nodes before its falling edges: within a cycle, nodes depend on
  /// each other only through links, which carry values to the next edge.)
  virtual void rising_nodes(const int* /*nodes*/, size_t /*count*/, uint64_t /*t*/) {}
  virtual void falling_nodes(const int* /*nodes*/, size_t /*count*/, uint64_t /*t*/) {}
  /// The nodes[0 .. count) enter the running tile kBandStages - stage cycles from now: ask the
  /// memory for the state of stage `stage` (0: the objects' first lines; each later stage may read
  /// what the one before asked for, which had a cycle of the tile to arrive).
  virtual void prefetch_nodes(const int* /*nodes*/, size_t /*count*/, int /*stage*/) {}
  /// Whether the clock should run bands only where a probe on this run measures them faster than
  /// cycle by cycle (asked at time 0; sim.schedule = auto).
  virtual bool band_probe() const { return false; }
  /// The clock runs cycle by cycle (the fused mode's rising() and falling()) from cycle c on, after
  /// bands that ended at c: the rider takes back the state of that mode. (Going into bands again,
  /// band_begin comes first, as at the first band.)
  virtual void band_leave(uint64_t /*c*/) {}
};

/// sim.schedule = auto, where bands are possible: which way the next cycles run, bands or cycle by
/// cycle, by timing both on the run itself. The run starts in bands; after kFirstGap cycles (the
/// network has its load by then) a probe runs four stretches, kProbeBands cycles in bands and
/// kProbeCycles cycle by cycle (a band's tiles need more cycles to pay than the cycle schedule needs
/// to be timed), in the order A B B A (A: the way chosen so far), so that a drift of the load or of
/// the machine's speed over the probe weighs on both ways alike, and takes the way of the lower wall
/// time per cycle over its two stretches. The chosen way then runs (in one stretch up to each of the
/// driver's horizons) for kGap cycles before the next probe, the gap doubling after each probe up to
/// kMaxGap.
class SchedulePick {
 public:
  static constexpr uint64_t kFirstGap = 100;
  static constexpr uint64_t kProbeBands = 100;
  static constexpr uint64_t kProbeCycles = 50;
  static constexpr uint64_t kGap = 1000;
  static constexpr uint64_t kMaxGap = 16000;
  /// One probe's measurement.
  struct Probe {
    uint64_t cycle = 0;                            ///< the cycle it started at
    uint64_t bands_cycles = 0, cycles_cycles = 0;  ///< cycles each way ran in it
    double bands_ns = 0, cycles_ns = 0;            ///< wall nanoseconds each way took
    bool bands = false;                            ///< the way it chose
    uint64_t after = 0;                            ///< cycles run that way after it
  };
  /// The way of the next stretch (true: bands) and its length, at most `left` cycles (> 0).
  bool next(uint64_t left, uint64_t& cycles) const {
    if (m_step < 4) {
      const bool bands = (m_step == 0 || m_step == 3) ? m_bands : !m_bands;  // A B B A
      cycles = std::min(left, bands ? kProbeBands : kProbeCycles);
      return bands;
    }
    cycles = std::min(left, m_until);
    return m_bands;
  }
  /// The stretch chosen by next() ran `cycles` cycles in `ns` wall nanoseconds from cycle c.
  void ran(bool bands, uint64_t c, uint64_t cycles, double ns) {
    (bands ? m_cycles_bands : m_cycles_cycles) += cycles;
    if (m_step >= 4) {
      if (!m_probes.empty()) m_probes.back().after += cycles;
      m_until -= cycles;
      if (m_until == 0) m_step = 0;  // the next stretch starts a probe
      return;
    }
    if (m_step == 0) m_probes.push_back(Probe{c});
    Probe& p = m_probes.back();
    (bands ? p.bands_cycles : p.cycles_cycles) += cycles;
    (bands ? p.bands_ns : p.cycles_ns) += ns;
    if (++m_step < 4) return;
    // Per cycle, the lower wins (each way ran in the probe: every stretch runs at least a cycle).
    m_bands = p.bands_ns / double(p.bands_cycles) < p.cycles_ns / double(p.cycles_cycles);
    p.bands = m_bands;
    m_until = m_gap;
    m_gap = std::min(2 * m_gap, kMaxGap);
  }
  const std::vector<Probe>& probes() const { return m_probes; }
  /// Cycles run in bands and cycle by cycle so far.
  uint64_t cycles_in_bands() const { return m_cycles_bands; }
  uint64_t cycles_in_cycles() const { return m_cycles_cycles; }

 private:
  bool m_bands = true;  ///< the way chosen so far
  int m_step = 4;       ///< 0..3: the stretch of the probe; 4: the chosen way runs
  uint64_t m_until = kFirstGap, m_gap = kGap;
  uint64_t m_cycles_bands = 0, m_cycles_cycles = 0;
  std::vector<Probe> m_probes;
};

/// Bands: the prefetch stages of a node that enters a tile (ClockRider::prefetch_nodes).
constexpr int kBandStages = 3;

/// The cycle the driver's current sc_start runs up to (exclusive): the horizon of the bands mode
/// and of a fused clock whose riders are stretchable. 0: unknown, cycle by cycle.
void set_clock_horizon(uint64_t cycle);

class CycleClock;

/// The clock's signal: an sc_signal<bool> that knows its clock and counts the requests for its
/// events (a process sensitive to it that is not a rider's keeps the clock in signal mode).
class CycleSignal : public sc_core::sc_signal<bool> {
 public:
  CycleSignal(const char* name, CycleClock& clock) : sc_core::sc_signal<bool>(name), m_clock(clock) {}
  CycleClock& clock() const { return m_clock; }
  const sc_core::sc_event& posedge_event() const override;
  const sc_core::sc_event& negedge_event() const override;
  const sc_core::sc_event& value_changed_event() const override;
  int requests() const { return m_requests; }

 private:
  void requested() const;
  CycleClock& m_clock;
  mutable int m_requests = 0;
};

class CycleClock : public sc_core::sc_module {
 public:
  CycleClock(sc_core::sc_module_name name, const sc_core::sc_time& period);

  /// What clocked ports bind to.
  CycleSignal& signal() { return m_signal; }
  const CycleSignal& signal() const { return m_signal; }
  const sc_core::sc_time& period() const { return m_period; }
  /// Adds a rider (during elaboration).
  void ride(ClockRider* rider) { m_riders.push_back(rider); }
  /// The clock behind a bound port's interface, or null when it is not a CycleClock's signal.
  static CycleClock* of(sc_core::sc_interface* itf);
  /// "bands", "fused" or "signal" (decided at time 0; "signal" before); probed: "bands" once a
  /// cycle ran in bands, else "fused".
  const char* mode() const {
    return m_banded && (!m_probed || m_choice.cycles_in_bands() > 0) ? "bands" : m_fused ? "fused" : "signal";
  }
  /// Whether the fused clock may run in bands (decided at time 0).
  bool banded() const { return m_banded; }
  /// Whether it chooses between bands and cycles by probing (decided at time 0), and that choice.
  bool probed() const { return m_probed; }
  const SchedulePick& schedule_choice() const { return m_choice; }

 private:
  void tick();
  bool decide() const;
  bool decide_bands();
  /// Runs the cycles [c0, c1) in bands.
  void run_bands(uint64_t c0, uint64_t c1);
  /// Runs the cycles [c0, c1) cycle by cycle, as the fused mode does, in one activation.
  void run_cycles(uint64_t c0, uint64_t c1);

  CycleSignal m_signal;
  sc_core::sc_time m_period, m_half;
  std::vector<ClockRider*> m_riders;
  bool m_started = false;
  bool m_fused = false;
  bool m_stretched = false;  ///< fused, every rider stretchable: cycles up to the horizon at once
  bool m_banded = false;
  bool m_probed = false;     ///< bands or cycles as SchedulePick measures
  bool m_in_bands = false;   ///< probed: the last stretch ran in bands
  SchedulePick m_choice;
  BandPlan m_plan;
  std::vector<int> m_entering[kBandStages];  ///< run_bands: the nodes of each prefetch stage
  friend class CycleSignal;
};

/// The edge stamp of the edge being run when the clock is fused (see above); g_fused_clock says
/// whether it is.
inline bool g_fused_clock = false;
inline uint64_t g_edge_stamp = 0;

/// The stamp of "now" for a wake rule: the simulation time, or with a fused clock the edge stamp.
inline uint64_t edge_stamp_now() { return g_fused_clock ? g_edge_stamp : sc_core::sc_time_stamp().value(); }

}  // namespace wormcast
