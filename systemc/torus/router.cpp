// Cycle behaviour of the torus router; every step is the numbered rule of docs/router.md.
// Why one file: the stages of one clocked edge (absorb, requests, VC and switch grants, traverse)
// share the router's state and are read in the contract's order; the allocators, credit unit and
// route computation are files of their own.
#include "systemc/torus/router.h"

#include <sstream>

#include "systemc/common/clock.h"
#include "systemc/kernel/link_signal.h"
#include "systemc/common/model_error.h"

namespace wormcast {

namespace {
constexpr const char* kError = "wormcast/router";  // the message type of its fatal errors
}  // namespace

TorusRouter::TorusRouter(sc_core::sc_module_name name, const RouterParams& params,
                         const sw::Topology& topo, int node, NetActivity* activity, const PortRouting* routing,
                         EdgeSet* edges, bool plain, InputWatch* watch)
    : RouterBase(name, params, node, activity, !plain),
      m_watch(watch),
      m_np(params.num_ports()),
      m_nv(params.num_vcs),
      m_net(params.net_ports()),
      m_credits(params.num_ports() * params.num_vcs, params.buffer_depth, params.credit_delay),
      // Both allocators keep their state of one allocation in the thread's shared scratch of their
      // role (VC allocation 0, switch allocation 1; allocator.h): a router's edge clears, requests
      // and allocates each before the next router runs, and only their arbiters stay in the router,
      // so the scratch stays in the first-level cache from router to router (docs/router.md 5.6).
      m_va(params.allocator, params.num_ports() * params.num_vcs, params.num_vcs, params.num_ports() * params.num_vcs,
           params.islip_iterations, 0),
      m_sa(params.switch_allocator, params.num_ports(), params.num_vcs, params.num_ports(), params.islip_iterations, 1),
      m_topo(topo),
      m_routing(routing),
      m_own_watch(watch ? nullptr : std::make_unique<InputWatch>()),
      m_edges(edges) {
  if (!m_watch) m_watch = m_own_watch.get();
  for (int head = 0; head < 2; ++head) {
    // Staged: a head allocates its VC one edge before its switch allocation; a body flit skips the
    // route and VC allocation stages (docs/router.md section 11).
    const int skip = m_p.staged ? (head ? 1 : 2) : 0;
    m_ready_after[head][1] = uint32_t(m_p.router_delay + m_p.link_delay - 1 - skip);
    m_ready_after[head][0] = uint32_t(m_p.router_delay - 1 - skip);
  }
  if (m_p.staged && m_p.router_delay < 3) model_error(kError, this->name(), "staged pipeline with a router delay below 3");
  m_after_tail = m_p.staged ? 2 : 0;
  if (m_ready_after[1][1] >= kWheel || m_ready_after[1][0] >= kWheel) model_error(kError, this->name(), "router and link delay above the ready wheel");
  m_in_store.resize(size_t(m_np) * m_nv);
  m_blk_wide.assign(m_in_store.size(), {0, 0, 0});
  m_slot_store.resize(size_t(m_np) * m_nv * size_t(m_p.buffer_depth));
  m_allocated_store.assign(size_t(m_np) * m_nv, 0);
  m_vc_words = uint8_t((m_np * m_nv + 63) / 64);
  if (m_vc_words > 8) model_error(kError, this->name(), "more than 512 input VCs");
  if (m_vc_words > 1) {
    m_wheel_more.assign(size_t(m_vc_words) * kWheel, 0);
    m_wheel = m_wheel_more.data();
  }
  if ((m_nv & (m_nv - 1)) == 0)
    m_nv_shift = int8_t(__builtin_ctz(uint32_t(m_nv)));
  else  // the port of a VC index by a table (port_of)
    for (int i = 0; i < m_np * m_nv; ++i) m_port_of.push_back(uint8_t(i / m_nv));
  m_vc_out.assign(size_t(m_np) * m_nv, 0);
  if (!m_routing && m_topo.num_nodes() <= kRouteTableNodes && m_topo.dims() <= 4)
    m_route_table.assign(2 * size_t(m_topo.num_nodes()), 0);  // filled as heads ask (route)
  if (!m_route_table.empty() && !m_p.valiant) m_table_nodes = uint32_t(m_topo.num_nodes());

  if (plain) {
    if (!edges) model_error(kError, this->name(), "plain links need an edge set");
    m_flit_out_store.resize(size_t(m_np));
    m_credit_out_store.resize(size_t(m_np));
    for (int b = 0; b < 2; ++b) {
      m_flit_in_store[b].assign(size_t(m_np), nullptr);
      m_credit_in_store[b].assign(size_t(m_np), nullptr);
    }
    m_boxed = true;
  } else {
    m_wake = std::make_unique<OwnWake>("wake_event");  // port objects: the wake event and the or-list of inputs
  }
  point_hot();
  if (edges) {
    edges->add(this, &m_watch->waker);
    return;
  }
  m_watch->waker.event = &m_wake->event;
  SC_HAS_PROCESS(TorusRouter);
  // No static sensitivity: the method arms itself for the next rising edge while it is awake and
  // for its wake event while it sleeps, so a sleeping router costs the clock nothing. It runs once
  // at initialization only to arm itself.
  SC_METHOD(tick);
}

void TorusRouter::end_of_elaboration() {
  if (flit_in.size() == 0) {  // plain links: wired by the network
    for (int b = 0; b < 2; ++b)
      for (int p = 0; p < m_np; ++p)
        if (!m_flit_in_val[b][size_t(p)] || !m_credit_in_val[b][size_t(p)])
          model_error(kError, name(), "plain link input not wired: ", p);
    return;
  }
  m_wake->any |= m_wake->event;
  for (int p = 0; p < m_np; ++p) {
    m_flit_out_store.emplace_back();
    m_credit_out_store.emplace_back();
    if (!m_flit_out_store.back().bind(flit_out[p]) || !m_credit_out_store.back().bind(credit_out[p]))
      model_error(kError, name(), "an output is not bound to a signal");
    m_flit_in_store[0].push_back(&flit_in[p]->read());
    m_credit_in_store[0].push_back(&credit_in[p]->read());
    const uint32_t bit = uint32_t(1) << p;
    if (!watch_input(flit_in[p], &m_watch->waker, m_wake->any, m_watch->flit_valid, bit)) m_poll_inputs = true;
    if (!watch_input(credit_in[p], &m_watch->waker, m_wake->any, m_watch->credit_valid, bit)) m_poll_inputs = true;
  }
  point_hot();
  // An edge set wakes its members through their input links only.
  if (m_edges && m_poll_inputs) model_error(kError, name(), "run by an edge set with an input not bound to a LinkSignal");
}

void TorusRouter::use_mailboxes() {
  if (!m_edges) model_error(kError, name(), "mailbox links need an edge set");
  m_boxed = true;
  for (auto& w : m_flit_out_store) w.refresh();
  for (auto& w : m_credit_out_store) w.refresh();
  if (!point_at_boxes(flit_in, m_flit_in_store) || !point_at_boxes(credit_in, m_credit_in_store))
    model_error(kError, name(), "an input is not a mailbox link");
  point_hot();
}

void TorusRouter::point_hot() {
  m_in = m_in_store.data();
  m_slots = m_slot_store.data();
  m_allocated = m_allocated_store.data();
  for (int b = 0; b < 2; ++b) {
    m_flit_in_val[b] = m_flit_in_store[b].data();
    m_credit_in_val[b] = m_credit_in_store[b].data();
  }
  m_flit_out = m_flit_out_store.data();
  m_credit_out = m_credit_out_store.data();
  m_net_out = m_net_out_store.empty() ? nullptr : m_net_out_store.data();
}

void TorusRouter::plain_network_output(int p, InputWatch* reader, uint32_t box, int bit, bool shared) {
  if (p < 0 || p >= m_net || bit < 0 || bit >= 32 || !m_flit_box_base || !m_credit_box_base)
    model_error(kError, name(), "a compact network output outside the network ports or before the box arrays");
  if (m_net_out_store.empty()) m_net_out_store.resize(size_t(m_net));
  m_net_out_store[size_t(p)] = NetOut{reader, box, uint8_t(bit), shared};
  m_net_out_mask |= uint32_t(1) << p;
  point_hot();
}

void TorusRouter::prefetch() const {
  __builtin_prefetch(&m_boxed);
  __builtin_prefetch(m_watch);
  __builtin_prefetch(m_in);
  __builtin_prefetch(m_in + 1);
  __builtin_prefetch(&m_credits.counter(0));
  __builtin_prefetch(m_flit_in_val[0]);
  __builtin_prefetch(m_flit_in_val[1]);
  __builtin_prefetch(m_credit_in_val[0]);
  __builtin_prefetch(m_credit_in_val[1]);
  if (m_net_out) {  // the compact writers of the network outputs (at most two lines for 5 ports)
    __builtin_prefetch(m_net_out);
    __builtin_prefetch(reinterpret_cast<const char*>(m_net_out + m_net) - 1);
  } else {
    __builtin_prefetch(m_flit_out);
    __builtin_prefetch(m_credit_out);
  }
  __builtin_prefetch(&m_va);
  __builtin_prefetch(&m_sa);
  m_va.prefetch();
  m_sa.prefetch();
}

// Stage 1: the object's lines an edge reads (its parameters, in the base, and the hot members from
// m_watch to the allocators); stage 2: what those lines point to (prefetch()) and the whole of the
// input-VC records.
void TorusRouter::prefetch_cold(int stage) const {
  if (stage == 1) {
    __builtin_prefetch(&m_p);
    for (const char* c = reinterpret_cast<const char*>(&m_watch); c < reinterpret_cast<const char*>(&m_sa + 1); c += 64)
      __builtin_prefetch(c);
    return;
  }
  if (stage != kBandStages - 1) return;
  prefetch();
  const char* end = reinterpret_cast<const char*>(m_in + size_t(m_np) * size_t(m_nv));
  for (const char* c = reinterpret_cast<const char*>(m_in) + 128; c < end; c += 64) __builtin_prefetch(c);
}

bool TorusRouter::lane_safe() const {
  if (m_observer) return false;
  for (const LinkWriter<Flit>& w : m_flit_out_store)
    if (!w.queued()) return false;
  for (const LinkWriter<Credit>& w : m_credit_out_store)
    if (!w.queued()) return false;
  return true;
}

void TorusRouter::tick() { step_own_process(*this, m_watch->waker, m_armed, clk.posedge_event(), m_wake->any, current_cycle()); }

bool TorusRouter::on_edge(uint64_t t) { return m_boxed ? edge<true>(t) : edge<false>(t); }

void TorusRouter::fold_blocked(uint64_t t) {
  for (size_t i = 0; i < m_in_store.size(); ++i) {
    InVc& in = m_in[i];
    m_blk_wide[i][0] += in.blk_vc;
    m_blk_wide[i][1] += in.blk_credit;
    m_blk_wide[i][2] += in.blk_switch;
    in.blk_vc = in.blk_credit = in.blk_switch = 0;
  }
  m_fold_due = t + kFoldEdges;
}

template <bool Boxed>
bool TorusRouter::edge(uint64_t t) {
  // (Before the request pass, whose increments the grants of the same edge may take back.)
  if (t >= m_fold_due) fold_blocked(t);
  // Sleeping is safe only after a cycle whose inputs were all invalid: the next valid input is
  // then a value change (two equal credits in a row are not).
  const bool quiet_inputs = absorb<Boxed>(t);
  if (!Boxed) m_flit_written = m_credit_written = 0;
  if (m_buffered > 0) {
    request(t);
    if (m_va_used) grant_vcs();
    const int before = m_buffered;
    m_sa.allocate_each([this, t](int group, int local, int resource) { traverse<Boxed>(t, group, local, resource); });
    if (m_buffered != before) count_moves(t, uint64_t(before - m_buffered));  // the flits that left
  }
  // Mailboxes: nothing to write for an idle output, and a value for the next edge is a pending
  // bit, set by a writer earlier in this edge (a later one wakes the sleeping router). (Bitwise
  // operators: the terms are the traffic's, a branch per term would often be mispredicted.)
  if (Boxed) return (m_buffered != 0) | !m_credits.settled() | input_pending();
  drive_idle_outputs();
  return !(quiet_inputs && m_buffered == 0 && m_credits.settled() && !m_flit_out_valid && !m_credit_out_valid);
}

// Edge t: the inputs of cycle t-1 enter the buffers and the credit counters (section 6).
template <bool Boxed>
bool TorusRouter::absorb(uint64_t t) {
  if (!Boxed && m_poll_inputs) {
    m_watch->flit_valid[0] = m_watch->credit_valid[0] = 0;
    for (int p = 0; p < m_np; ++p) {
      if (m_flit_in_val[0][size_t(p)]->valid) m_watch->flit_valid[0] |= uint32_t(1) << p;
      if (m_credit_in_val[0][size_t(p)]->valid) m_watch->credit_valid[0] |= uint32_t(1) << p;
    }
  }
  // Mailboxes: the boxes written in cycle t-1, taken (their bits cleared) now.
  const int par = Boxed ? int((t - 1) & 1) : 0;
  const uint32_t flits = m_watch->flit_valid[par], credits = m_watch->credit_valid[par];
  if (Boxed) m_watch->flit_valid[par] = m_watch->credit_valid[par] = 0;
  const Flit* const* flit_in_val = m_flit_in_val[par];
  const Credit* const* credit_in_val = m_credit_in_val[par];
  const int depth = m_p.buffer_depth;
  const bool quiet = !flits && !credits;
  for (uint32_t m = flits; m; m &= m - 1) {
    const int p = __builtin_ctz(m);
    const Flit& f = *flit_in_val[size_t(p)];
    if (f.vc >= m_nv) model_error(kError, name(), "flit for VC out of range on input ", p);
    const int ivc = p * m_nv + f.vc;
    InVc& in = m_in[size_t(ivc)];
    if (in.count == depth) model_error(kError, name(), "input buffer overflow on port ", p);
    int tail = in.head + in.count;
    if (tail >= depth) tail -= depth;
    const uint64_t ready = t + m_ready_after[f.head][p < m_net];
    const size_t at = size_t(ivc) * size_t(depth) + size_t(tail);
    m_slots[at].flit = f;
    m_slots[at].ready = uint32_t(ready);
    if (in.count == 0) becomes_front(ivc, ready, t);
    ++in.count;
    ++m_buffered;
    m_occ -= int64_t(t);  // held from edge t on
  }
  for (uint32_t m = credits; m; m &= m - 1) {
    const int o = __builtin_ctz(m);
    const Credit& c = *credit_in_val[size_t(o)];
    if (!m_credits.arrive(o * m_nv + c.vc, t))
      model_error(kError, name(), "credit above buffer depth on output ", o);
  }
  if (!m_credits.mature(t)) model_error(kError, name(), "credit above buffer depth");
  return quiet;
}

bool TorusRouter::trace_internals(const std::string& vcd_path) {
  if (m_state_vcd) return true;
  std::string base = vcd_path;
  if (base.size() > 4 && base.compare(base.size() - 4, 4, ".vcd") == 0) base.resize(base.size() - 4);
  m_state_vcd = sc_core::sc_create_vcd_trace_file(base.c_str());  // SystemC appends ".vcd"
  if (!m_state_vcd) return false;
  m_credits.exact_counters();  // the traced counters hold the usable credits only
  // Setting the unit is reported as an info message; nothing the user needs.
  const sc_core::sc_actions was = sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  m_state_vcd->set_time_unit(1, sc_core::SC_PS);
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, was);
  sc_core::sc_trace(m_state_vcd, clk, std::string(name()) + ".clk");
  sc_core::sc_trace(m_state_vcd, m_buffered, std::string(name()) + ".buffered");
  for (int p = 0; p < m_np; ++p)
    for (int v = 0; v < m_nv; ++v) {
      const InVc& in = m_in[size_t(p) * m_nv + v];
      const std::string n = std::string(name()) + ".in_" + std::to_string(p) + ".vc" + std::to_string(v);
      sc_core::sc_trace(m_state_vcd, in.count, n + ".count");
      sc_core::sc_trace(m_state_vcd, in.active, n + ".active");
      sc_core::sc_trace(m_state_vcd, in.out_port, n + ".out_port");
      sc_core::sc_trace(m_state_vcd, in.out_vc, n + ".out_vc");
      const std::string o = std::string(name()) + ".out_" + std::to_string(p) + ".vc" + std::to_string(v);
      sc_core::sc_trace(m_state_vcd, m_credits.counter(p * m_nv + v), o + ".credits");
      sc_core::sc_trace(m_state_vcd, m_allocated[size_t(p) * m_nv + v], o + ".allocated", 1);
    }
  return true;
}

