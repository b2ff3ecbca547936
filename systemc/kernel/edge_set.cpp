// The edge set's one process: wake the members woken before this edge, run the awake ones, in one
// lane or split among several threads.
#include "systemc/kernel/edge_set.h"

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <utility>

#if defined(__linux__)
#include <fcntl.h>
#include <linux/futex.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include "systemc/common/clock.h"
#include "systemc/kernel/lanes.h"
#include "systemc/kernel/link_signal.h"

namespace wormcast {

namespace {
inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

// A waiting thread (a worker for the next job, the main thread for the lanes of the job) spins this
// long before it sleeps in the kernel until woken: longer than the gaps between the jobs of a busy
// edge (the link commits follow the routers' edge within microseconds), shorter than the NIC
// ports' edge of a large network, during which a worker then sleeps. Spinning longer buys nothing
// where threads pay (a cycle of a network large enough to use them lasts a millisecond or more,
// which a wake-up delays by tens of microseconds) and costs a busy machine a core's worth of
// spinning (docs/kernel.md).
constexpr std::chrono::microseconds kSpin{50};

// The crowding rule (EdgeSet::crowded) samples the machine's runnable threads at most this often:
// a system call per millisecond of edges that may run in lanes.
constexpr std::chrono::milliseconds kCrowdSample{1};

// Sleeps while *word == value (a futex: the kernel checks the value and sleeps atomically, so a
// wake between the caller's check and the sleep is not lost), or returns at once.
inline void sleep_while(std::atomic<uint32_t>& word, uint32_t value) {
#if defined(__linux__)
  syscall(SYS_futex, reinterpret_cast<uint32_t*>(&word), FUTEX_WAIT_PRIVATE, value, nullptr, nullptr, 0);
#else
  (void)value;
  std::this_thread::yield();
#endif
}

inline void wake_all(std::atomic<uint32_t>& word) {
#if defined(__linux__)
  syscall(SYS_futex, reinterpret_cast<uint32_t*>(&word), FUTEX_WAKE_PRIVATE, INT_MAX, nullptr, nullptr, 0);
#else
  (void)word;
#endif
}

// Spins until done() or for kSpin; whether done() came true.
template <class Done>
bool spin_until(Done&& done) {
  const auto until = std::chrono::steady_clock::now() + kSpin;
  for (;;) {
    for (int k = 0; k < 64; ++k) {
      if (done()) return true;
      cpu_relax();
    }
    if (std::chrono::steady_clock::now() >= until) return done();
  }
}

// How many awake members ahead of the one running the edge set asks for state (EdgeMember::
// prefetch): far enough for the memory to answer while the members in between run.
constexpr int kPrefetchAhead = 2;
// Sets with fewer members than this do not prefetch: their members' state stays in the caches
// (an 8x8 torus: 64 routers of about 12 KiB), where the requests are instructions for nothing.
constexpr size_t kPrefetchMembers = 256;
}  // namespace

int available_cores() {
#if defined(__linux__)
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);
#endif
  return std::max(1, int(std::thread::hardware_concurrency()));
}

