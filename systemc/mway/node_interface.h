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
  /// Flits (headers included) load() has written so far.
  uint64_t loaded() const { return m_loaded; }
  size_t queued() const { return m_queue.size(); }
  /// Packet id of the k-th queued copy (k < queued()).
  uint64_t queued_packet(size_t k) const { return m_queue[k].pkt.id; }
  /// Packet id of the message being loaded (valid while load_targets() != 0).
  uint64_t loading_packet() const { return m_loading >= 0 ? inj.entry(m_loading).pkt.id : 0; }
  /// A replica of injection row `orig` was made in row `rep`: when `orig` is one of the rows
  /// being loaded (the first row or any replica of it, however nested), `rep` is loaded alongside.
  void add_replica_target(int orig, int rep);
  /// Rows the loader still has to write (the message being loaded, each of its copies), as a
  /// mask over the injection set; 0 when no message is being loaded.
  uint32_t load_targets() const { return m_target_mask; }
  /// Index of the next flit the loader writes (valid while load_targets() != 0).
  uint32_t next_flit() const { return m_next; }
  /// For the waveform: the variables behind load_targets() and next_flit().
  const uint32_t& target_mask() const { return m_target_mask; }
  const uint32_t& next_flit_ref() const { return m_next; }
  /// Test hook, never set by the model: true reproduces a known fault (a replica of a replica
  /// made during loading is not loaded; its receivers never get the rest of the message), so the
  /// completion checks can be shown to classify it.
  void set_fault_skip_nested_replicas(bool on) { m_fault_nested = on; }

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
  uint32_t m_target_mask = 0;     ///< m_targets as a mask while loading, else 0
  uint32_t m_next = 0;            ///< next flit index
  uint32_t m_len = 0;
  uint64_t m_loaded = 0;
  bool m_fault_nested = false;
};

}  // namespace wormcast
