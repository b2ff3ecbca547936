// NIC behaviour: the t_s send model, packetizer, injection per channel, reassembly and the
// TLM-2.0 register target.
#include "systemc/nic/nic.h"

#include <cstring>

#include "systemc/common/clock.h"
#include "systemc/common/link_signal.h"

namespace wormcast {

Nic::Nic(sc_core::sc_module_name name, const NicConfig& cfg, const RouterParams& rp,
         const sw::Topology& topo, int node, Scoreboard* sb, PacketListener* listener)
    : sc_module(name),
      inj_out("inj", rp.local),
      inj_credit("inj_credit", rp.local),
      ej_in("ej", rp.local),
      ej_credit("ej_credit", rp.local),
      m_cfg(cfg),
      m_rp(rp),
      m_topo(topo),
      m_node(node),
      m_num_nodes(topo.num_nodes()),
      m_sb(sb),
      m_listener(listener),
      m_ch(size_t(rp.local)),
      m_ej_credit_valid(size_t(rp.local), 0) {
  for (auto& ch : m_ch) ch.credits.assign(size_t(rp.num_vcs), rp.buffer_depth);
  socket.register_b_transport(this, &Nic::b_transport);
  SC_HAS_PROCESS(Nic);
  SC_METHOD(falling_edge);
  sensitive << clk.neg();
  dont_initialize();
}

uint64_t Nic::submit(int dst, uint32_t length, bool tie, uint32_t tag, uint64_t now) {
  const uint64_t start = now > m_cpu_free ? now : m_cpu_free;
  m_cpu_free = start + uint64_t(m_cfg.ts);
  const uint64_t message = m_next_message++ * uint64_t(m_num_nodes) + uint64_t(m_node);
  const uint32_t max = uint32_t(m_cfg.max_packet);
  const uint32_t packets = (length + max - 1) / max;
  int channel = 0;
  if (m_rp.local > 1) {
    const sw::RouteStep first = m_topo.route(m_node, dst, tie);
    channel = first.port < 0 ? 0 : first.port;
  }
  Channel& ch = m_ch[size_t(channel)];
  for (uint32_t i = 0; i < packets; ++i) {
    OutPacket op;
    op.rec.id = m_next_packet++ * uint64_t(m_num_nodes) + uint64_t(m_node);
    op.rec.src = m_node;
    op.rec.dst = dst;
    op.rec.length = i + 1 < packets ? max : length - max * (packets - 1);
    op.rec.message = message;
    op.rec.msg_length = length;
    op.rec.msg_packets = packets;
    op.rec.tag = tag;
    op.rec.created = now;
    op.rec.ready = m_cpu_free;
    op.ready = m_cpu_free;
    op.tie = tie;
    ch.queue.push_back(op);
  }
  m_backlog += packets;
  if (m_sleeping) m_submitted.notify(sc_core::SC_ZERO_TIME);
  return m_cpu_free;
}

sw::Delivery Nic::pop_rx() {
  sw::Delivery d = m_rx.front();
  m_rx.pop_front();
  return d;
}

void Nic::end_of_elaboration() {
  m_wake |= m_submitted;
  for (int c = 0; c < m_rp.local; ++c) {
    m_ej_val.push_back(&ej_in[c]->read());
    m_inj_credit_val.push_back(&inj_credit[c]->read());
    watch_input(ej_in[c], &m_submitted, &m_sleeping, m_wake);
    watch_input(inj_credit[c], &m_submitted, &m_sleeping, m_wake);
  }
}

void Nic::falling_edge() {
  if (m_sleeping) {  // woken; act at the next falling edge
    m_sleeping = false;
    return;
  }
  const uint64_t t = current_cycle();
  const int nv = m_rp.num_vcs;

  if (!m_pending_credits.empty()) {
    size_t keep = 0;
    for (auto& pc : m_pending_credits) {
      if (pc.first <= t)
        ++m_ch[size_t(pc.second / nv)].credits[size_t(pc.second % nv)];
      else
        m_pending_credits[keep++] = pc;
    }
    m_pending_credits.resize(keep);
  }

  // (1) Injection flits of cycle t, from the state only.
  for (int c = 0; c < m_rp.local; ++c) {
    Channel& ch = m_ch[size_t(c)];
    bool drive = false;
    if (!ch.busy && !ch.queue.empty() && ch.queue.front().ready <= t) {
      ch.busy = true;
      ch.vc = ch.next_vc;
      ch.next_vc = (ch.next_vc + 1) % nv;
      ch.sent = 0;
    }
    if (ch.busy && ch.credits[size_t(ch.vc)] > 0) {
      OutPacket& op = ch.queue.front();
      Flit f;
      f.valid = true;
      f.head = ch.sent == 0;
      f.tail = ch.sent + 1 == op.rec.length;
      f.tie = op.tie;
      f.vc = uint8_t(ch.vc);
      f.dst = uint16_t(op.rec.dst);
      f.payload = make_payload(op.rec.id, ch.sent);
      if (f.head) {
        op.rec.injected = t;
        m_sb->on_inject(op.rec);
      }
      inj_out[c].write(f);
      drive = true;
      --ch.credits[size_t(ch.vc)];
      if (++ch.sent == op.rec.length) {
        ch.queue.pop_front();
        ch.busy = false;
        --m_backlog;
      }
    }
    if (!drive && ch.drove) inj_out[c].write(Flit{});
    ch.drove = drive;
  }

  // (2) Sample the router's outputs of cycle t.
  bool quiet = true;  // sleeping needs all-invalid inputs (see TorusRouter::tick)
  for (int c = 0; c < m_rp.local; ++c) {
    const Credit& cr = *m_inj_credit_val[size_t(c)];
    if (cr.valid) {
      quiet = false;
      if (m_rp.credit_delay == 0)
        ++m_ch[size_t(c)].credits[size_t(cr.vc)];
      else
        m_pending_credits.emplace_back(t + 1 + uint64_t(m_rp.credit_delay), c * nv + cr.vc);
    }
    const Flit& f = *m_ej_val[size_t(c)];
    // (3) Ejection credits of cycle t for the flits just taken.
    if (f.valid) {
      quiet = false;
      ej_credit[c].write(Credit{true, f.vc});
      m_ej_credit_valid[size_t(c)] = 1;
      PacketRecord done;
      if (const PacketRecord* rec = m_sb->on_eject(m_node, t, f, done)) {
        if (m_listener) m_listener->on_packet(*rec);
        bool complete = rec->msg_packets == 1;
        if (!complete) {
          auto it = m_partial.find(rec->message);
          if (it == m_partial.end()) it = m_partial.emplace(rec->message, Partial{}).first;
          if (++it->second.packets == rec->msg_packets) {
            complete = true;
            m_partial.erase(it);
          }
        }
        if (complete) {
          ++m_messages_received;
          if (m_rx_enabled) {
            sw::Delivery d;
            d.src = rec->src;
            d.tag = rec->tag;
            d.length = rec->msg_length;
            d.arrival = rec->arrived;
            d.visible = rec->arrived + uint64_t(m_cfg.tr);
            m_rx.push_back(d);
            m_rx_event.notify(cycle_time() * double(d.visible) - sc_core::sc_time_stamp());
          }
        }
      }
    } else if (m_ej_credit_valid[size_t(c)]) {
      ej_credit[c].write(Credit{});
      m_ej_credit_valid[size_t(c)] = 0;
    }
  }

  bool idle = quiet && m_pending_credits.empty();
  for (int c = 0; idle && c < m_rp.local; ++c) {
    const Channel& ch = m_ch[size_t(c)];
    idle = !ch.busy && ch.queue.empty() && !ch.drove && !m_ej_credit_valid[size_t(c)];
  }
  if (idle) {
    m_sleeping = true;
    next_trigger(m_wake);
  }
}

void Nic::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  const uint64_t addr = trans.get_address();
  unsigned char* data = trans.get_data_ptr();
  const unsigned len = trans.get_data_length();
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
  const uint64_t now = current_cycle() + uint64_t(delay.value() / cycle_time().value());
  if (addr == nic_reg::kTx && trans.is_write() && len == 16) {
    uint32_t w[4];
    std::memcpy(w, data, sizeof w);
    if (int(w[0]) >= m_num_nodes || w[1] == 0) {
      trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
      return;
    }
    const uint64_t free_at = submit(int(w[0]), w[1], w[3] & nic_reg::kFlagTie, w[2], now);
    delay += cycle_time() * double(free_at - now);
  } else if (addr == nic_reg::kRxPop && trans.is_read() && len == 32) {
    if (!has_rx(now)) {
      trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
      return;
    }
    const sw::Delivery d = pop_rx();
    uint32_t w[4] = {uint32_t(d.src), d.tag, d.length, 0};
    std::memcpy(data, w, sizeof w);
    std::memcpy(data + 16, &d.arrival, 8);
    std::memcpy(data + 24, &d.visible, 8);
  } else if (addr == nic_reg::kRxCount && trans.is_read() && len == 4) {
    uint32_t n = 0;
    for (auto& d : m_rx) n += d.visible <= now;
    std::memcpy(data, &n, 4);
  } else {
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
  }
}

}  // namespace wormcast