int runnable_threads() {
#if defined(__linux__)
  // The fourth field of /proc/loadavg, "runnable/threads", counts the machine's runnable threads
  // now. One descriptor for the process, read from its start each time (one system call).
  static const int fd = open("/proc/loadavg", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  char buf[128];
  const ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
  if (n <= 0) return -1;
  buf[n] = 0;
  int runnable = -1;
  if (std::sscanf(buf, "%*f %*f %*f %d/", &runnable) != 1) return -1;
  return runnable;
#else
  return -1;
#endif
}

double load_average() {
#if defined(__linux__)
  double load[1];
  if (getloadavg(load, 1) == 1 && load[0] >= 0) return load[0];
#endif
  return 0;
}

EdgeSet::EdgeSet(sc_core::sc_module_name name, bool rising) : sc_module(name) {
  SC_HAS_PROCESS(EdgeSet);
  SC_METHOD(run);
  if (rising)
    sensitive << clk.pos();
  else
    sensitive << clk.neg();
  dont_initialize();
}

EdgeSet::~EdgeSet() {
  if (m_workers.empty()) return;
  m_stop.store(true);
  m_epoch.fetch_add(1);
  wake_all(m_epoch);
  for (std::thread& w : m_workers) w.join();
}

void EdgeSet::add(EdgeMember* member, Waker* waker) {
  const uint32_t i = uint32_t(m_members.size());
  m_members.push_back(member);
  m_wakers.push_back(waker);
  waker->set = this;
  waker->member = i;
  waker->sleeping = false;
  if (m_awake.size() * 64 <= i) m_awake.push_back(0);
  m_awake[i / 64] |= uint64_t(1) << (i % 64);
}

// With lanes, this set's threads each want a core; the other runnable threads are the machine's
// less this set's own (the SystemC thread, running this, and the workers not asleep). When they
// outnumber the cores, a worker of an edge in lanes waits for a core, and the edge for it: the
// edge runs in one thread instead. A sample is a snapshot, so one thread that runs a moment (a
// shell, the kernel's own) changes nothing; two samples in a row change the state.
bool EdgeSet::crowded(std::chrono::steady_clock::time_point now) {
  if (now - m_crowd_sampled < kCrowdSample) return m_crowded;
  m_crowd_sampled = now;
  const int runnable = runnable_threads();
  if (runnable < 0) return m_crowded = false;
  const int ours = m_threads - m_sleepers.load(std::memory_order_relaxed);
  const bool over = runnable - ours + m_threads > m_cores;
  if (over == m_crowded) {
    m_crowd_votes = 0;
  } else if (++m_crowd_votes >= 2) {
    m_crowded = over;
    m_crowd_votes = 0;
  }
  return m_crowded;
}

void EdgeSet::set_lanes(int threads, LinkBank* bank, size_t members) {
  if (threads < 1 || threads > kMaxThreads)
    throw std::invalid_argument("edge set: threads must be 1.." + std::to_string(kMaxThreads));
  if (!m_workers.empty()) throw std::logic_error("edge set: lanes are set once");
  m_threads = threads;
  m_cores = available_cores();
  const int per_thread = int(std::clamp<size_t>(members / (size_t(threads) * kMinLaneMembers), 1, kLanesPerThread));
  m_lanes = threads == 1 ? 1 : threads * per_thread;
  g_max_lanes = std::max(g_max_lanes, m_lanes);
  m_bank = bank;
  if (m_lanes == 1) return;
  if (bank) bank->set_lanes(this);
  m_lane = std::make_unique<Lane[]>(size_t(m_lanes));
  // Worker w's home is the first lane of its share, lane w * per_thread.
  for (int w = 1; w < threads; ++w) m_workers.emplace_back([this, w, per_thread] { worker(w * per_thread); });
}

void EdgeSet::start_of_simulation() {
  m_lane_safe = m_lanes > 1;
  for (const EdgeMember* m : m_members) m_lane_safe = m_lane_safe && m->lane_safe();
  if (m_lanes == 1) return;
  const uint32_t n = uint32_t(m_members.size());
  for (int l = 0; l < m_lanes; ++l) m_lane[l].lo = m_lane[l].hi = n;
  for (uint32_t i = n; i-- > 0;) m_lane[lane_of(i)].lo = i;
  for (int l = 0; l < m_lanes; ++l) m_lane[l].hi = l + 1 < m_lanes ? m_lane[l + 1].lo : n;
}

void EdgeSet::run() { run_edge(current_cycle()); }

void EdgeSet::run_edge(uint64_t t) {
  const uint64_t now = edge_stamp_now();
  if (m_now_stamp < now) {  // woken in an earlier time step: they act at this edge
    m_woken.insert(m_woken.end(), m_woken_now.begin(), m_woken_now.end());
    m_woken_now.clear();
  }
  for (uint32_t i : m_woken) m_awake[i / 64] |= uint64_t(1) << (i % 64);
  m_woken.clear();
  if (m_lane_jobs_seen != g_lane_jobs) {
    m_lane_jobs_seen = g_lane_jobs;
    for (int l = 1; l < g_max_lanes; ++l) {
      for (uint32_t i : m_lane_woken[l]) {
        m_awake[i / 64] |= uint64_t(1) << (i % 64);
        m_wakers[i]->sleeping = false;
      }
      m_lane_woken[l].clear();
    }
  }
  g_edge_parity = int(t & 1);
  m_busy = false;
  // Whether this edge may run in lanes (enough members awake), and whether it does (always, or
  // as the lane choice says).
  uint32_t awake = 0;
  if (m_lane_safe)
    for (uint64_t w : m_awake) awake += uint32_t(__builtin_popcountll(w));
  bool may = m_lane_safe && awake >= uint32_t(m_threads * kMinPerLane);
  // The clock is read only for the crowding rule and the lane choice.
  std::chrono::steady_clock::time_point start{};
  if (may && m_adaptive) {
    start = std::chrono::steady_clock::now();
    if (m_crowding && crowded(start)) {
      may = false;
      ++m_crowded_edges;
    }
  }
  const bool lanes = may && (!m_adaptive || m_choice.lanes());
  const bool timed = may && m_adaptive;
  if (lanes) {
    m_busy = true;
    m_edge_t = t;
    if (m_bank) m_bank->wake_up();  // the lanes other than 0 cannot ask the kernel for the update
    run_job(&EdgeSet::edge_job, this);
    ++m_parallel_edges;
    // A member that fell asleep while a writer of another lane filled one of its mailboxes (after
    // it ran, so that it could not see the value, and before the sleep, so that the writer could
    // not wake it) stays awake, as it would in one lane.
    for (int l = 0; l < m_lanes; ++l)
      for (uint32_t i : m_lane[l].slept)
        if (!m_members[i]->input_pending()) sleep(i);
  } else {
    m_one_lane_edges += may;
    // In one lane a member sleeps at once: a member later in the same edge may wake it (a NIC
    // core's software submitting a packet to another node's port), which needs it marked sleeping.
    run_range(0, uint32_t(m_members.size()), t, [this](uint32_t i) { sleep(i); });
  }
  if (timed)
    m_choice.timed(std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count(), awake);
}

template <class Slept>
void EdgeSet::run_range(uint32_t lo, uint32_t hi, uint64_t t, Slept&& slept) {
  const bool prefetch = m_members.size() >= kPrefetchMembers;
  for (uint32_t w = lo / 64; w * 64 < hi; ++w) {
    uint64_t m = m_awake[w];
    if (w * 64 < lo) m &= ~uint64_t(0) << (lo % 64);
    if ((w + 1) * 64 > hi && hi % 64) m &= (uint64_t(1) << (hi % 64)) - 1;
    if (prefetch)
      run_word<true>(w, m, t, slept);
    else
      run_word<false>(w, m, t, slept);
  }
}

static constexpr size_t kBandObjectAhead = 6;

// The first lines of a member that will act at this edge (as far as is known now) and of its
// waker: the run of a band asks for them kBandObjectAhead members ahead, and stage 0 of a band's
// prefetch for the members entering a tile.
inline void EdgeSet::prefetch_object(uint32_t j, uint64_t stamp) const {
  if (band_idle(j, stamp)) return;
  __builtin_prefetch(m_members[j]);
  __builtin_prefetch(m_wakers[j]);
}

void EdgeSet::run_banded(const int* members, size_t count, uint64_t t) {
  g_edge_parity = int(t & 1);
  const uint64_t stamp = g_edge_stamp;
  for (size_t k = 0; k < count; ++k) {
    const uint32_t i = uint32_t(members[k]);
    if (m_band_prefetch) {  // only members that will act (as far as is known now)
      if (k + kBandObjectAhead < count) prefetch_object(uint32_t(members[k + kBandObjectAhead]), stamp);
      if (k + kPrefetchAhead < count) {
        const uint32_t j = uint32_t(members[k + kPrefetchAhead]);
        if (!band_idle(j, stamp)) m_members[j]->prefetch();
      }
    }
    if (band_asleep(i)) {
      if (m_band_woke[i] > stamp) continue;
      m_band_asleep[i / 64] &= ~(uint64_t(1) << (i % 64));
      m_wakers[i]->sleeping = false;
      m_band_woke[i] = kNeverWoken;
    }
    if (!m_members[i]->on_edge(t)) {
      m_wakers[i]->sleeping = true;
      m_band_asleep[i / 64] |= uint64_t(1) << (i % 64);
    }
  }
}

void EdgeSet::prefetch_banded(const int* members, size_t count, int stage) const {
  const uint64_t stamp = g_edge_stamp;
  if (stage == 0) {
    for (size_t k = 0; k < count; ++k) prefetch_object(uint32_t(members[k]), stamp);
    return;
  }
  for (size_t k = 0; k < count; ++k) {
    const uint32_t j = uint32_t(members[k]);
    if (!band_idle(j, stamp)) m_members[j]->prefetch_cold(stage);
  }
}

template <bool Prefetch, class Slept>
void EdgeSet::run_word(uint32_t w, uint64_t m, uint64_t t, Slept& slept) {
  for (; m; m &= m - 1) {
    const uint32_t i = w * 64 + uint32_t(__builtin_ctzll(m));
    if constexpr (Prefetch) {  // the member kPrefetchAhead awake members on (in this word) asks for its state now
      uint64_t ahead = m;
      for (int k = 0; k < kPrefetchAhead && ahead; ++k) ahead &= ahead - 1;
      if (ahead) m_members[w * 64 + uint32_t(__builtin_ctzll(ahead))]->prefetch();
    }
    if (!m_members[i]->on_edge(t)) slept(i);
  }
}

void EdgeSet::edge_job(void* set, int lane) {
  auto* s = static_cast<EdgeSet*>(set);
  Lane& me = s->m_lane[size_t(lane)];
  me.slept.clear();
  s->run_range(me.lo, me.hi, s->m_edge_t, [&me](uint32_t i) { me.slept.push_back(i); });
}

// Lane l's values in the link queues and its activity counts are its own, whichever thread runs
// it; what the members of a lane read was committed by the same lane (systemc/kernel/link_signal.h).
void EdgeSet::run_job(Job job, void* ctx) {
  ++g_lane_jobs;
  m_job = job;
  m_job_ctx = ctx;
  m_remaining.store(uint32_t(m_lanes));
  g_lanes_running = true;
  const uint32_t epoch = m_epoch.fetch_add(1) + 1;  // publishes the job and its data
  if (m_sleepers.load() > 0) wake_all(m_epoch);
  run_lanes(0, epoch);
  // The lanes other threads took: spin, then sleep until the last of them wakes this thread.
  if (!spin_until([this] { return m_remaining.load(std::memory_order_acquire) == 0; })) {
    m_main_asleep.store(1);
    for (uint32_t r; (r = m_remaining.load()) != 0;) sleep_while(m_remaining, r);
    m_main_asleep.store(0);
  }
  g_lanes_running = false;  // every lane has finished (m_remaining, acquired)
  for (int l = 0; l < m_lanes; ++l)
    if (m_lane[l].error) std::rethrow_exception(std::exchange(m_lane[l].error, nullptr));
}

// Claims lanes of `epoch` from `home` on: a lane is claimed once per epoch, by moving its claim from
// the previous epoch to this one (a thread that saw an older epoch claims nothing), and the job is
// read only after the claim (it cannot change before this lane is done). Lane 0 is the SystemC
// thread's alone: the links it commits are those whose wakes and events are kernel calls.
void EdgeSet::run_lanes(int home, uint32_t epoch) {
  const int saved = t_lane;
  for (int k = 0; k < m_lanes; ++k) {
    int l = home + k;
    if (l >= m_lanes) l -= m_lanes;
    if (l == 0 && home != 0) continue;
    Lane& lane = m_lane[size_t(l)];
    uint32_t prev = epoch - 1;
    if (lane.claim.load(std::memory_order_relaxed) != prev ||
        !lane.claim.compare_exchange_strong(prev, epoch, std::memory_order_acquire))
      continue;
    t_lane = l;
    try {
      m_job(m_job_ctx, l);
    } catch (...) {
      lane.error = std::current_exception();
    }
    if (m_remaining.fetch_sub(1) == 1 && m_main_asleep.load()) wake_all(m_remaining);
  }
  t_lane = saved;
}

// A worker spins for the next epoch, then sleeps until one is published (m_sleepers tells the main
// thread to wake it), and runs the lanes of the epoch's job it can claim, its own first.
void EdgeSet::worker(int lane) {
  uint32_t seen = 0;
  for (;;) {
    uint32_t epoch = seen;
    if (!spin_until([&] { return (epoch = m_epoch.load(std::memory_order_acquire)) != seen; })) {
      m_sleepers.fetch_add(1);
      while ((epoch = m_epoch.load()) == seen) sleep_while(m_epoch, seen);
      m_sleepers.fetch_sub(1);
    }
    if (m_stop.load()) return;
    seen = epoch;
    run_lanes(lane, epoch);
  }
}

void Waker::wake() {
  if (set) {
    set->wake(member, *this);
  } else {
    event->notify(sc_core::SC_ZERO_TIME);  // the module's process clears `sleeping` when it runs
  }
}

}  // namespace wormcast