bool TorusRouter::activity(uint64_t now, RouterActivity& a) const {
  RouterBase::activity(now, a);
  a.buffer_writes = m_reads + uint64_t(m_buffered);  // every flit written was read or is held
  a.buffer_reads = m_reads;
  a.vc_allocations = m_vc_allocs;
  a.occupancy_integral = uint64_t(m_occ + int64_t(m_buffered) * int64_t(now));
  a.vc_flits = vc_flits();
  a.blocked_vc.resize(m_in_store.size());
  a.blocked_credit.resize(m_in_store.size());
  a.blocked_switch.resize(m_in_store.size());
  for (size_t i = 0; i < m_in_store.size(); ++i) {
    a.blocked_vc[i] = m_blk_wide[i][0] + m_in[i].blk_vc;
    a.blocked_credit[i] = m_blk_wide[i][1] + m_in[i].blk_credit;
    a.blocked_switch[i] = m_blk_wide[i][2] + m_in[i].blk_switch;
  }
  return true;
}

std::vector<uint64_t> TorusRouter::vc_flits() const {
  std::vector<uint64_t> v = m_vc_out;
  for (const InVc& in : m_in_store)
    if (in.sent) v[size_t(in.out_port) * m_nv + size_t(in.out_vc)] += in.sent;
  return v;
}

