// What every router family reports while it runs: network-wide activity (progress and the
// watchdog) and the canonical per-hop event record (one record format for every router model).
#pragma once

#include <cstdint>

namespace wormcast {

/// Shared counters a network keeps over all its routers (progress and deadlock detection).
struct NetActivity {
  uint64_t last_move = 0;     ///< last cycle in which any flit left a router
  uint64_t switched = 0;      ///< flits that left routers, all routers
};

/// One switch traversal: cycle,router,in_port,out_port,vc,packet,flit,head,tail.
struct HopEvent {
  uint64_t cycle;
  int router;
  int in_port;
  int out_port;
  int vc;            ///< output VC (or buffer)
  uint64_t packet;   ///< packet id bits the flit carries
  uint32_t flit;     ///< flit index bits
  bool head, tail;
};

/// Receives every hop when tracing is on.
class HopObserver {
 public:
  virtual void on_hop(const HopEvent& e) = 0;

 protected:
  ~HopObserver() = default;
};

}  // namespace wormcast
