// NIC core behaviour: the t_s send model, packetizer, reassembly and the TLM-2.0 register target.
#include "systemc/nic/nic.h"

#include <algorithm>
#include <cstring>
#include <iostream>

#include "systemc/common/clock.h"

namespace wormcast {

void TxDescriptor::pack(unsigned char* out) const {
  const uint32_t w[4] = {dst, length, tag, flags};
  std::memcpy(out, w, sizeof w);
}

TxDescriptor TxDescriptor::unpack(const unsigned char* in) {
  uint32_t w[4];
  std::memcpy(w, in, sizeof w);
  return TxDescriptor{w[0], w[1], w[2], w[3]};
}

void RxDescriptor::pack(unsigned char* out) const {
  const uint32_t w[4] = {uint32_t(d.src), d.tag, d.length, 0};
  std::memcpy(out, w, sizeof w);
  std::memcpy(out + 16, &d.arrival, 8);
  std::memcpy(out + 24, &d.visible, 8);
}

RxDescriptor RxDescriptor::unpack(const unsigned char* in) {
  RxDescriptor r;
  uint32_t w[4];
  std::memcpy(w, in, sizeof w);
  r.d.src = int(w[0]);
  r.d.tag = w[1];
  r.d.length = w[2];
  std::memcpy(&r.d.arrival, in + 16, 8);
  std::memcpy(&r.d.visible, in + 24, 8);
  return r;
}

Nic::Nic(sc_core::sc_module_name name, const NicConfig& cfg, int node, int num_nodes, Scoreboard* sb,
         PacketListener* listener, bool software)
    : sc_module(name), m_cfg(cfg), m_node(node), m_num_nodes(num_nodes), m_sb(sb), m_listener(listener) {
  if (!software) return;
  m_sw = std::make_unique<Software>();  // in the constructor: its objects are this module's children
  m_sw->socket.register_b_transport(this, &Nic::b_transport);
  m_sw->socket.register_transport_dbg(this, &Nic::transport_dbg);
  SC_HAS_PROCESS(Nic);
  SC_METHOD(update_irq);
  sensitive << m_sw->rx_event << m_sw->rx_popped;
  dont_initialize();
}

Nic::Software& Nic::software() {
  if (!m_sw) SC_REPORT_FATAL("wormcast/nic", (std::string(name()) + ": built without node software (no socket, interrupt or receive queue)").c_str());
  return *m_sw;
}

void Nic::update_irq() {
  if (m_sw->irq.size() == 0) return;
  const bool level = has_rx(current_cycle());
  if (m_sw->irq->read() != level) m_sw->irq->write(level);
}

void Nic::start_of_simulation() {
  if (!m_rx_set) m_rx_enabled = m_sw && m_sw->socket.size() > 0;
}

bool Nic::rx_readable(const char* reg) {
  if (m_rx_enabled) return true;
  if (!m_rx_refused)
    std::cerr << name() << ": " << reg << " read with the receive queue off (TLM error response); call "
              << "enable_rx_queue(true) before the simulation starts, or bind the NIC's socket\n";
  m_rx_refused = true;
  return false;
}

uint32_t Nic::visible_count(uint64_t now) const {
  uint32_t n = 0;
  for (size_t i = 0; i < m_rx.size(); ++i) n += m_rx[i].visible <= now;
  return n;
}

unsigned int Nic::transport_dbg(tlm::tlm_generic_payload& trans) {
  const uint64_t addr = trans.get_address();
  const unsigned len = trans.get_data_length();
  if (!trans.is_read()) return 0;
  if ((addr == nic_reg::kRxCount || addr == nic_reg::kRxPop) && !m_rx_enabled) return 0;
  if (addr == nic_reg::kRxCount && len >= 4) {
    const uint32_t n = visible_count(current_cycle());
    std::memcpy(trans.get_data_ptr(), &n, 4);
    return 4;
  }
  if (addr == nic_reg::kRxPop && len >= RxDescriptor::kBytes && has_rx(current_cycle())) {
    RxDescriptor{m_rx.front()}.pack(trans.get_data_ptr());
    return RxDescriptor::kBytes;
  }
  if (addr == nic_reg::kRxData) {
    const unsigned n = unsigned(std::min<size_t>(len, popped_data().size()));
    std::memcpy(trans.get_data_ptr(), popped_data().data(), n);
    return n;
  }
  return 0;
}

void Nic::attach(NicPort* port) {
  m_port = port;
  if (port->channels() > 32) SC_REPORT_FATAL("wormcast/nic", "a NIC port has more than 32 injection channels");
  m_queues.assign(size_t(port->channels()), Ring<OutPacket>(0));
}

uint64_t Nic::submit(const Destination& dst, uint32_t length, bool tie, uint32_t tag, uint64_t now,
                     std::shared_ptr<const std::vector<uint8_t>> data) {
  const uint64_t start = now > m_cpu_free ? now : m_cpu_free;
  m_cpu_free = start + uint64_t(m_cfg.ts);
  const uint64_t message = m_next_message++ * uint64_t(m_num_nodes) + uint64_t(m_node);
  const uint32_t max = uint32_t(m_cfg.max_packet);
  const uint32_t packets = (length + max - 1) / max;
  auto group = m_port->group_of(dst);
  m_last_targets = group ? group->size() : 1;
  const int channel = m_port->channel_for(dst, tie);
  Ring<OutPacket>& q = m_queues[size_t(channel)];
  m_queued |= uint32_t(1) << channel;
  for (uint32_t i = 0; i < packets; ++i) {
    // Filled in its queue slot (reset by the queue): no packet built on the stack and moved in.
    OutPacket& op = q.emplace_back();
    op.rec.id = m_next_packet++ * uint64_t(m_num_nodes) + uint64_t(m_node);
    op.rec.src = m_node;
    op.rec.dst = group ? -1 : dst.node;
    op.rec.group = group;
    op.rec.length = i + 1 < packets ? max : length - max * (packets - 1);
    op.rec.message = message;
    op.rec.msg_length = length;
    op.rec.msg_packets = packets;
    op.rec.tag = tag;
    op.rec.data = data;
    op.rec.created = now;
    op.rec.ready = m_cpu_free;
    op.dest = dst;
    op.ready = m_cpu_free;
    op.tie = tie;
  }
  m_backlog += packets;
  m_port->wake();
  return m_cpu_free;
}

size_t Nic::targets_of(const Destination& d) const {
  auto group = m_port->group_of(d);
  return group ? group->size() : 1;
}

void Nic::sent_flit(int c, uint64_t t) {
  OutPacket& op = m_queues[size_t(c)].front();
  if (op.sent == 0) {
    op.rec.injected = t;
    m_sb->on_inject(op.rec);
  }
  if (++op.sent == op.rec.length) {
    m_queues[size_t(c)].pop_front();
    if (m_queues[size_t(c)].empty()) m_queued &= ~(uint32_t(1) << c);
    --m_backlog;
  }
}

uint64_t Nic::next_ready() const {
  // Each channel's queue is in submission order, and so in order of readiness (the processor's
  // free cycle only grows): its front is its earliest packet.
  uint64_t first = ~uint64_t(0);
  for (const auto& q : m_queues)
    if (!q.empty() && q.front().ready < first) first = q.front().ready;
  return first;
}

void Nic::received_flit(uint64_t t, const FlitView& f) {
  const PacketRecord* rec = m_sb->on_eject(m_node, t, f);
  if (!rec) return;
  if (m_listener) m_listener->on_packet(*rec);
  if (rec->msg_packets != 1) {
    auto it = m_partial.emplace(rec->message, 0).first;
    if (++it->second != rec->msg_packets) return;
    m_partial.erase(it);
  }
  ++m_messages_received;
  if (!m_rx_enabled) return;
  sw::Delivery d;
  d.src = rec->src;
  d.tag = rec->tag;
  d.length = rec->msg_length;
  d.arrival = rec->arrived;
  d.visible = rec->arrived + uint64_t(m_cfg.tr);
  m_rx.emplace_back(d);
  m_rx_data.emplace_back(rec->data);
  m_sw->rx_event.notify(cycle_time() * double(d.visible) - sc_core::sc_time_stamp());
}

sw::Delivery Nic::pop_rx() {
  sw::Delivery d = m_rx.front();
  m_rx.pop_front();
  m_popped_data = m_rx_data.front();
  m_rx_data.pop_front();
  if (m_sw && m_sw->irq.size()) m_sw->rx_popped.notify(sc_core::SC_ZERO_TIME);
  return d;
}

const std::vector<uint8_t>& Nic::popped_data() const {
  static const std::vector<uint8_t> none;
  return m_popped_data ? *m_popped_data : none;
}

void Nic::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  const uint64_t addr = trans.get_address();
  unsigned char* data = trans.get_data_ptr();
  const unsigned len = trans.get_data_length();
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
  const uint64_t now = current_cycle() + uint64_t(delay.value() / cycle_time().value());
  if (addr == nic_reg::kTx && trans.is_write() && len == TxDescriptor::kBytes) {
    const TxDescriptor tx = TxDescriptor::unpack(data);
    if (int(tx.dst) >= m_num_nodes || tx.length == 0) {
      trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
      return;
    }
    if (m_tx_data.size() > size_t(tx.length) * nic_reg::kBytesPerFlit) {  // more data than the message holds
      trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
      return;
    }
    std::shared_ptr<const std::vector<uint8_t>> bytes;
    if (!m_tx_data.empty()) bytes = std::make_shared<const std::vector<uint8_t>>(std::move(m_tx_data));
    m_tx_data.clear();
    const uint64_t free_at = submit(Destination::to(int(tx.dst)), tx.length, tx.flags & nic_reg::kFlagTie, tx.tag, now, bytes);
    delay += cycle_time() * double(free_at - now);
  } else if (addr == nic_reg::kTxData && trans.is_write() && len > 0 && len <= 4096u * nic_reg::kBytesPerFlit) {
    m_tx_data.assign(data, data + len);
  } else if (addr == nic_reg::kRxData && trans.is_read() && len <= popped_data().size()) {
    std::memcpy(data, popped_data().data(), len);
  } else if (addr == nic_reg::kRxPop && trans.is_read() && len == RxDescriptor::kBytes) {
    if (!rx_readable("kRxPop") || !has_rx(now)) {
      trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
      return;
    }
    RxDescriptor{pop_rx()}.pack(data);
  } else if (addr == nic_reg::kRxCount && trans.is_read() && len == 4) {
    if (!rx_readable("kRxCount")) {
      trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
      return;
    }
    const uint32_t n = visible_count(now);
    std::memcpy(data, &n, 4);
  } else {
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
  }
}

}  // namespace wormcast