std::vector<uint64_t> TorusRouter::output_flits() const {
  const std::vector<uint64_t> vc = vc_flits();
  std::vector<uint64_t> v(size_t(m_np), 0);
  for (size_t i = 0; i < vc.size(); ++i) v[i / size_t(m_nv)] += vc[i];
  return v;
}

void TorusRouter::route(int in_port, const Flit& head, int& out_port, int& vc_lo, int& vc_hi) const {
  // Valiant (section 13): phase 1 goes to head.mid on VC set 0, phase 2 to head.dst on VC set 1. A
  // head is in phase 2 once it arrived on a set-1 VC or stands at its intermediate node.
  int target = head.dst, base = 0;
  if (m_p.valiant) {
    if ((in_port < m_net && head.vc >= m_p.escape_vcs()) || m_node == head.mid)
      base = m_p.escape_vcs();
    else
      target = head.mid;
  }
  if (!m_routing) {  // dimension order: its step, from the table of a small network (filled on demand)
    uint8_t e;
    if (uint32_t(target) < m_route_table.size() / 2) {
      uint8_t& known = m_route_table[2 * size_t(target) + size_t(head.tie)];
      if (!(known & kRouteKnown)) known = route_step(target, head.tie);
      e = known;
    } else {
      e = route_step(target, head.tie);
    }
    route_of_step(in_port, head, e, base, out_port, vc_lo, vc_hi);
    return;
  }
  const bool net_in = in_port < m_net;
  const PortRoute rs =
      m_routing->route(m_node, net_in ? in_port : -1, net_in ? head.vc / m_p.vcs_per_class : -1, head.dst, head.tie);
  if (rs.port < 0) {  // only at the destination in phase 2: a phase-1 head is not at its target
    eject_route(in_port, out_port, vc_lo, vc_hi);
    return;
  }
  out_port = rs.port;
  vc_lo = base;
  vc_hi = base + m_p.escape_vcs();
  if (rs.vc_class >= 0) {
    vc_lo = rs.vc_class * m_p.vcs_per_class;
    vc_hi = vc_lo + m_p.vcs_per_class;
  } else if (m_p.classes == 2 && rs.classed) {
    vc_lo = base + int(rs.vclass) * m_p.vcs_per_class;
    vc_hi = vc_lo + m_p.vcs_per_class;
  }
}

