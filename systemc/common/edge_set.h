// Modules that act at one clock edge, run by one process of the network in a fixed order instead
// of one process each, and how a sleeping module is woken (docs/router.md section 5.7).
//
// Per edge the set runs every awake member once, in the order they were added (the network adds
// them in node order); a member that reports itself idle sleeps until woken. A member woken at
// simulation time T acts at the first edge of the set after T: a wake in the same time step as an
// edge (in an earlier or later delta cycle) waits for the next edge, exactly as a module with its
// own process that re-arms itself for the next edge when woken.
#pragma once

#include <cstdint>
#include <vector>

#include <systemc>

namespace wormcast {

class EdgeSet;

/// One module's sleep state and how to wake it: through its own process's event (a module that
/// runs its own process) or through its place in an EdgeSet (a module the network runs).
struct Waker {
  bool sleeping = false;
  sc_core::sc_event* event = nullptr;
  EdgeSet* set = nullptr;
  uint32_t member = 0;
  /// Call only while sleeping.
  inline void wake();
};

/// What an EdgeSet runs.
class EdgeMember {
 public:
  virtual ~EdgeMember() = default;
  /// Acts at the edge of cycle t; false: the member is idle and sleeps until woken.
  virtual bool on_edge(uint64_t t) = 0;
};

class EdgeSet : public sc_core::sc_module {
 public:
  sc_core::sc_in<bool> clk{"clk"};

  /// rising: the set acts at rising edges, else at falling edges.
  EdgeSet(sc_core::sc_module_name name, bool rising);
  /// Adds a member, awake, acting from the first edge on; its waker then wakes it through this set.
  void add(EdgeMember* member, Waker* waker);
  size_t size() const { return m_members.size(); }
  /// Member i, sleeping, acts again from the first edge after now.
  void wake(uint32_t i) {
    const uint64_t now = sc_core::sc_time_stamp().value();
    if (now != m_now_stamp) {
      m_woken.insert(m_woken.end(), m_woken_now.begin(), m_woken_now.end());
      m_woken_now.clear();
      m_now_stamp = now;
    }
    m_woken_now.push_back(i);
  }

 private:
  void run();

  std::vector<EdgeMember*> m_members;
  std::vector<Waker*> m_wakers;
  std::vector<uint64_t> m_awake;        ///< bit i: member i acts at the next edge
  std::vector<uint32_t> m_woken;        ///< woken before m_now_stamp
  std::vector<uint32_t> m_woken_now;    ///< woken at time m_now_stamp
  uint64_t m_now_stamp = 0;
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

inline void Waker::wake() {
  if (set) {
    sleeping = false;
    set->wake(member);
  } else {
    event->notify(sc_core::SC_ZERO_TIME);  // the module's process clears `sleeping` when it runs
  }
}

}  // namespace wormcast
