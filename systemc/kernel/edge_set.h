// Modules that act at one clock edge, run by one process of the network in a fixed order instead
// of one process each, and how a sleeping module is woken (docs/kernel.md).
//
// Per edge the set runs every awake member once, in the order they were added (the network adds
// them in node order); a member that reports itself idle sleeps until woken. A member woken at
// simulation time T acts at the first edge of the set after T: a wake in the same time step as an
// edge (in an earlier or later delta cycle) waits for the next edge, exactly as a module with its
// own process that re-arms itself for the next edge when woken.
//
// Lanes: a set may run its members in several threads (set_lanes), lane l always the same
// consecutive range of them, when every member allows it (lane_safe) and enough are awake; the
// main thread runs lane 0, takes any lane no worker has started, and waits for the others.
// Members that fall asleep, and wakes made while lanes run, are recorded per lane and applied
// after the join; what members share keeps one part per lane (systemc/kernel/lanes.h). So a run's
// results are the same for any number of lanes and whichever thread ran a lane.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <exception>
#include <memory>
#include <thread>
#include <vector>

#include <systemc>

#include "systemc/kernel/cycle_clock.h"
#include "systemc/kernel/lanes.h"

namespace wormcast {

class EdgeSet;

/// One module's sleep state and how to wake it: through its own process's event (a module that
/// runs its own process) or through its place in an EdgeSet (a module the network runs).
struct Waker {
  sc_core::sc_event* event = nullptr;
  EdgeSet* set = nullptr;
  uint32_t member = 0;
  /// Read and cleared by writers of several lanes at once (mailbox links): accessed atomically
  /// there (is_sleeping, wake).
  bool sleeping = false;
  /// Call only while sleeping. Out of line: a writer wakes a sleeping reader rarely, and the
  /// wake's own work (the set's lists, or the kernel's event) would crowd a busy edge's code.
  void wake();
  bool is_sleeping() const { return __atomic_load_n(&sleeping, __ATOMIC_RELAXED); }
};

/// What the writers of a router's inputs touch (mailbox links, systemc/kernel/link_signal.h): the
/// valid masks of its flit and credit inputs, per parity, and its sleep state. A network with plain links keeps those of all its routers in one array,
/// so that a write into a neighbour's masks touches a line of that array (40 bytes per router, a
/// few hundred KiB for a large network) instead of a line of the neighbour's object, which a large
/// network's edge has evicted since the neighbour ran (docs/kernel.md).
struct InputWatch {
  uint32_t flit_valid[2] = {0, 0};
  uint32_t credit_valid[2] = {0, 0};
  Waker waker;
};

/// The parity (cycle mod 2) of the edge being run: the box a mailbox link's writer fills
/// (systemc/kernel/link_signal.h). Set by the edge set before its members run.
inline int g_edge_parity = 0;

/// Lanes are running (EdgeSet::run_job, from the publication of a job to its join): only then may
/// writers of several lanes set bits of one mask word at once (LinkWriter's shared writes).
inline bool g_lanes_running = false;

/// Jobs run in lanes so far (EdgeSet::run_job, on the SystemC thread): a set looks for wakes made
/// in lanes only after one ran, in the lanes below g_max_lanes (the most any set has).
inline uint64_t g_lane_jobs = 0;
inline int g_max_lanes = 1;

/// What an EdgeSet runs.
class EdgeMember {
 public:
  virtual ~EdgeMember() = default;
  /// Acts at the edge of cycle t; false: the member is idle and sleeps until woken.
  virtual bool on_edge(uint64_t t) = 0;
  /// Whether on_edge may run on a lane other than 0: it calls nothing of the SystemC kernel and
  /// writes nothing shared with other members but link queues and the network's activity.
  virtual bool lane_safe() const { return false; }
  /// Asks the memory for the state the next on_edge reads (called a member or two ahead).
  virtual void prefetch() const {}
  /// Bands: asks the memory for the state of a member that enters a tile, stage by stage
  /// (ClockRider::prefetch_nodes; stage 0, the member's first line, is the edge set's).
  virtual void prefetch_cold(int stage) const {
    if (stage == kBandStages - 1) prefetch();
  }
  /// Mailbox links: a value waits in an input box for the next edge (a member that fell asleep in
  /// a lane is kept awake when a writer of another lane filled one of its boxes in the same edge).
  virtual bool input_pending() const { return false; }
};

class LinkBank;

/// The processors this process may run on (its affinity mask; at least 1).
int available_cores();
/// The machine's load average over the last minute (runnable threads; 0 when unknown).
double load_average();
/// The threads of the whole machine runnable at this instant (running or waiting for a core), this
/// one included; -1 when unknown.
int runnable_threads();

/// Awake members per thread below which an edge runs in one lane: handing an edge to another thread
/// and back costs about a microsecond on a two-core machine, as much as a few dozen busy routers.
constexpr int kMinPerLane = 64;

class EdgeSet : public sc_core::sc_module {
 public:
  sc_core::sc_in<bool> clk{"clk"};

