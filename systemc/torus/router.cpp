// Cycle behaviour of the torus router; every step is the numbered rule of docs/router.md.
#include "systemc/torus/router.h"

#include <sstream>

#include "systemc/common/clock.h"
#include "systemc/common/link_signal.h"

namespace wormcast {

namespace {
[[noreturn]] void internal_error(const std::string& where, const std::string& what) {
  SC_REPORT_FATAL("wormcast/router", (where + ": " + what).c_str());
  std::abort();
}
}  // namespace

TorusRouter::TorusRouter(sc_core::sc_module_name name, const RouterParams& params,
                         const sw::Topology& topo, int node, NetActivity* activity, const PortRouting* routing)
    : RouterBase(name, params, node, activity),
      m_topo(topo),
      m_routing(routing),
      m_np(params.num_ports()),
      m_nv(params.num_vcs),
      m_net(params.net_ports()) {
  m_in.resize(size_t(m_np) * m_nv);
  for (auto& vc : m_in) vc.fifo.resize(size_t(m_p.buffer_depth));
  m_credits.assign(size_t(m_np) * m_nv, m_p.buffer_depth);
  m_allocated.assign(size_t(m_np) * m_nv, 0);
  m_va_in_ptr.assign(size_t(m_np) * m_nv, 0);
  m_va_out_ptr.assign(size_t(m_np) * m_nv, 0);
  m_sa_in_ptr.assign(size_t(m_np), 0);
  m_sa_out_ptr.assign(size_t(m_np), 0);
  m_va_choice.assign(size_t(m_np) * m_nv, -1);
  m_va_best.assign(size_t(m_np) * m_nv, -1);
  m_sa_vc.assign(size_t(m_np), -1);
  m_sa_best.assign(size_t(m_np), -1);
  m_touched.reserve(size_t(m_np) * m_nv);
  m_vc_mask.assign(size_t(m_np), 0);
  m_occ.assign(size_t(m_np) * m_nv, 0);
  m_vc_out.assign(size_t(m_np) * m_nv, 0);
  m_blk_vc.assign(size_t(m_np) * m_nv, 0);
  m_blk_credit.assign(size_t(m_np) * m_nv, 0);
  m_blk_switch.assign(size_t(m_np) * m_nv, 0);
  if (m_p.allocator != AllocatorKind::InputFirst) {
    m_va_unit = std::make_unique<SeparableAllocator>(m_p.allocator, m_np * m_nv, m_nv, m_np * m_nv, m_p.islip_iterations);
    m_sa_unit = std::make_unique<SeparableAllocator>(m_p.allocator, m_np, m_nv, m_np, m_p.islip_iterations);
    m_va_port.assign(size_t(m_np) * m_nv, -1);
  }

  SC_HAS_PROCESS(TorusRouter);
  SC_METHOD(tick);
  sensitive << clk.pos();
  dont_initialize();
}

void TorusRouter::end_of_elaboration() {
  m_wake |= m_wake_event;
  for (int p = 0; p < m_np; ++p) {
    m_flit_in_val.push_back(&flit_in[p]->read());
    m_credit_in_val.push_back(&credit_in[p]->read());
    watch_input(flit_in[p], &m_wake_event, &m_sleeping, m_wake);
    watch_input(credit_in[p], &m_wake_event, &m_sleeping, m_wake);
  }
}

void TorusRouter::tick() {
  if (m_sleeping) {  // woken by an input change; the change is sampled at the next edge
    m_sleeping = false;
    return;
  }
  const uint64_t t = current_cycle();
  // Sleeping is safe only after a cycle whose inputs were all invalid: the next valid input is
  // then a value change (two equal credits in a row are not).
  const bool quiet_inputs = absorb(t);
  allocate(t);
  const bool idle = quiet_inputs && m_buffered == 0 && m_pending.empty() && !m_flit_out_valid && !m_credit_out_valid;
  if (idle) {
    m_sleeping = true;
    next_trigger(m_wake);
  }
}

// Edge t: the inputs of cycle t-1 enter the buffers and the credit counters (section 6).
bool TorusRouter::absorb(uint64_t t) {
  const int depth = m_p.buffer_depth;
  bool quiet = true;
  for (int p = 0; p < m_np; ++p) {
    const Flit& f = *m_flit_in_val[size_t(p)];
    if (!f.valid) continue;
    quiet = false;
    if (f.vc >= m_nv) internal_error(name(), "flit for VC out of range on input " + std::to_string(p));
    InVc& in = m_in[size_t(p) * m_nv + f.vc];
    if (in.count == depth) internal_error(name(), "input buffer overflow on port " + std::to_string(p));
    int tail = in.head + in.count;
    if (tail >= depth) tail -= depth;
    in.fifo[size_t(tail)] = Slot{f, t - 1 + uint64_t(m_p.router_delay) + (p < m_net ? uint64_t(m_p.link_delay) : 0)};
    ++in.count;
    ++m_buffered;
    ++m_writes;
    m_occ[size_t(p) * m_nv + f.vc] -= int64_t(t);  // held from edge t on
    m_vc_mask[size_t(p)] |= 1u << f.vc;
    m_port_mask |= 1u << p;
  }
  for (int o = 0; o < m_np; ++o) {
    const Credit& c = *m_credit_in_val[size_t(o)];
    if (!c.valid) continue;
    quiet = false;
    const int ovc = o * m_nv + c.vc;
    if (m_p.credit_delay == 0) {
      if (++m_credits[size_t(ovc)] > depth) internal_error(name(), "credit above buffer depth on output " + std::to_string(o));
    } else {
      m_pending.push_back(PendingCredit{t + uint64_t(m_p.credit_delay), ovc});
    }
  }
  if (!m_pending.empty()) {
    size_t keep = 0;
    for (auto& pc : m_pending) {
      if (pc.ready <= t) {
        if (++m_credits[size_t(pc.ovc)] > depth) internal_error(name(), "credit above buffer depth");
      } else {
        m_pending[keep++] = pc;
      }
    }
    m_pending.resize(keep);
  }
  return quiet;
}

bool TorusRouter::trace_internals(const std::string& vcd_path) {
  if (m_state_vcd) return true;
  std::string base = vcd_path;
  if (base.size() > 4 && base.compare(base.size() - 4, 4, ".vcd") == 0) base.resize(base.size() - 4);
  m_state_vcd = sc_core::sc_create_vcd_trace_file(base.c_str());  // SystemC appends ".vcd"
  if (!m_state_vcd) return false;
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
      sc_core::sc_trace(m_state_vcd, m_credits[size_t(p) * m_nv + v], o + ".credits");
      sc_core::sc_trace(m_state_vcd, m_allocated[size_t(p) * m_nv + v], o + ".allocated", 1);
    }
  return true;
}