uint8_t TorusRouter::route_step(int target, bool tie) const {
  const sw::RouteStep st = m_topo.route(m_node, target, tie);
  if (st.port < 0) return kRouteKnown;
  const int d = st.port >> 1;
  // The entry rule's class only where the rule applies (its coordinates cost two divisions).
  const bool above = m_p.vc_class_entry && m_topo.coord_of(m_node, d) > m_topo.coord_of(target, d);
  return uint8_t(kRouteKnown | (st.port + 1) | int(st.vclass) << 4 | int(above) << 5 | int(m_topo.torus(d)) * kRouteClassed);
}

// Only an empty adaptive VC (every credit back), under either reallocation policy (docs/router.md
// section 12): a head behind another packet's flits could no longer turn to an escape VC, and the
// escape network would inherit that packet's route as an indirect dependency.
int TorusRouter::pick_adaptive(const Flit& head) const {
  int best = -1, best_credits = -1;
  for (int d = 0; d < m_topo.dims(); ++d) {
    const int x = m_topo.coord_of(m_node, d), target = m_topo.coord_of(head.dst, d);
    if (x == target) continue;
    // Productive directions: the shorter way round, both at distance k/2 on a torus.
    const int plus = m_topo.offset(d, x, target, false), minus = m_topo.offset(d, x, target, true);
    for (int dir = 0; dir < 2; ++dir) {
      if ((dir == 0 && plus <= 0) || (dir == 1 && minus >= 0)) continue;
      const int port = 2 * d + dir;
      for (int w = m_p.escape_vcs(); w < m_nv; ++w) {
        const int ovc = port * m_nv + w;
        if (m_allocated[size_t(ovc)] || m_credits.credits(ovc) < m_p.buffer_depth) continue;
        if (m_credits.credits(ovc) > best_credits) {
          best = ovc;
          best_credits = m_credits.credits(ovc);
        }
      }
    }
  }
  return best;
}

