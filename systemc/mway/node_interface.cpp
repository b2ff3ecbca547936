// Node-interface behaviour: loading of the injection set and follow-up copies (docs/mway.md
// sections 6 and 8).
#include "systemc/mway/node_interface.h"

#include <algorithm>

#include "systemc/mway/copies.h"

namespace wormcast {

MwayNodeInterface::MwayNodeInterface(sc_core::sc_module_name name, const MwayShared& sh, int node)
    : sc_module(name),
      inj("inj", sh, MwayBufferSet::Role::Injection, sh.geo->node_way(), -1, node, sh.params->injection_buffers,
          sh.params->buffer_length),
      ej("ej", sh, MwayBufferSet::Role::Ejection, sh.geo->node_way(), node, node, sh.params->ejection_buffers,
         sh.params->buffer_length),
      m_sh(sh),
      m_node(node) {}

void MwayNodeInterface::enqueue(const MwayPacket& p, uint64_t created, bool report_inject) {
  m_queue.push_back(Item{p, created, report_inject});
}

void MwayNodeInterface::forward(const MwayPacket& p, uint64_t cycle) {
  for (const MwayPacket& c : mway_follow_ups(*m_sh.geo, m_sh.params->algorithm, p, m_node)) enqueue(c, cycle, false);
}

void MwayNodeInterface::add_replica_target(int orig, int rep) {
  // A replica inherits the loading of its original, whether the original is the row the message
  // was taken into or itself a replica of it (section 7: a replica may split again while the
  // message is still being written).
  if (m_loading < 0) return;
  const bool loaded = m_fault_nested ? orig == m_loading
                                     : std::find(m_targets.begin(), m_targets.end(), orig) != m_targets.end();
  if (!loaded) return;
  m_targets.push_back(rep);
  m_target_mask |= 1u << rep;
}

bool MwayNodeInterface::load(uint64_t e) {
  if (m_loading >= 0) {
    for (int r : m_targets)
      if (inj.entry(r).count == inj.capacity()) return true;  // no room: try again next edge
    const bool tail = m_next + 1 == m_len;
    for (int r : m_targets) inj.push(r, MwayFlitSlot{tail ? MwayTag::T : MwayTag::B, m_next});
    ++m_loaded;
    if (++m_next == m_len) {
      m_loading = -1;
      m_target_mask = 0;
    }
    return active();
  }
  if (m_queue.empty() || m_queue.front().created + 1 > e) return active();
  const int row = inj.amu().free_buffer();
  if (row < 0) return true;
  const Item it = m_queue.front();
  m_queue.pop_front();
  inj.write_header(row, -1, -1, it.pkt, e);
  ++m_loaded;
  inj.entry(row).report_inject = it.report_inject;
  m_loading = row;
  m_targets.assign(1, row);
  m_target_mask = 1u << row;
  m_next = 1;
  m_len = it.pkt.len;
  return true;
}

}  // namespace wormcast