  /// rising: the set acts at rising edges, else at falling edges.
  EdgeSet(sc_core::sc_module_name name, bool rising);
  ~EdgeSet() override;
  /// Runs each edge in `threads` threads (1..kMaxThreads; 1: the SystemC thread alone), as up to
  /// kLanesPerThread lanes per thread of at least kMinLaneMembers of the `members` the set will
  /// have, when every member is lane-safe and at least kMinPerLane members per thread are awake. `bank`: the link bank the
  /// members write, whose update the main thread asks for before the lanes start; null: the
  /// members' links are mailboxes (plain links, docs/kernel.md).
  void set_lanes(int threads, LinkBank* bank, size_t members);
  int lanes() const { return m_lanes; }
  int threads() const { return m_threads; }
  /// adaptive (the default): an edge that could run in lanes runs in lanes or in one thread,
  /// whichever this process measures faster per awake member (docs/kernel.md), and,
  /// with crowding, in one thread while the machine is crowded (crowded()); else every such edge
  /// runs in lanes.
  void set_adaptive(bool adaptive, bool crowding) {
    m_adaptive = adaptive;
    m_crowding = adaptive && crowding;
  }
  /// Edges that could have run in lanes but ran in one thread because one thread measured faster.
  uint64_t one_lane_edges() const { return m_one_lane_edges; }
  /// Edges that could have run in lanes but ran in one thread because the machine had no free core
  /// for this set's other threads (adaptive only; see crowded()).
  uint64_t crowded_edges() const { return m_crowded_edges; }
  /// The lane that runs member i (0 without lanes).
  int lane_of(uint32_t i) const {
    return m_lanes > 1 && !m_members.empty() ? int(uint64_t(i) * uint64_t(m_lanes) / m_members.size()) : 0;
  }
  /// The last edge ran in lanes: the network is busy (its link bank then commits in lanes too).
  bool busy() const { return m_busy; }
  using Job = void (*)(void* ctx, int lane);
  /// Runs job(ctx, l) on every lane l at once, lane 0 on the calling thread (and every lane no
  /// worker has started by the time it is free), and waits for all; then applies the wakes the
  /// lanes recorded. Only while the set can run in lanes (busy()).
  void run_job(Job job, void* ctx);
  /// Edges run in lanes so far.
  uint64_t parallel_edges() const { return m_parallel_edges; }
  /// Adds a member, awake, acting from the first edge on; its waker then wakes it through this set.
  void add(EdgeMember* member, Waker* waker);
  size_t size() const { return m_members.size(); }
  /// Runs the edge of cycle t now (the set's own process does at each of its clock edges; a fused
  /// clock calls it, systemc/kernel/cycle_clock.h).
  void run_edge(uint64_t t);
  /// Bands (systemc/kernel/cycle_clock.h): from now on the members run one at a time, through
  /// run_banded, with the wake rule of the edges in one thread; with `prefetch`, each asks for the
  /// state of the member two on.
  /// (A member woken since its last edge is no longer sleeping: the lists of wakes are spent.)
  void set_banded(bool prefetch) {
    m_banded = true;
    m_band_prefetch = prefetch;
    m_band_woke.assign(m_members.size(), kNeverWoken);
    m_band_asleep.assign((m_members.size() + 63) / 64, 0);
    for (size_t i = 0; i < m_members.size(); ++i)
      if (m_wakers[i]->sleeping) m_band_asleep[i / 64] |= uint64_t(1) << (i % 64);
    m_woken.clear();
    m_woken_now.clear();
  }
  /// Back from bands to run_edge (between two cycles, every member having run the edges before):
  /// a member acts at the next edge unless it sleeps and nothing woke it.
  void leave_banded() {
    if (!m_banded) return;
    m_banded = false;
    for (size_t i = 0; i < m_members.size(); ++i) {
      const bool asleep = band_asleep(uint32_t(i)) && m_band_woke[i] == kNeverWoken;
      m_wakers[i]->sleeping = asleep;
      if (asleep)
        m_awake[i / 64] &= ~(uint64_t(1) << (i % 64));
      else
        m_awake[i / 64] |= uint64_t(1) << (i % 64);
    }
  }
  bool banded() const { return m_banded; }
  /// Bands: the edge of cycle t (whose stamp is g_edge_stamp) of the members `members`, in their
  /// order. A sleeping member acts once it has been woken at an earlier edge (then from this edge
  /// on, as run_edge would have it).
  void run_banded(const int* members, size_t count, uint64_t t);
  /// Bands: stage `stage` of the prefetch of `members`, which enter the running tile
  /// (ClockRider::prefetch_nodes).
  void prefetch_banded(const int* members, size_t count, int stage) const;
  /// Member i (whose waker is w), sleeping, acts again from the first edge after now.
  void wake(uint32_t i, Waker& w) {
    if (m_banded) {
      // Nodes run their cycles out of order: a writer of a later cycle may come first. The member
      // stays marked sleeping, so that every writer tells it its edge, until the earliest wake's
      // next edge (run_banded).
      if (g_edge_stamp + 1 < m_band_woke[i]) m_band_woke[i] = g_edge_stamp + 1;
      return;
    }
    __atomic_store_n(&w.sleeping, false, __ATOMIC_RELAXED);
    if (t_lane != 0) {  // made in a lane: applied at this set's next edge (any wake made in a lane
      m_lane_woken[t_lane].push_back(i);  // comes before it: lanes run at another set's edge or
      return;                             // in an earlier delta cycle of this set's)
    }
    const uint64_t now = edge_stamp_now();
    if (now != m_now_stamp) {
      m_woken.insert(m_woken.end(), m_woken_now.begin(), m_woken_now.end());
      m_woken_now.clear();
      m_now_stamp = now;
    }
    m_woken_now.push_back(i);
  }

