// Torus NIC port: injection per channel and VC under credits, ejection and its credits.
#include "systemc/torus/nic_port.h"

#include <fmt/format.h>

#include "systemc/common/clock.h"
#include "systemc/kernel/link_signal.h"
#include "systemc/common/model_error.h"
#include "systemc/torus/valiant.h"

namespace wormcast {

TorusNicPort::TorusNicPort(sc_core::sc_module_name name, Nic& core, const RouterParams& rp, const sw::Topology& topo,
                           const PortRouting* routing, uint64_t seed, EdgeSet* edges, bool plain)
    : sc_module(name),
      inj_out("inj", plain ? 0 : rp.local),
      inj_credit("inj_credit", plain ? 0 : rp.local),
      ej_in("ej", plain ? 0 : rp.local),
      ej_credit("ej_credit", plain ? 0 : rp.local),
      m_core(core),
      m_rp(rp),
      m_topo(topo),
      m_routing(routing),
      m_seed(seed),
      m_node(core.node()),
      m_edges(edges),
      m_ch(size_t(rp.local)),
      m_credits(rp.local * rp.num_vcs, rp.buffer_depth, rp.injection_credit_delay),
      // The delay lines exist only with a delay (a ring of 0 slots allocates nothing).
      m_ejecting(rp.ejection_delay > 0 ? size_t(rp.local) * size_t(rp.ejection_delay + 1) : 0),
      m_ej_held(rp.ejection_credit_delay > 0 ? size_t(rp.local) * size_t(rp.ejection_credit_delay + 1) : 0) {
  if (rp.injection_delay > 0)
    for (Channel& ch : m_ch) ch.wire = Ring<std::pair<uint64_t, Flit>>(size_t(rp.injection_delay + 1));
  core.attach(this);
  if (plain) {
    if (!edges) SC_REPORT_FATAL("wormcast/nic", (std::string(this->name()) + ": plain links need an edge set").c_str());
    m_inj.resize(size_t(rp.local));
    m_ej_credit.resize(size_t(rp.local));
    for (int b = 0; b < 2; ++b) {
      m_ej_val[b].assign(size_t(rp.local), nullptr);
      m_inj_credit_val[b].assign(size_t(rp.local), nullptr);
    }
    m_boxed = true;
  } else {
    m_wake = std::make_unique<OwnWake>("submitted_event");  // port objects: the wake event and the or-list of inputs
  }
  if (edges) {
    edges->add(this, &m_waker);
    return;
  }
  m_waker.event = &m_wake->event;
  SC_HAS_PROCESS(TorusNicPort);
  // Armed for each falling edge while awake, for its wake event while asleep (as the router).
  SC_METHOD(falling_edge);
}

int TorusNicPort::channel_for(const Destination& d, bool tie) const {
  if (m_rp.local == 1) return 0;
  if (m_routing) {
    const int port = m_routing->route(m_node, -1, -1, d.node, tie).port;
    return port < 0 ? 0 : port;
  }
  const sw::RouteStep first = m_topo.route(m_node, d.node, tie);
  return first.port < 0 ? 0 : first.port;
}

std::shared_ptr<const std::vector<int>> TorusNicPort::group_of(const Destination& d) const {
  if (d.is_region() || d.node < 0 || d.node >= m_topo.num_nodes())
    throw ConfigError(fmt::format("node {}: the torus NIC sends to one node 0..{}, not to a region", m_node,
                                  m_topo.num_nodes() - 1));
  return nullptr;
}

void TorusNicPort::end_of_elaboration() {
  if (ej_in.size() == 0) {  // plain links: wired by the network
    for (int b = 0; b < 2; ++b)
      for (int c = 0; c < m_rp.local; ++c)
        if (!m_ej_val[b][size_t(c)] || !m_inj_credit_val[b][size_t(c)])
          SC_REPORT_FATAL("wormcast/nic", (std::string(name()) + ": plain link input not wired").c_str());
    return;
  }
  m_wake->any |= m_wake->event;
  for (int c = 0; c < m_rp.local; ++c) {
    m_inj.emplace_back();
    m_ej_credit.emplace_back();
    if (!m_inj.back().bind(inj_out[c]) || !m_ej_credit.back().bind(ej_credit[c]))
      SC_REPORT_FATAL("wormcast/nic", (std::string(name()) + ": an output is not bound to a signal").c_str());
    m_ej_val[0].push_back(&ej_in[c]->read());
    m_inj_credit_val[0].push_back(&inj_credit[c]->read());
    const uint32_t bit = uint32_t(1) << c;
    m_watch_all &= watch_input(ej_in[c], &m_waker, m_wake->any, m_ej_valid, bit);
    m_watch_all &= watch_input(inj_credit[c], &m_waker, m_wake->any, m_cr_valid, bit);
  }
  if (m_edges && !m_watch_all)
    SC_REPORT_FATAL("wormcast/nic", (std::string(name()) + ": run by an edge set with an input not bound to a LinkSignal").c_str());
}

void TorusNicPort::use_mailboxes() {
  if (!m_edges) SC_REPORT_FATAL("wormcast/nic", (std::string(name()) + ": mailbox links need an edge set").c_str());
  m_boxed = true;
  for (auto& w : m_inj) w.refresh();
  for (auto& w : m_ej_credit) w.refresh();
  if (!point_at_boxes(ej_in, m_ej_val) || !point_at_boxes(inj_credit, m_inj_credit_val))
    SC_REPORT_FATAL("wormcast/nic", (std::string(name()) + ": an input is not a mailbox link").c_str());
}

void TorusNicPort::prefetch() const {
  __builtin_prefetch(&m_ej_valid);
  __builtin_prefetch(&m_drove);
  __builtin_prefetch(m_ch.data());
  __builtin_prefetch(&m_credits.counter(0));
  __builtin_prefetch(m_ej_val[0].data());
  __builtin_prefetch(m_ej_val[1].data());
  __builtin_prefetch(m_inj_credit_val[0].data());
  __builtin_prefetch(m_inj_credit_val[1].data());
  __builtin_prefetch(m_inj.data());
  __builtin_prefetch(m_ej_credit.data());
  m_core.prefetch();
}

// Stage 1: the object's lines from its first member after the core's reference on (the edge's
// state); stage 2: what they point to.
void TorusNicPort::prefetch_cold(int stage) const {
  if (stage == 1) {
    for (const char* c = reinterpret_cast<const char*>(&m_rp); c < reinterpret_cast<const char*>(this + 1); c += 64)
      __builtin_prefetch(c);
  } else if (stage == kBandStages - 1) {
    prefetch();
  }
}

void TorusNicPort::falling_edge() {
  step_own_process(*this, m_waker, m_armed, clk.negedge_event(), m_wake->any, current_cycle());
}

bool TorusNicPort::on_edge(uint64_t t) { return m_boxed ? edge<true>(t) : edge<false>(t); }

template <bool Boxed>
bool TorusNicPort::edge(uint64_t t) {
  const int nv = m_rp.num_vcs;

  if (!m_credits.mature(t)) model_error("wormcast/nic", name(), "credit above buffer depth");

  // Flits whose ejection channel delay is over reach the core, in the order they left the router.
  while (!m_ejecting.empty() && m_ejecting.front().first <= t) {
    m_core.received_flit(t, m_ejecting.front().second);
    m_ejecting.pop_front();
  }

  // (1) Injection flits of cycle t, from the state only. With an injection channel delay D the flit
  // chosen at falling edge t (its credit taken, its injection counted) is driven at t + D. Only the
  // channels with something to do: a queued or unfinished packet, a delayed flit, a valid output.
  for (uint32_t m = m_core.queued_mask() | m_busy | m_drove | m_wired; m; m &= m - 1) {
    const int c = __builtin_ctz(m);
    const uint32_t bit = uint32_t(1) << c;
    Channel& ch = m_ch[size_t(c)];
    bool drive = false;
    if ((m_wired & bit) && ch.wire.front().first == t) {
      m_inj[size_t(c)].begin_as<Boxed>() = ch.wire.front().second;  // a valid flit
      m_inj[size_t(c)].end_as<Boxed>();
      ch.wire.pop_front();
      if (ch.wire.empty()) m_wired &= ~bit;
      drive = true;
    }
    OutPacket* op = m_core.front(c);
    if (!(m_busy & bit) && op && op->ready <= t) {
      int vc = ch.next_vc;
      if (m_rp.injection_vc_free) {  // the first VC in turn with a credit, else wait (docs/router.md 8)
        int i = 0;
        while (i < nv && m_credits.credits(c * nv + vc) == 0) {
          if (++vc == nv) vc = 0;
          ++i;
        }
        if (i == nv) vc = -1;
      }
      if (vc >= 0) {
        m_busy |= bit;
        ch.vc = vc;
        ch.next_vc = vc + 1 == nv ? 0 : vc + 1;
      }
    }
    if ((m_busy & bit) && m_credits.credits(c * nv + ch.vc) > 0) {
      // Built in place in the link's write slot (or, delayed, in the channel's wire).
      const bool now = m_rp.injection_delay == 0;
      if (!now) {
        ch.wire.emplace_back(t + uint64_t(m_rp.injection_delay), Flit{});
        m_wired |= bit;
      }
      Flit& f = now ? m_inj[size_t(c)].begin_as<Boxed>() : ch.wire.back().second;
      f = Flit{};
      f.valid = true;
      f.head = op->sent == 0;
      f.tail = op->sent + 1 == op->rec.length;
      f.tie = op->tie;
      f.vc = uint8_t(ch.vc);
      f.dst = uint32_t(op->rec.dst);
      f.payload = make_payload(op->rec.id, op->sent);
      if (f.head && m_rp.valiant) {  // the intermediate node travels with the head (docs/router.md 13)
        const int mid = valiant_intermediate(m_seed, op->rec.id, m_topo.num_nodes());
        f.mid = uint16_t(mid);
        op->rec.via = mid;  // before sent_flit: the scoreboard's record keeps it for the statistics
      }
      const bool tail = f.tail;
      if (now) {
        m_inj[size_t(c)].end_as<Boxed>();
        drive = true;
      }
      m_credits.take(c * nv + ch.vc);
      if (tail) m_busy &= ~bit;
      m_core.sent_flit(c, t);
    }
    if (!Boxed && !drive && (m_drove & bit)) m_inj[size_t(c)].write(Flit{});
    // (A mailbox holds a value for one cycle: no invalid value to write next edge.)
    m_drove = drive && !Boxed ? m_drove | bit : m_drove & ~bit;
  }

  // (2) Sample the router's outputs of cycle t (mailboxes: the boxes of cycle t, taken now).
  if (!Boxed && !m_watch_all) {
    m_ej_valid[0] = m_cr_valid[0] = 0;
    for (int c = 0; c < m_rp.local; ++c) {
      if (m_ej_val[0][size_t(c)]->valid) m_ej_valid[0] |= uint32_t(1) << c;
      if (m_inj_credit_val[0][size_t(c)]->valid) m_cr_valid[0] |= uint32_t(1) << c;
    }
  }
  const int par = Boxed ? int(t & 1) : 0;
  const uint32_t ej_valid = m_ej_valid[par], cr_valid = m_cr_valid[par];
  if (Boxed) m_ej_valid[par] = m_cr_valid[par] = 0;
  const std::vector<const Flit*>& ej_val = m_ej_val[par];
  const std::vector<const Credit*>& inj_credit_val = m_inj_credit_val[par];
  // Sleeping needs all-invalid inputs (see TorusRouter::on_edge); a mailbox's value is a new one.
  const bool quiet = Boxed || (!ej_valid && !cr_valid);
  for (uint32_t m = cr_valid; m; m &= m - 1) {
    const int c = __builtin_ctz(m);
    const Credit& cr = *inj_credit_val[size_t(c)];
    // Sampled after this edge's injection step: it can count from the next edge.
    if (!m_credits.arrive(c * nv + cr.vc, t + 1))
      model_error("wormcast/nic", name(), "credit above buffer depth");
  }
  // (3) Ejection credits of cycle t: for the flits just taken (Cde = router.ejection_credit_delay
  // = 0), else for those taken at the falling edge of cycle t - Cde, in channel order.
  const int cde = m_rp.ejection_credit_delay;
  uint32_t due = cde == 0 ? ej_valid : 0;
  for (uint32_t m = ej_valid; m; m &= m - 1) {
    const int c = __builtin_ctz(m);
    const Flit& f = *ej_val[size_t(c)];
    if (cde > 0) m_ej_held.emplace_back(HeldCredit{t + uint64_t(cde), c, f.vc});
    const FlitView v{payload_packet(f.payload), payload_index(f.payload), f.head, f.tail, f.vc};
    if (m_rp.ejection_delay == 0)
      m_core.received_flit(t, v);
    else
      m_ejecting.emplace_back(t + uint64_t(m_rp.ejection_delay), v);
  }
  int held_vc[32];
  while (!m_ej_held.empty() && m_ej_held.front().due <= t) {
    due |= uint32_t(1) << m_ej_held.front().channel;
    held_vc[m_ej_held.front().channel] = m_ej_held.front().vc;
    m_ej_held.pop_front();
  }
  for (uint32_t m = due | m_ej_credit_out; m; m &= m - 1) {
    const int c = __builtin_ctz(m);
    const uint32_t bit = uint32_t(1) << c;
    if (due & bit) {
      Credit& cr = m_ej_credit[size_t(c)].begin_as<Boxed>();
      cr.valid = true;
      cr.vc = cde == 0 ? ej_val[size_t(c)]->vc : uint8_t(held_vc[c]);
      m_ej_credit[size_t(c)].end_as<Boxed>();
      if (!Boxed) m_ej_credit_out |= bit;
    } else {
      m_ej_credit[size_t(c)].write(Credit{});
      m_ej_credit_out &= ~bit;
    }
  }

  return !(quiet && m_credits.settled() && m_ejecting.empty() && m_ej_held.empty() && !m_busy &&
           !m_core.queued_mask() && !m_drove && !m_wired && !m_ej_credit_out);
}

}  // namespace wormcast
