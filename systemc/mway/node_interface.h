// Node interface of an m-way channel (docs/mway.md section 6): the source queue, the injection
// buffer set (driver 2n), the ejection buffer set (way 2n), and the follow-up copies of
// forwarded packets (MST-unicast, recursive doubling, entry into a Region).
#pragma once

#include <deque>
#include <vector>

#include <systemc>

#include "systemc/mway/buffer_set.h"

namespace wormcast {

class MwayNodeInterface : public sc_core::sc_module {
 public:
  MwayNodeInterface(sc_core::sc_module_name name, const MwayShared& sh, int node);

  int node() const { return m_node; }
  /// Queue one packet copy (created: the cycle it is generated).
  void enqueue(const MwayPacket& p, uint64_t created, bool report_inject);
  /// The follow-up copies of a forwarded packet whose tail arrived here in cycle `cycle`.
  void forward(const MwayPacket& p, uint64_t cycle);
  /// Edge e, step 3: write at most one flit into the injection set. True while work remains.
  bool load(uint64_t e);
  bool active() const { return m_loading >= 0 || !m_queue.empty(); }
  size_t queued() const { return m_queue.size(); }
  /// A replica of injection row `orig` was made in row `rep`: it is loaded alongside.
  void add_replica_target(int orig, int rep);

  MwayBufferSet inj;
  MwayBufferSet ej;

 private:
  struct Item {
    MwayPacket pkt;
    uint64_t created;
    bool report_inject;
  };
  const MwayShared& m_sh;
  int m_node;
  std::deque<Item> m_queue;
  int m_loading = -1;             ///< injection row being written, -1 none
  std::vector<int> m_targets;     ///< rows written with it (the row and its replicas)
  uint32_t m_next = 0;            ///< next flit index
  uint32_t m_len = 0;
};

}  // namespace wormcast