 private:
  void run();
  void start_of_simulation() override;
  /// Runs the awake members in [lo, hi) at edge t; slept(i) for each that falls asleep.
  template <class Slept>
  void run_range(uint32_t lo, uint32_t hi, uint64_t t, Slept&& slept);
  /// The awake members m of word w (prefetching ahead or not).
  template <bool Prefetch, class Slept>
  void run_word(uint32_t w, uint64_t m, uint64_t t, Slept& slept);
  /// Member i sleeps from the next edge on, until woken.
  void sleep(uint32_t i) {
    m_awake[i / 64] &= ~(uint64_t(1) << (i % 64));
    m_wakers[i]->sleeping = true;
  }
  /// Adaptive: whether the machine is too busy for this set's threads, i.e. the other runnable
  /// threads and this set's threads outnumber the cores; sampled at most once per kCrowdSample of
  /// wall time (`now`), and changed only when two samples in a row agree (docs/kernel.md).
  bool crowded(std::chrono::steady_clock::time_point now);
  static void edge_job(void* set, int lane);
  void worker(int lane);

  std::vector<EdgeMember*> m_members;
  std::vector<Waker*> m_wakers;
  std::vector<uint64_t> m_awake;        ///< bit i: member i acts at the next edge
  std::vector<uint32_t> m_woken;        ///< woken before m_now_stamp
  std::vector<uint32_t> m_woken_now;    ///< woken at time m_now_stamp
  uint64_t m_now_stamp = 0;
  bool m_banded = false;
  bool m_band_prefetch = false;
  /// Bands: [i] the stamp + 1 of the earliest wake of member i since it slept.
  std::vector<uint64_t> m_band_woke;
  /// Bands: bit i mirrors member i's sleeping flag (read without the member's own lines).
  std::vector<uint64_t> m_band_asleep;
  bool band_asleep(uint32_t i) const { return (m_band_asleep[i / 64] >> (i % 64)) & 1; }
  /// Bands: member i will not act at the edge of stamp `stamp` (asleep, and not woken before it).
  bool band_idle(uint32_t i, uint64_t stamp) const { return band_asleep(i) && m_band_woke[i] > stamp; }
  /// Bands: asks for the first lines of member i and of its waker, unless it is idle at `stamp`.
  void prefetch_object(uint32_t i, uint64_t stamp) const;
  static constexpr uint64_t kNeverWoken = ~uint64_t(0);
  /// [l]: members woken by lane l's members or link commits (of this set or another), l >= 1.
  std::unique_ptr<std::vector<uint32_t>[]> m_lane_woken{new std::vector<uint32_t>[kMaxLanes]};
  uint64_t m_lane_jobs_seen = 0;  ///< g_lane_jobs when m_lane_woken was last taken