// One pass over the non-empty input VCs whose front flit is eligible: 5.2 + 5.3, an idle VC routes
// its front head and requests each free output VC its route allows (under min-adaptive: the
// adaptive VC picked, if any, else the escape VCs); 5.4, an active VC with a credit requests its
// output port. The blocking statistics are counted here: an eligible front flit without an output
// VC (taken back at the VC grant for the winners), without a credit, or (taken back at traversal
// for the winner) requesting the switch.
void TorusRouter::request(uint64_t t) {
  const int need_credits = m_p.vc_realloc_tail ? 0 : m_p.buffer_depth;  // free: section 5.3
  m_va_used = false;  // the VC allocator is cleared by the edge's first idle VC (request_vc_idle)
  m_sa.clear();
  // The eligible input VCs: those the ready wheel (router.h) holds for this edge join the set.
  const int now = int(t & (kWheel - 1));
  auto pass = [&](int word) {
    uint64_t& slot = m_wheel[word * kWheel + now];
    m_ready[word] |= slot;
    slot = 0;
    for (uint64_t m = m_ready[word]; m; m &= m - 1) request_vc(word * 64 + __builtin_ctzll(m), need_credits);
  };
  if (m_vc_words == 1) {  // the common router (up to 64 input VCs): no loop over words
    pass(0);
    return;
  }
  for (int word = 0; word < m_vc_words; ++word) pass(word);
}

