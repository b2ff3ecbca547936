// Host-side watch over a gossip schedule run as node programs on any backend: every receipt is
// matched to its unicast, every send is checked against the chunks its node held at that moment,
// and at the end every node must hold every chunk (the data the models themselves do not carry).
#pragma once

#include <stdint.h>

#include <string>
#include <unordered_map>
#include <vector>

#include "sw/hal/node_api.h"
#include "sw/schedule/schedule.h"

namespace wormcast::sw {

struct GossipRunReport {
  bool complete = false;        ///< every node ends holding all N * chunks_per_node chunks
  int incomplete_nodes = 0;
  int missing_receipts = 0;     ///< unicasts of the schedule never received
  int unexpected_receipts = 0;  ///< receipts matching no unicast (or one received twice)
  /// Sends made before the sender held every chunk the unicast carries: in an asynchronous run
  /// the trigger let the send go early (a later step's receipt counted for an earlier one).
  int early_sends = 0;
  uint64_t last_receive = 0;            ///< largest now() of any receipt: the gossip's end
  std::vector<uint64_t> node_complete;  ///< per node, now() when it held everything (~0: never)
  std::vector<std::string> errors;      ///< the first few problems, one line each
  bool ok() const { return complete && missing_receipts == 0 && unexpected_receipts == 0 && early_sends == 0; }
};

/// Wraps one inner program per node. programs() go to the backend; report() after the run.
/// The schedule must outlive this object; inner programs are not owned.
class GossipRunWatch {
 public:
  GossipRunWatch(const Schedule& s, const std::vector<NodeProgram*>& inner);
  ~GossipRunWatch();
  GossipRunWatch(const GossipRunWatch&) = delete;
  GossipRunWatch& operator=(const GossipRunWatch&) = delete;
  std::vector<NodeProgram*> programs();
  GossipRunReport report() const;
  /// What programs() report, for a backend that runs the node programs elsewhere (the RV32 cores'
  /// firmware): a receipt seen by node's software at `now`, and a send it made.
  void on_receive(int node, const Delivery& d, uint64_t now);
  void on_send(int node, int dst, uint32_t tag);

 private:
  class Node;
  class Api;
  friend class Node;
  friend class Api;
  uint64_t key(int src, int dst, int step) const;
  void error(const std::string& e);

  const Schedule& m_s;
  std::vector<NodeProgram*> m_inner;
  std::vector<Node> m_nodes;
  std::unordered_map<uint64_t, size_t> m_index;  ///< (src, dst, step) -> unicast
  std::vector<bool> m_received;
  std::vector<ChunkSet> m_hold;
  std::vector<uint64_t> m_complete_at;
  int m_total_chunks = 0;
  int m_unexpected = 0;
  int m_early = 0;
  uint64_t m_last = 0;
  std::vector<std::string> m_errors;
};

}  // namespace wormcast::sw