bool TorusRouter::activity(uint64_t now, RouterActivity& a) const {
  RouterBase::activity(now, a);
  a.buffer_writes = m_writes;
  a.buffer_reads = m_reads;
  a.vc_allocations = m_vc_allocs;
  int64_t occ = 0;
  for (size_t i = 0; i < m_in.size(); ++i) occ += m_occ[i] + int64_t(m_in[i].count) * int64_t(now);
  a.occupancy_integral = uint64_t(occ);
  a.vc_flits = m_vc_out;
  a.blocked_vc = m_blk_vc;
  a.blocked_credit = m_blk_credit;
  a.blocked_switch = m_blk_switch;
  return true;
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
  PortRoute rs;
  if (m_routing) {
    rs = m_routing->route(m_node, in_port < m_net ? in_port : -1, head.dst, head.tie);
  } else {
    const sw::RouteStep s = m_topo.route(m_node, target, head.tie);
    rs.port = s.port;
    rs.classed = s.port >= 0 && m_topo.torus(s.port >> 1);
    rs.vclass = s.vclass;
  }
  if (rs.port < 0) {  // only at the destination in phase 2: a phase-1 head is not at its target
    out_port = m_p.local == 1 ? m_net : (in_port < m_net ? m_net + in_port : in_port);
    vc_lo = 0;
    vc_hi = m_p.valiant ? m_nv : m_p.escape_vcs();
    return;
  }
  out_port = rs.port;
  vc_lo = base;
  vc_hi = base + m_p.escape_vcs();
  if (m_p.classes == 2 && rs.classed) {
    vc_lo = base + int(rs.vclass) * m_p.vcs_per_class;
    vc_hi = vc_lo + m_p.vcs_per_class;
  }
}