inline void TorusRouter::request_vc(int ivc, int need_credits) {
  InVc& in = m_in[size_t(ivc)];
  const int port = port_of(ivc), v = m_nv_shift >= 0 ? ivc & (m_nv - 1) : ivc - port * m_nv;
  if (in.active) {
    request_switch(port, v, in);
    return;
  }
  request_vc_idle(ivc, port, need_credits);
}

// Out of line: the request pass's loop keeps only the active VCs' path (a few registers); an idle
// VC's routing and VC requests are the rarer case.
void TorusRouter::request_vc_idle(int ivc, int port, int need_credits) {
  if (!m_va_used) {
    m_va.clear();
    m_va_used = true;
  }
  InVc& in = m_in[size_t(ivc)];
  ++in.blk_vc;
  const Flit& s = front(ivc).flit;
  if (!in.routed) {
    if (!s.head) model_error(kError, name(), "body flit on an idle VC at input ", port);
    int rp, lo, hi;
    if (!route_known(port, s, rp, lo, hi)) route(port, s, rp, lo, hi);
    in.route_port = int8_t(rp);
    in.vc_lo = int8_t(lo);
    in.vc_hi = int8_t(hi);
    in.routed = true;
  }
  if (m_p.adaptive && in.route_port < m_net) {
    const int ovc = pick_adaptive(s);
    if (ovc >= 0) {
      m_va.request(ivc, ovc % m_nv, ovc);
      return;
    }
  }
  const int base = in.route_port * m_nv;
  for (int w = in.vc_lo; w < in.vc_hi; ++w)
    if (!m_allocated[size_t(base + w)] && m_credits.credits(base + w) >= need_credits) m_va.request(ivc, w, base + w);
}

// 5.3: the VC allocator's grants take their output VCs; a VC granted now requests the switch in
// this cycle as an active one does (5.4).
void TorusRouter::grant_vcs() {
  m_va.allocate_each([this](int group, int local, int resource) {
    InVc& in = m_in[size_t(group)];
    in.active = true;
    in.out_port = int16_t(port_of(resource));
    in.out_vc = int16_t(local);
    m_allocated[size_t(resource)] = 1;
    ++m_vc_allocs;
    --in.blk_vc;  // it holds an output VC now
    if (m_p.staged) return;  // staged: it competes for the switch from the next edge on
    const int port = port_of(group);
    request_switch(port, group - port * m_nv, in);
  });
}