  // Lanes. Lane l runs members [m_lane[l].lo, m_lane[l].hi) (those with lane_of == l); thread l is
  // its home (thread 0: the SystemC thread).
  struct alignas(64) Lane {
    uint32_t lo = 0, hi = 0;
    std::vector<uint32_t> slept;  ///< members that fell asleep at this edge
    std::exception_ptr error;
    /// The last epoch whose job a thread took this lane of (own line: threads claim it at once).
    alignas(64) std::atomic<uint32_t> claim{0};
  };
  /// Runs every lane of `epoch` this thread can claim, its home lane first.
  void run_lanes(int home, uint32_t epoch);
  int m_lanes = 1;
  int m_threads = 1;
  bool m_lane_safe = false;  ///< every member is lane-safe (decided when the simulation starts)
  bool m_busy = false;
  LinkBank* m_bank = nullptr;
  std::unique_ptr<Lane[]> m_lane;
  std::vector<std::thread> m_workers;
  uint64_t m_edge_t = 0;   ///< the cycle of the edge being run
  Job m_job = nullptr;     ///< the job of the current epoch
  void* m_job_ctx = nullptr;
  // The waits (spin a little, then sleep in the kernel until woken; edge_set.cpp). Each word on
  // its own line: the workers poll the epoch while the main thread counts down the lanes.
  alignas(64) std::atomic<uint32_t> m_epoch{0};  ///< bumped to start the lanes on m_job
  alignas(64) std::atomic<uint32_t> m_remaining{0};  ///< lanes of the epoch not yet finished
  alignas(64) std::atomic<int> m_sleepers{0};        ///< workers asleep on m_epoch
  std::atomic<int> m_main_asleep{0};                 ///< the main thread asleep on m_remaining
  std::atomic<bool> m_stop{false};
  uint64_t m_parallel_edges = 0;

  LaneChoice m_choice;  ///< lanes or one thread, with sim.lanes = adaptive
  bool m_adaptive = true;
  bool m_crowding = true;
  uint64_t m_one_lane_edges = 0;
  // The crowding rule (crowded()).
  int m_cores = 1;
  bool m_crowded = false;
  int m_crowd_votes = 0;  ///< samples in a row that disagreed with m_crowded
  std::chrono::steady_clock::time_point m_crowd_sampled{};
  uint64_t m_crowded_edges = 0;
};

/// What a member with port objects that runs its own process waits for while asleep: its wake
/// event (notified by its LinkSignal inputs or by software) and the or-list of that event and the
/// value-changed events of inputs bound to other kinds of signal. None with plain links, where a
/// large network would pay a named kernel event per member.
struct OwnWake {
  explicit OwnWake(const char* event_name) : event(event_name) {}
  sc_core::sc_event event;
  sc_core::sc_event_or_list any;
};

/// One activation of a member that runs its own method process (no edge set): at initialization,
/// or when woken, it arms itself for the next edge; at an edge it acts and re-arms for the next
/// edge while busy, for `wake` once idle (then its waker is sleeping). `armed` starts false.
/// Call from the method; the caller's clock edge event is `edge`.
inline void step_own_process(EdgeMember& member, Waker& waker, bool& armed, const sc_core::sc_event& edge,
                             const sc_core::sc_event_or_list& wake, uint64_t cycle) {
  if (!armed || waker.sleeping) {
    armed = true;
    waker.sleeping = false;
    sc_core::next_trigger(edge);
  } else if (member.on_edge(cycle)) {
    sc_core::next_trigger(edge);
  } else {
    waker.sleeping = true;
    sc_core::next_trigger(wake);
  }
}

}  // namespace wormcast
