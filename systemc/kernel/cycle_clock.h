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
// - bands (fused, with sim.schedule = bands and every rider able; docs/kernel.md section 5): the
//   process runs the cycles up to the driver's horizon (set_clock_horizon) at once, cell by cell
//   of a grid of the nodes (BandPlan): a cell's edges of cycle c (every rider's rising edges for
//   its nodes, then every rider's falling edges) run once the cells it is wired to have run cycle
//   c - 1, in tiles of a block of cells over many cycles, so that a block's state serves several
//   cycles while it is in the cache. A run's results are those of the fused mode, byte for byte.
#pragma once

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
};

/// Bands: the prefetch stages of a node that enters a tile (ClockRider::prefetch_nodes).
constexpr int kBandStages = 3;

/// The cycle the driver's current sc_start runs up to (exclusive): the horizon of the bands mode.
/// 0: unknown, cycle by cycle.
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
  /// "bands", "fused" or "signal" (decided at time 0; "signal" before).
  const char* mode() const { return m_banded ? "bands" : m_fused ? "fused" : "signal"; }
  /// Whether the fused clock runs in bands (decided at time 0).
  bool banded() const { return m_banded; }

 private:
  void tick();
  bool decide() const;
  bool decide_bands();
  /// Runs the cycles [c0, c1) in bands.
  void run_bands(uint64_t c0, uint64_t c1);

  CycleSignal m_signal;
  sc_core::sc_time m_period, m_half;
  std::vector<ClockRider*> m_riders;
  bool m_started = false;
  bool m_fused = false;
  bool m_banded = false;
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