// 5.4 + 5.5 + 6: the switch allocator granted output o to input VC (p, v): its front flit traverses
// the switch. (Called for each grant in the allocator's order; each touches its own input VC,
// output and credit output.)
template <bool Boxed>
void TorusRouter::traverse(uint64_t t, int p, int v, int o) {
  const int depth = m_p.buffer_depth;
  const int ivc = p * m_nv + v;
  InVc& in = m_in[size_t(ivc)];
  --in.blk_switch;  // it requested and won
  const size_t ring = size_t(ivc) * size_t(depth);  // the VC's buffer: its first slot
  const Flit& s = m_slots[ring + size_t(in.head)].flit;
  const bool tail = s.tail;
  const int w = in.out_vc;
  if (Boxed && (m_net_out_mask >> o & 1)) {
    const NetOut& r = m_net_out[size_t(o)];
    Flit& f = fill(r, m_flit_box_base, r.reader->flit_valid);
    f = s;
    f.vc = uint8_t(w);
  } else {
    LinkWriter<Flit>& out = m_flit_out[size_t(o)];
    Flit& f = out.begin_as<Boxed>();
    f = s;
    f.vc = uint8_t(w);
    out.end_as<Boxed>();
  }
  if (++in.head == depth) in.head = 0;
  if (--in.count == 0) {
    m_ready[size_t(ivc) >> 6] &= ~(uint64_t(1) << (ivc & 63));
  } else {
    // The next front flit competes from the next edge on at the earliest (this edge's requests
    // are made): it stays in the ready set if its ready cycle has come by then. Staged: a head
    // behind a tail routes at t + 1 and allocates its VC at t + 2 at the earliest.
    uint64_t r = ready_at(m_slots[ring + size_t(in.head)].ready, t);
    if (tail && r < t + m_after_tail) r = t + m_after_tail;
    if (r > t + 1) {
      m_ready[size_t(ivc) >> 6] &= ~(uint64_t(1) << (ivc & 63));
      becomes_front(ivc, r, t);
    }
  }
  --m_buffered;
  ++m_reads;
  m_occ += int64_t(t);  // read out at edge t
  m_credits.take(o * m_nv + w);
  if (++in.sent == 0xffff) count_sent(in);
  if (tail) {
    count_sent(in);
    in.active = false;
    in.routed = false;
    m_allocated[size_t(o) * m_nv + w] = 0;
  }
  if (!Boxed) m_flit_written |= 1u << o;
  if (Boxed && (m_net_out_mask >> p & 1)) {
    const NetOut& r = m_net_out[size_t(p)];
    Credit& c = fill(r, m_credit_box_base, r.reader->credit_valid);
    c.valid = true;
    c.vc = uint8_t(v);
  } else {
    LinkWriter<Credit>& cout = m_credit_out[size_t(p)];
    Credit& c = cout.begin_as<Boxed>();
    c.valid = true;
    c.vc = uint8_t(v);
    cout.end_as<Boxed>();
  }
  if (!Boxed) m_credit_written |= 1u << p;
  if (m_observer)
    m_observer->on_hop(HopEvent{t, m_node, p, o, w, payload_packet(s.payload), payload_index(s.payload), s.head, tail});
}

// Every output not driven this cycle is invalid; write only when it was valid before.
void TorusRouter::drive_idle_outputs() {
  for (uint32_t m = m_flit_out_valid & ~m_flit_written; m; m &= m - 1) m_flit_out[size_t(__builtin_ctz(m))].write(Flit{});
  for (uint32_t m = m_credit_out_valid & ~m_credit_written; m; m &= m - 1) m_credit_out[size_t(__builtin_ctz(m))].write(Credit{});
  m_flit_out_valid = m_flit_written;
  m_credit_out_valid = m_credit_written;
}

std::vector<TorusRouter::Wait> TorusRouter::waiting() const {
  std::vector<Wait> out;
  for (int ivc = 0; ivc < m_np * m_nv; ++ivc) {
    const InVc& in = m_in[size_t(ivc)];
    if (in.count == 0) continue;
    Wait w{ivc / m_nv, ivc % m_nv, in.out_port, in.active ? int(in.out_vc) : -1, -1, -1, front(ivc).flit, in.count};
    if (!in.active) route(w.in_port, w.front, w.out_port, w.vc_lo, w.vc_hi);
    out.push_back(w);
  }
  return out;
}

}  // namespace wormcast