int TorusRouter::pick_adaptive(const Flit& head, int need_credits) const {
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
        if (m_allocated[size_t(ovc)] || m_credits[size_t(ovc)] < need_credits) continue;
        if (m_credits[size_t(ovc)] > best_credits) {
          best = ovc;
          best_credits = m_credits[size_t(ovc)];
        }
      }
    }
  }
  return best;
}

void TorusRouter::allocate(uint64_t t) {
  uint32_t flit_written = 0, credit_written = 0;  // output port bit masks of this cycle

  if (m_buffered > 0) {
    const int depth = m_p.buffer_depth;
    const int nivc = m_np * m_nv;

    bool any = false;
    if (m_va_unit) {
      any = allocate_by_units(t);
    } else {  // input-first, inline: the default's fast path, the same rule as the unit's

    // 5.2 + 5.3: route and VC allocation, input stage then output stage.
    m_touched.clear();
    for (uint32_t pm = m_port_mask; pm; pm &= pm - 1) {
     const int port = __builtin_ctz(pm);
     for (uint32_t vm = m_vc_mask[size_t(port)]; vm; vm &= vm - 1) {
      const int ivc = port * m_nv + __builtin_ctz(vm);
      InVc& in = m_in[size_t(ivc)];
      if (in.active) continue;
      const Slot& s = in.fifo[size_t(in.head)];
      if (s.ready > t) continue;
      if (!s.flit.head) internal_error(name(), "body flit on an idle VC at input " + std::to_string(ivc / m_nv));
      int o, lo, hi;
      route(ivc / m_nv, s.flit, o, lo, hi);
      // Free (5.3): not allocated, and under `empty` also every credit back.
      const int need_credits = m_p.vc_realloc_tail ? 0 : depth;
      const int ptr = m_va_in_ptr[size_t(ivc)];
      // min-adaptive (section 12): an adaptive VC of a productive direction first, else escape.
      int chosen = m_p.adaptive && o < m_net ? pick_adaptive(s.flit, need_credits) : -1;
      for (int i = 0; chosen < 0 && i < m_nv; ++i) {
        int w = ptr + i;
        if (w >= m_nv) w -= m_nv;
        if (w < lo || w >= hi) continue;
        const int ovc = o * m_nv + w;
        if (!m_allocated[size_t(ovc)] && m_credits[size_t(ovc)] >= need_credits) {
          chosen = ovc;
          break;
        }
      }
      if (chosen < 0) continue;
      int& best = m_va_best[size_t(chosen)];
      if (best < 0) {
        m_touched.push_back(chosen);
        best = ivc;
      } else {
        const int ptr_o = m_va_out_ptr[size_t(chosen)];
        if (rr_distance(ivc, ptr_o, nivc) < rr_distance(best, ptr_o, nivc)) best = ivc;
      }
     }
    }
    for (int ovc : m_touched) {
      const int ivc = m_va_best[size_t(ovc)];
      m_va_best[size_t(ovc)] = -1;
      InVc& in = m_in[size_t(ivc)];
      in.active = true;
      in.out_port = ovc / m_nv;
      in.out_vc = ovc % m_nv;
      m_allocated[size_t(ovc)] = 1;
      ++m_vc_allocs;
      m_va_out_ptr[size_t(ovc)] = ivc + 1 == nivc ? 0 : ivc + 1;
      m_va_in_ptr[size_t(ivc)] = in.out_vc + 1 == m_nv ? 0 : in.out_vc + 1;
    }

    // 5.4: switch allocation, input stage (one VC per input port) then output stage.
    for (uint32_t pm = m_port_mask; pm; pm &= pm - 1) {
      const int p = __builtin_ctz(pm);
      m_sa_vc[size_t(p)] = -1;
      const int ptr = m_sa_in_ptr[size_t(p)];
      const uint32_t vmask = m_vc_mask[size_t(p)];
      for (int i = 0; i < m_nv; ++i) {
        int v = ptr + i;
        if (v >= m_nv) v -= m_nv;
        if (!(vmask >> v & 1)) continue;
        const InVc& in = m_in[size_t(p) * m_nv + v];
        if (!in.active) continue;
        if (in.fifo[size_t(in.head)].ready > t) continue;
        if (m_credits[size_t(in.out_port) * m_nv + in.out_vc] == 0) continue;
        m_sa_vc[size_t(p)] = v;
        any = true;
        const int o = in.out_port;
        int& best = m_sa_best[size_t(o)];
        if (best < 0 || rr_distance(p, m_sa_out_ptr[size_t(o)], m_np) < rr_distance(best, m_sa_out_ptr[size_t(o)], m_np))
          best = p;
        break;
      }
    }
    }

    // Blocking (statistics only): every input VC whose front flit is eligible at this edge and is
    // not granted the switch, by what held it.
    for (uint32_t pm = m_port_mask; pm; pm &= pm - 1) {
      const int p = __builtin_ctz(pm);
      for (uint32_t vm = m_vc_mask[size_t(p)]; vm; vm &= vm - 1) {
        const int v = __builtin_ctz(vm);
        const size_t ivc = size_t(p) * m_nv + v;
        const InVc& in = m_in[ivc];
        if (in.fifo[size_t(in.head)].ready > t) continue;
        if (!in.active)
          ++m_blk_vc[ivc];
        else if (m_credits[size_t(in.out_port) * m_nv + in.out_vc] == 0)
          ++m_blk_credit[ivc];
        else if (!any || m_sa_best[size_t(in.out_port)] != p || m_sa_vc[size_t(p)] != v)
          ++m_blk_switch[ivc];
      }
    }

    // 5.5 + 6: the winners traverse the switch.
    if (any) {
      for (int o = 0; o < m_np; ++o) {
        const int p = m_sa_best[size_t(o)];
        if (p < 0) continue;
        m_sa_best[size_t(o)] = -1;
        const int v = m_sa_vc[size_t(p)];
        InVc& in = m_in[size_t(p) * m_nv + v];
        Flit f = in.fifo[size_t(in.head)].flit;
        if (++in.head == depth) in.head = 0;
        if (--in.count == 0) {
          m_vc_mask[size_t(p)] &= ~(1u << v);
          if (!m_vc_mask[size_t(p)]) m_port_mask &= ~(1u << p);
        }
        --m_buffered;
        ++m_reads;
        m_occ[size_t(p) * m_nv + v] += int64_t(t);  // read out at edge t
        const int w = in.out_vc;
        ++m_vc_out[size_t(o) * m_nv + w];
        f.vc = uint8_t(w);
        --m_credits[size_t(o) * m_nv + w];
        if (f.tail) {
          in.active = false;
          m_allocated[size_t(o) * m_nv + w] = 0;
        }
        m_sa_out_ptr[size_t(o)] = p + 1 == m_np ? 0 : p + 1;
        m_sa_in_ptr[size_t(p)] = v + 1 == m_nv ? 0 : v + 1;
        flit_out[o].write(f);
        flit_written |= 1u << o;
        credit_out[p].write(Credit{true, uint8_t(v)});
        credit_written |= 1u << p;
        count_output(o, t);
        if (m_observer)
          m_observer->on_hop(HopEvent{t, m_node, p, o, w, payload_packet(f.payload), payload_index(f.payload), f.head, f.tail});
      }
    }
  }

  // Every output not driven this cycle is invalid; write only when it was valid before.
  for (uint32_t m = m_flit_out_valid & ~flit_written; m; m &= m - 1) flit_out[__builtin_ctz(m)].write(Flit{});
  for (uint32_t m = m_credit_out_valid & ~credit_written; m; m &= m - 1) credit_out[__builtin_ctz(m)].write(Credit{});
  m_flit_out_valid = flit_written;
  m_credit_out_valid = credit_written;
}

