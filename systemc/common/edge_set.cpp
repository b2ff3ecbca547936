// The edge set's one process: wake the members woken before this edge, run the awake ones, in one
// lane or split among several threads.
#include "systemc/common/edge_set.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "systemc/common/clock.h"
#include "systemc/common/lanes.h"
#include "systemc/common/link_signal.h"

namespace wormcast {

namespace {
inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}
// A waiting thread spins this many rounds before it blocks (a worker) or yields (the main thread):
// about as long as a few edges of a busy network, so that a loaded run never blocks and an idle
// worker soon stops using its core.
constexpr int kSpinRounds = 20000;
// How many awake members ahead of the one running the edge set asks for state (EdgeMember::
// prefetch): far enough for the memory to answer while the members in between run.
constexpr int kPrefetchAhead = 2;
// Sets with fewer members than this do not prefetch: their members' state stays in the caches
// (an 8x8 torus: 64 routers of about 12 KiB), where the requests are instructions for nothing.
constexpr size_t kPrefetchMembers = 256;
}  // namespace

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
  {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_stop.store(true);
    m_epoch.fetch_add(1);
  }
  m_cv.notify_all();
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

void EdgeSet::set_lanes(int lanes, LinkBank* bank) {
  if (lanes < 1 || lanes > kMaxLanes) throw std::invalid_argument("edge set: lanes must be 1.." + std::to_string(kMaxLanes));
  if (!m_workers.empty()) throw std::logic_error("edge set: lanes are set once");
  m_lanes = lanes;
  m_bank = bank;
  if (lanes == 1) return;
  if (bank) bank->set_lanes(this);
  m_lane = std::make_unique<Lane[]>(size_t(lanes));
  for (int l = 1; l < lanes; ++l) m_workers.emplace_back([this, l] { worker(l); });
}

void EdgeSet::start_of_simulation() {
  m_lane_safe = m_lanes > 1 && m_bank != nullptr;
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
  g_edge_parity = int(t & 1);
  m_busy = false;
  if (m_lane_safe) {
    uint32_t awake = 0;
    for (uint64_t w : m_awake) awake += uint32_t(__builtin_popcountll(w));
    if (awake >= uint32_t(m_lanes * kMinPerLane)) {
      m_busy = true;
      m_edge_t = t;
      m_bank->wake_up();  // the lanes other than 0 cannot ask the kernel for the update
      run_job(&EdgeSet::edge_job, this);
      ++m_parallel_edges;
      for (int l = 0; l < m_lanes; ++l)
        for (uint32_t i : m_lane[l].slept) sleep(i);
      return;
    }
  }
  // In one lane a member sleeps at once: a member later in the same edge may wake it (a NIC core's
  // software submitting a packet to another node's port), which needs it marked sleeping.
  run_range(0, uint32_t(m_members.size()), t, [this](uint32_t i) { sleep(i); });
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

// Lane l's values in the link queues and its activity counts are its own; what the members of a
// lane read was committed by the same lane (systemc/common/link_signal.h).
void EdgeSet::run_job(Job job, void* ctx) {
  m_job = job;
  m_job_ctx = ctx;
  const uint64_t epoch = m_epoch.fetch_add(1) + 1;  // publishes the job and its data
  if (m_blocked.load() > 0) {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_cv.notify_all();
  }
  try {
    job(ctx, 0);
  } catch (...) {
    m_lane[0].error = std::current_exception();
  }
  for (int l = 1; l < m_lanes; ++l) {
    for (int spin = 0; m_lane[l].done.load(std::memory_order_acquire) != epoch; ++spin) {
      if (spin < kSpinRounds)
        cpu_relax();
      else
        std::this_thread::yield();
    }
  }
  for (int l = 0; l < m_lanes; ++l)
    if (m_lane[l].error) std::rethrow_exception(std::exchange(m_lane[l].error, nullptr));
  for (int l = 1; l < m_lanes; ++l) {
    for (uint32_t i : m_lane[l].woken) wake(i);
    m_lane[l].woken.clear();
  }
}

// A worker spins for the next epoch, then blocks until one is published (m_blocked tells the main
// thread to notify), runs its lane of the epoch's job and reports the epoch done.
void EdgeSet::worker(int lane) {
  t_lane = lane;
  uint64_t seen = 0;
  for (;;) {
    uint64_t epoch = m_epoch.load(std::memory_order_acquire);
    for (int spin = 0; epoch == seen && spin < kSpinRounds; ++spin) {
      cpu_relax();
      epoch = m_epoch.load(std::memory_order_acquire);
    }
    if (epoch == seen) {
      std::unique_lock<std::mutex> lock(m_mutex);
      m_blocked.fetch_add(1);
      m_cv.wait(lock, [&] { return (epoch = m_epoch.load()) != seen; });
      m_blocked.fetch_sub(1);
    }
    if (m_stop.load()) return;
    seen = epoch;
    Lane& me = m_lane[size_t(lane)];
    try {
      m_job(m_job_ctx, lane);
    } catch (...) {
      me.error = std::current_exception();
    }
    me.done.store(epoch, std::memory_order_release);
  }
}

}  // namespace wormcast