bool TorusRouter::allocate_by_units(uint64_t t) {
  const int depth = m_p.buffer_depth;
  const int need_credits = m_p.vc_realloc_tail ? 0 : depth;
  // 5.2 + 5.3: every idle input VC with an eligible head requests each free allowed output VC.
  m_va_unit->clear();
  bool any_va = false;
  for (uint32_t pm = m_port_mask; pm; pm &= pm - 1) {
    const int port = __builtin_ctz(pm);
    for (uint32_t vm = m_vc_mask[size_t(port)]; vm; vm &= vm - 1) {
      const int ivc = port * m_nv + __builtin_ctz(vm);
      const InVc& in = m_in[size_t(ivc)];
      if (in.active) continue;
      const Slot& s = in.fifo[size_t(in.head)];
      if (s.ready > t) continue;
      if (!s.flit.head) internal_error(name(), "body flit on an idle VC at input " + std::to_string(port));
      int o, lo, hi;
      route(port, s.flit, o, lo, hi);
      m_va_port[size_t(ivc)] = o;
      for (int w = lo; w < hi; ++w) {
        const int ovc = o * m_nv + w;
        if (m_allocated[size_t(ovc)] || m_credits[size_t(ovc)] < need_credits) continue;
        m_va_unit->request(ivc, w, ovc);
        any_va = true;
      }
    }
  }
  if (any_va) {
    m_va_unit->allocate(m_grant);
    for (int ivc = 0; ivc < m_np * m_nv; ++ivc) {
      const int w = m_grant[size_t(ivc)];
      if (w < 0) continue;
      InVc& in = m_in[size_t(ivc)];
      in.active = true;
      in.out_port = m_va_port[size_t(ivc)];
      in.out_vc = w;
      m_allocated[size_t(in.out_port * m_nv + w)] = 1;
      ++m_vc_allocs;
    }
  }
  // 5.4: every active input VC with an eligible front flit and a credit requests its output port.
  m_sa_unit->clear();
  bool any_sa = false;
  for (uint32_t pm = m_port_mask; pm; pm &= pm - 1) {
    const int p = __builtin_ctz(pm);
    for (uint32_t vm = m_vc_mask[size_t(p)]; vm; vm &= vm - 1) {
      const int v = __builtin_ctz(vm);
      const InVc& in = m_in[size_t(p) * m_nv + v];
      if (!in.active || in.fifo[size_t(in.head)].ready > t) continue;
      if (m_credits[size_t(in.out_port) * m_nv + in.out_vc] == 0) continue;
      m_sa_unit->request(p, v, in.out_port);
      any_sa = true;
    }
  }
  if (!any_sa) return false;
  m_sa_unit->allocate(m_grant);
  bool any = false;
  for (int p = 0; p < m_np; ++p) {
    const int v = m_grant[size_t(p)];
    if (v < 0) continue;
    m_sa_vc[size_t(p)] = v;
    m_sa_best[size_t(m_in[size_t(p) * m_nv + v].out_port)] = p;
    any = true;
  }
  return any;
}

std::vector<TorusRouter::Wait> TorusRouter::waiting() const {
  std::vector<Wait> out;
  for (int ivc = 0; ivc < m_np * m_nv; ++ivc) {
    const InVc& in = m_in[size_t(ivc)];
    if (in.count == 0) continue;
    Wait w{ivc / m_nv, ivc % m_nv, in.out_port, in.active ? in.out_vc : -1, -1, -1, in.fifo[size_t(in.head)].flit, in.count};
    if (!in.active) route(w.in_port, w.front, w.out_port, w.vc_lo, w.vc_hi);
    out.push_back(w);
  }
  return out;
}

}  // namespace wormcast
