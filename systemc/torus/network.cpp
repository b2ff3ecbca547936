// Elaboration of a k-ary n-cube of routers and NICs, tracing, the wait-for edges, and the torus
// family's registration (configuration rules and builder).
// Why one file: the wiring, the plain links and the family's validation all follow one port
// numbering and one node order, and are checked against each other here.
#include "systemc/torus/network.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <set>
#include <string_view>

#include <fmt/format.h>

#include "systemc/common/limits.h"
#include "systemc/torus/config.h"
#include "systemc/torus/router.h"
#include "systemc/torus/router_models.h"

namespace wormcast {

RouterParams derive_router_params(const NetConfig& net, const RouterConfig& r, int extra_ports) {
  RouterParams p;
  p.dims = int(net.radix.size());
  p.extra_ports = extra_ports;
  p.local = r.local_ports == LocalPorts::All ? p.net_ports() : 1;
  const bool any_torus = std::find(net.torus.begin(), net.torus.end(), true) != net.torus.end();
  p.classes = (r.dateline && any_torus) ? 2 : 1;
  p.vcs_per_class = r.vcs_per_class;
  p.num_vcs = p.classes * r.vcs_per_class;
  p.adaptive = r.routing == RouterRouting::MinAdaptive && extra_ports == 0;
  if (p.adaptive) p.num_vcs += r.adaptive_vcs;
  p.valiant = r.routing == RouterRouting::Valiant && extra_ports == 0;
  if (p.valiant) p.num_vcs *= 2;  // one dimension-order set per phase
  p.buffer_depth = r.buffer_depth;
  p.router_delay = r.router_delay;
  p.link_delay = r.link_delay;
  p.credit_delay = r.credit_delay;
  p.injection_credit_delay = r.injection_credit_delay < 0 ? r.credit_delay : r.injection_credit_delay;
  p.vc_realloc_tail = r.vc_realloc == VcRealloc::Tail;
  p.allocator = r.allocator == RouterAllocator::OutputFirst ? AllocatorKind::OutputFirst
                : r.allocator == RouterAllocator::Islip   ? AllocatorKind::Islip
                                                          : AllocatorKind::InputFirst;
  p.islip_iterations = r.islip_iterations;
  p.switch_allocator =
      r.switch_accept == SwitchAccept::Port && r.allocator == RouterAllocator::Islip ? AllocatorKind::IslipPorts : p.allocator;
  p.injection_delay = r.injection_delay;
  p.ejection_delay = r.ejection_delay;
  p.ejection_credit_delay = r.ejection_credit_delay;
  p.staged = r.pipeline == RouterPipeline::Staged;
  p.vc_class_entry = r.vc_class == VcClassRule::Entry;
  p.injection_vc_free = r.injection_vc == InjectionVc::Free;
  return p;
}

// sim.threads = auto: threads pay once an edge's routers take longer than handing it to the other
// threads and back, and only on cores no other work takes (docs/experiments/speed.md "Router speed": on
// 2 cores from about 4096 routers under load, and not beside a CPU-bound process); each thread
// needs enough routers to keep its lane busy.
static constexpr int kAutoMinRouters = 4096;
static constexpr int kAutoRoutersPerThread = 2048;

static int resolve_threads(int requested, int routers, bool bands, std::string& rule) {
  if (bands) {
    check_bands_threads(requested, Schedule::Bands);
    rule = "bands: one thread";
    return 1;
  }
  if (requested > 0) {
    rule = "given";
    return requested;
  }
  if (routers < kAutoMinRouters) {  // the rule without the load, which would make the result vary
    rule = fmt::format("auto: 1 below {} routers; {} routers", kAutoMinRouters, routers);
    return 1;
  }
  const int cores = available_cores();
  const double load = load_average();
  const int free = cores - int(std::lround(load));
  const int threads = std::clamp(std::min(free, routers / kAutoRoutersPerThread), 1, kMaxThreads);
  rule = fmt::format(
      "auto: 1 below {} routers, else min(cores - load average, routers / {}); {} routers, {} cores, load {:.2f}",
      kAutoMinRouters, kAutoRoutersPerThread, routers, cores, load);
  return threads;
}

TorusNetwork::TorusNetwork(sc_core::sc_module_name name, const Config& cfg, const NetworkOptions& opt)
    : TorusNetwork(name, cfg, opt, derive_router_params(cfg.net, cfg.part<RouterConfig>()), nullptr) {}

TorusNetwork::TorusNetwork(sc_core::sc_module_name name, const Config& cfg, const NetworkOptions& opt,
                           const RouterParams& rp, std::shared_ptr<const PortRouting> routing)
    : Network(name, cfg, opt), m_rp(rp), m_routing(std::move(routing)) {
  m_sb.set_masks(0xffffff, 0xff);  // the flit payload's packet and index fields (flit.h)
  const int n = m_topo.num_nodes();
  const int np = m_rp.num_ports();
  const int net = m_rp.net_ports();
  m_rising = std::make_unique<EdgeSet>("routers", true);
  m_falling = std::make_unique<EdgeSet>("nic_ports", false);
  m_rising->clk(clk);
  m_falling->clk(clk);
  m_bank = std::make_unique<LinkBank>("links");
  m_flit_queue = std::make_unique<LinkQueue<Flit>>(*m_bank);
  m_credit_queue = std::make_unique<LinkQueue<Credit>>(*m_bank);
  m_plain = opt.plain_links && cfg.part<RouterConfig>().model == RouterModel::SystemC && !opt.trace_internals;
  m_bands = cfg.sim.schedule == Schedule::Bands;
  m_band_nodes = cfg.sim.band_nodes;
  const int threads = resolve_threads(cfg.sim.threads, n, m_bands, m_threads_rule);
  // sim.schedule = auto: a network of several blocks in one thread may run in bands; the clock
  // runs them where its probe measures them faster than cycle by cycle, on this run (bandable(),
  // band_probe(); docs/kernel.md section 5).
  if (cfg.sim.schedule == Schedule::Auto && threads == 1) m_bands = true;
  m_rising->set_lanes(threads, m_plain ? nullptr : m_bank.get(), size_t(n));
  m_rising->set_adaptive(cfg.sim.lanes != LaneRule::Always, cfg.sim.lanes == LaneRule::Adaptive);
  m_idle_flit = std::make_unique<FlitSig>("idle_flit");
  m_idle_credit = std::make_unique<CreditSig>("idle_credit");
  RouterMaker rtl;
  if (cfg.part<RouterConfig>().model != RouterModel::SystemC) {
    // The traced variant of the RTL model (a build of its own, and slower) only where --rtl-vcd
    // names an RTL router: in a mixed network a SystemC router dumps its own state.
    bool rtl_named = false;
    for (const std::string& arg : opt.internal_routers)
      for (int r = 0; r < n && !rtl_named; ++r)
        rtl_named = arg.compare(0, arg.find('='), node_name(r)) == 0 && node_is_rtl(cfg, m_topo, r);
    if (opt.trace_internals && (rtl_named || opt.internal_routers.empty())) enable_rtl_internal_tracing();
    rtl = rtl_router_maker(cfg);
  }
  if (m_plain) m_watch.resize(size_t(n));  // never resized again: the routers keep their entries
  for (int r = 0; r < n; ++r) {
    if (node_is_rtl(cfg, m_topo, r))
      m_routers.push_back(rtl(node_name(r).c_str(), m_rp, m_topo, r, &m_activity));
    else
      m_routers.push_back(std::make_unique<TorusRouter>(node_name(r).c_str(), m_rp, m_topo, r, &m_activity,
                                                        m_routing.get(), m_rising.get(), m_plain,
                                                        m_plain ? &m_watch[size_t(r)] : nullptr));
    const std::string nic_name = "nic" + node_name(r).substr(1);
    Nic& core = add_nic(std::make_unique<Nic>(nic_name.c_str(), cfg.nic, r, n, &m_sb, opt.listener, opt.node_software));
    m_ports.push_back(
        std::make_unique<TorusNicPort>((nic_name + "_port").c_str(), core, m_rp, m_topo, m_routing.get(), cfg.sim.seed,
                                       m_falling.get(), m_plain));
  }
  if (m_plain) {
    for (int r = 0; r < n; ++r) {
      m_routers[size_t(r)]->clk(clk);
      m_ports[size_t(r)]->clk(clk);
    }
    wire_plain_links();
    return;
  }
  for (int r = 0; r < n; ++r) {
    RouterBase& R = *m_routers[size_t(r)];
    R.clk(clk);
    m_ports[size_t(r)]->clk(clk);
    for (int p = 0; p < np; ++p) {
      m_out_flit.push_back(std::make_unique<FlitSig>(fmt::format("{}_out_{}", node_name(r), p).c_str()));
      m_out_credit.push_back(std::make_unique<CreditSig>(fmt::format("{}_credit_out_{}", node_name(r), p).c_str()));
      m_out_flit.back()->set_queue(m_flit_queue.get());
      m_out_credit.back()->set_queue(m_credit_queue.get());
      R.flit_out[p](*m_out_flit.back());
      R.credit_out[p](*m_out_credit.back());
    }
  }
  for (int r = 0; r < n; ++r) {
    RouterBase& R = *m_routers[size_t(r)];
    TorusNicPort& N = *m_ports[size_t(r)];
    for (int p = 0; p < net; ++p) {
      const int nb = neighbor(r, p);
      if (nb < 0) {  // mesh edge: nothing ever arrives, no credit ever returns
        R.flit_in[p](*m_idle_flit);
        R.credit_in[p](*m_idle_credit);
        continue;
      }
      // Our input p is fed by the neighbour's output on the opposite side (p ^ 1).
      R.flit_in[p](*m_out_flit[size_t(nb * np + (p ^ 1))]);
      R.credit_in[p](*m_out_credit[size_t(nb * np + (p ^ 1))]);
    }
    for (int j = 0; j < m_rp.local; ++j) {
      const int p = net + j;
      m_nic_flit.push_back(std::make_unique<FlitSig>(fmt::format("{}_inj_{}", node_name(r), j).c_str()));
      m_nic_credit.push_back(std::make_unique<CreditSig>(fmt::format("{}_ej_credit_{}", node_name(r), j).c_str()));
      m_nic_flit.back()->set_queue(m_flit_queue.get());
      m_nic_credit.back()->set_queue(m_credit_queue.get());
      N.inj_out[j](*m_nic_flit.back());
      R.flit_in[p](*m_nic_flit.back());
      N.ej_credit[j](*m_nic_credit.back());
      R.credit_in[p](*m_nic_credit.back());
      N.ej_in[j](*m_out_flit[size_t(r * np + p)]);
      N.inj_credit[j](*m_out_credit[size_t(r * np + p)]);
    }
  }
}

void TorusNetwork::wire_plain_links() {
  // The same wiring as the signals' (the constructor), as boxes: a writer fills a box and sets its
  // reader's valid bit; a reader takes the boxes of its inputs (docs/kernel.md).
  const int n = m_topo.num_nodes();
  const int np = m_rp.num_ports();
  const int net = m_rp.net_ports();
  const int local = m_rp.local;
  m_flit_boxes.resize(size_t(n) * size_t(np + local));
  m_credit_boxes.resize(size_t(n) * size_t(np + local));
  const size_t inj = size_t(n) * size_t(np);  // the NIC ports' ejection flits and injection credits follow
  std::vector<TorusRouter*> routers;
  for (auto& r : m_routers) routers.push_back(static_cast<TorusRouter*>(r.get()));
  // Lanes: a router with a writer in another lane has its mask words written from two threads in
  // one edge; all its router writers then set their bits atomically (the NIC port's writes come at
  // the falling edge, which runs in one thread).
  const auto shared = [&](int b) {
    if (m_rising->lanes() == 1) return false;
    for (int q = 0; q < net; ++q)
      if (const int w = neighbor(b, q); w >= 0 && m_rising->lane_of(uint32_t(w)) != m_rising->lane_of(uint32_t(b)))
        return true;
    return false;
  };
  // Every box pair lies with its reader (network.h): a router's inputs are one block, which the
  // routers' edge reads in node order, and the scattered accesses are the writers' stores.
  static_assert(sizeof(Boxes<Flit>) == 2 * sizeof(Flit) && sizeof(Boxes<Credit>) == 2 * sizeof(Credit),
                "a box pair is two boxes");
  for (TorusRouter* R : routers) R->plain_box_arrays(m_flit_boxes[0].v, m_credit_boxes[0].v);
  // The compact network writers pay where the routers' state outgrows the caches (a 128x128 torus:
  // 0.91 of the time without them) and cost a few instructions per flit where it does not (an 8x8
  // torus: 1.03; a 64x64 one: the same either way), docs/kernel.md section 2.
  const bool compact = n > kCompactWritersAbove;
  for (int r = 0; r < n; ++r) {
    TorusRouter& R = *routers[size_t(r)];
    TorusNicPort& N = *m_ports[size_t(r)];
    for (int p = 0; p < net; ++p) {
      const size_t own = size_t(r) * size_t(np) + size_t(p);
      const int nb = neighbor(r, p);
      if (nb < 0) {  // mesh edge: nothing ever arrives, no credit ever returns, nothing is sent
        R.plain_input(p, m_idle_flit_boxes.v, m_idle_credit_boxes.v);
        // (Its own input boxes have no other writer: a sink that nobody reads.)
        R.plain_flit_output(p).attach_boxes(m_flit_boxes[own].v, m_nobody_mask, 1, &m_nobody);
        R.plain_credit_output(p).attach_boxes(m_credit_boxes[own].v, m_nobody_mask, 1, &m_nobody);
        continue;
      }
      // Our input p is fed by the neighbour's output on the opposite side (p ^ 1); our output p
      // feeds the neighbour's input p ^ 1 (flits and the credits for its output p ^ 1 alike).
      R.plain_input(p, m_flit_boxes[own].v, m_credit_boxes[own].v);
      const size_t theirs = size_t(nb) * size_t(np) + size_t(p ^ 1);
      TorusRouter& B = *routers[size_t(nb)];
      const uint32_t bit = uint32_t(1) << (p ^ 1);
      R.plain_flit_output(p).attach_boxes(m_flit_boxes[theirs].v, B.flit_valid_masks(), bit, B.waker());
      R.plain_credit_output(p).attach_boxes(m_credit_boxes[theirs].v, B.credit_valid_masks(), bit, B.waker());
      const bool atomic = shared(nb);
      R.plain_flit_output(p).set_shared(atomic);
      R.plain_credit_output(p).set_shared(atomic);
      if (compact) R.plain_network_output(p, &m_watch[size_t(nb)], uint32_t(theirs), p ^ 1, atomic);
    }
    for (int j = 0; j < local; ++j) {
      const int p = net + j;
      const size_t own = size_t(r) * size_t(np) + size_t(p);  // the router's input p
      const size_t nic = inj + size_t(r) * size_t(local) + size_t(j);  // the NIC port's channel j
      R.plain_input(p, m_flit_boxes[own].v, m_credit_boxes[own].v);
      N.plain_input(j, m_flit_boxes[nic].v, m_credit_boxes[nic].v);
      const uint32_t rbit = uint32_t(1) << p, nbit = uint32_t(1) << j;
      R.plain_flit_output(p).attach_boxes(m_flit_boxes[nic].v, N.ej_valid_masks(), nbit, N.waker());
      R.plain_credit_output(p).attach_boxes(m_credit_boxes[nic].v, N.credit_valid_masks(), nbit, N.waker());
      N.plain_inj_output(j).attach_boxes(m_flit_boxes[own].v, R.flit_valid_masks(), rbit, R.waker());
      N.plain_ej_credit_output(j).attach_boxes(m_credit_boxes[own].v, R.credit_valid_masks(), rbit, R.waker());
    }
  }
  m_boxed = true;
}

void TorusNetwork::will_trace() {
  if (m_plain) SC_REPORT_FATAL("wormcast/network", "will_trace() on a network built with plain links");
  m_links_traced = true;
}

std::string router_name(const sw::Topology& topo, int node) { return coord_name(topo, "r", node); }

std::string TorusNetwork::node_name(int node) const { return router_name(m_topo, node); }

std::string TorusNetwork::set_hop_observer(HopObserver* obs) {
  for (auto& r : m_routers) r->set_observer(obs);
  m_hop_observed = obs != nullptr;
  return "";
}

bool TorusNetwork::band_plan(BandPlan& plan) const {
  const int n = m_topo.num_nodes(), dims = m_topo.dims();
  // The grid position of coordinate c of dimension d (folded when d wraps around).
  auto fold = [this](int d, int c) {
    const int k = m_topo.radix(d);
    return !m_topo.torus(d) ? c : c < (k + 1) / 2 ? 2 * c : 2 * (k - 1 - c) + 1;
  };
  plan.block_nodes = m_band_nodes;
  const int rd = dims - 1, cd = dims - 2;  // the dimensions of rows and columns (none: one column)
  plan.rows = m_topo.radix(rd);
  plan.cols = cd >= 0 ? m_topo.radix(cd) : 1;
  std::vector<int> cell(static_cast<size_t>(n));  // row * cols + column, per node
  for (int r = 0; r < n; ++r)
    cell[size_t(r)] = fold(rd, m_topo.coord_of(r, rd)) * plan.cols + (cd >= 0 ? fold(cd, m_topo.coord_of(r, cd)) : 0);
  const size_t cells = size_t(plan.rows) * size_t(plan.cols);
  plan.start.assign(cells + 1, 0);
  for (int r = 0; r < n; ++r) ++plan.start[size_t(cell[size_t(r)]) + 1];
  for (size_t c = 0; c < cells; ++c) plan.start[c + 1] += plan.start[c];
  plan.nodes.assign(size_t(n), 0);
  std::vector<size_t> fill(plan.start.begin(), plan.start.end() - 1);
  for (int r = 0; r < n; ++r) plan.nodes[fill[size_t(cell[size_t(r)])]++] = r;  // node order within a cell
  plan.row_reach = plan.col_reach = 0;
  for (int r = 0; r < n; ++r)
    for (int p = 0; p < m_rp.net_ports(); ++p)
      if (const int w = neighbor(r, p); w >= 0) {
        const int a = cell[size_t(r)], b = cell[size_t(w)];
        plan.row_reach = std::max(plan.row_reach, std::abs(a / plan.cols - b / plan.cols));
        plan.col_reach = std::max(plan.col_reach, std::abs(a % plan.cols - b % plan.cols));
      }
  return true;
}

std::string TorusNetwork::trace_internals(int node, const std::string& vcd_path) {
  if (!m_routers[size_t(node)]->trace_internals(vcd_path))
    return fmt::format("{}: cannot open the waveform '{}'", node_name(node), vcd_path);
  return "";
}

void TorusNetwork::start_of_simulation() {
  // A waveform reads the links' committed values and an RTL router their signal interface; both
  // need the update phase. With lanes, a queued link's values cross between threads in batches
  // (committed by the reader's lane); a mailbox would move its box and its reader's mask between
  // the cores at every write across a lane boundary, which cost more than the update phase saves
  // (an 8x8x8 torus at 0.25 with two threads: 1.19x the wall time).
  if (m_plain || m_links_traced || m_rising->lanes() > 1) return;
  std::vector<TorusRouter*> routers;
  for (auto& r : m_routers) {
    auto* sc = dynamic_cast<TorusRouter*>(r.get());
    if (!sc) return;
    routers.push_back(sc);
  }
  for (auto* links : {&m_out_flit, &m_nic_flit})
    for (auto& l : *links) l->set_boxed();
  for (auto* links : {&m_out_credit, &m_nic_credit})
    for (auto& l : *links) l->set_boxed();
  m_idle_flit->set_boxed();
  m_idle_credit->set_boxed();
  for (TorusRouter* r : routers) r->use_mailboxes();
  for (auto& p : m_ports) p->use_mailboxes();
  m_boxed = true;
}

void TorusNetwork::trace(sc_core::sc_trace_file* tf) const {
  if (!m_links_traced) SC_REPORT_FATAL("wormcast/network", "trace() without will_trace() before the simulation");
  for (auto& r : m_routers) {
    if (!traced(r->node())) continue;
    const std::string base = r->name();
    for (int p = 0; p < m_rp.num_ports(); ++p) {
      sc_trace(tf, r->flit_in[p].read(), base + ".in_" + std::to_string(p));
      sc_trace(tf, r->flit_out[p].read(), base + ".out_" + std::to_string(p));
      sc_trace(tf, r->credit_in[p].read(), base + ".credit_in_" + std::to_string(p));
      sc_trace(tf, r->credit_out[p].read(), base + ".credit_out_" + std::to_string(p));
    }
  }
}

std::vector<WaitEdge> TorusNetwork::wait_edges() const {
  std::vector<WaitEdge> edges;
  const int net = m_rp.net_ports();
  std::set<int> opaque_held, opaque_shown;  // RTL routers a SystemC router's buffer waits on; those that hold flits
  for (auto& r : m_routers) {
    const std::string me = node_name(r->node());
    for (auto& w : r->waiting()) {
      WaitEdge e;
      e.occupancy = w.occupancy;
      if (w.in_port < 0) {  // an RTL router: only its flit count is visible at the ports
        e.waiter = me + " (rtl)";
        edges.push_back(e);
        opaque_shown.insert(r->node());
        continue;
      }
      e.waiter = fmt::format("{}.in_{}.vc{}", me, w.in_port, w.in_vc);
      e.packet = payload_packet(w.front.payload);
      e.dst = node_name(w.front.dst);
      if (w.out_port >= net) {  // the NIC always drains its ejection channel
        e.holder = fmt::format("{}.ejection_{}", me, w.out_port - net);
        edges.push_back(e);
        continue;
      }
      const int next = neighbor(r->node(), w.out_port);
      if (std::string_view(m_routers[size_t(next)]->model()) == "rtl") {
        // Its input VCs are not visible (mixed networks): the wait is on the router's one entry.
        e.holder = node_name(next) + " (rtl)";
        edges.push_back(e);
        opaque_held.insert(next);
        continue;
      }
      const std::string down = fmt::format("{}.in_{}", node_name(next), w.out_port ^ 1);
      if (w.out_vc >= 0) {
        e.holder = fmt::format("{}.vc{}", down, w.out_vc);
        edges.push_back(e);
      } else {  // waits for any VC of its class to be released: one edge per candidate
        for (int v = w.vc_lo; v < w.vc_hi; ++v) {  // [vc_lo, vc_hi)
          e.holder = fmt::format("{}.vc{}", down, v);
          edges.push_back(e);
        }
      }
    }
  }
  // An RTL router waited on waits itself for what its ports do not show, even when it holds no
  // flit: a wait with no named holder (not a buffer that waits for nothing).
  for (int n : opaque_held) {
    if (opaque_shown.count(n)) continue;
    WaitEdge e;
    e.waiter = node_name(n) + " (rtl)";
    edges.push_back(e);
  }
  return edges;
}

uint64_t TorusNetwork::longest_quiet() const { return longest_quiet_of(m_rp, m_topo, m_routing.get()); }

uint64_t TorusNetwork::longest_quiet_of(const RouterParams& rp, const sw::Topology& topo, const PortRouting* routing) {
  // Node 0 is a corner of a mesh and every node of a torus alike: its longest route is the
  // network's. A flit waits at most a credit round trip for its next credit on an idle path.
  int h = 0;
  for (int d = 1; d < topo.num_nodes(); ++d)
    h = std::max(h, routing ? routing->hops(0, d, false) : topo.hops(0, d, false));
  if (rp.valiant) h *= 2;
  return std::max(zero_load_hops(rp, uint64_t(h), 1), uint64_t(rp.streaming_depth()));
}

uint64_t TorusNetwork::zero_load_hops(const RouterParams& rp, uint64_t h, uint32_t length) {
  // Both directions of a k/2 tie are k/2 hops, so h does not depend on the tie bit.
  return (h + 1) * uint64_t(rp.router_delay) + h * uint64_t(rp.link_delay) +
         uint64_t(rp.injection_delay + rp.ejection_delay) + length;
}

std::vector<uint64_t> TorusNetwork::link_counters() const {
  std::vector<uint64_t> v;
  const int net = m_rp.net_ports();
  for (auto& r : m_routers) {
    const std::vector<uint64_t> out = r->output_flits();
    for (int p = 0; p < net; ++p) v.push_back(neighbor(r->node(), p) < 0 ? ~uint64_t(0) : out[size_t(p)]);
  }
  return v;
}

std::vector<RouterActivity> TorusNetwork::router_activity(uint64_t now, std::vector<bool>* counted) const {
  std::vector<RouterActivity> v(m_routers.size());
  if (counted) counted->assign(m_routers.size(), false);
  for (size_t i = 0; i < m_routers.size(); ++i) {
    const bool c = m_routers[i]->activity(now, v[i]);
    if (counted) (*counted)[i] = c;
    const std::vector<uint64_t> out = m_routers[i]->output_flits();
    v[i].link_spans = 0;
    for (int p = 0; p < m_rp.net_ports(); ++p) v[i].link_spans += out[size_t(p)] * uint64_t(link_span(int(i), p));
  }
  return v;
}

std::string TorusNetwork::link_order() const {
  return m_routing ? "router id major, network port minor (2*dim+dir, then bypass+ and bypass-)"
                   : "router id major, network port 2*dim+dir minor; -1 = no link (mesh edge)";
}

std::string TorusNetwork::vc_order() const {
  const int net = m_rp.net_ports(), v = m_rp.num_vcs;
  return "one array per router in node order; index = port * " + std::to_string(v) + " + vc (" + std::to_string(v) +
         " VCs per port), ports 0.." + std::to_string(net - 1) + " network (2*dim+dir" +
         (m_routing ? ", then bypass+ and bypass-" : "") + "), " + std::to_string(net) + ".." +
         std::to_string(m_rp.num_ports() - 1) + " local; vc_utilization by output VC, vc_blocking by input VC";
}

Family torus_family() {
  Family f;
  f.name = "torus";
  f.help = fmt::format("wormhole VC router on k-ary n-cube tori and meshes (docs/router.md); --net torus:8x8, "
                       "mesh:4x4x4; net.radix: 1..{} dimensions", limits::kMaxDims);
  f.keys = torus_keys();
  f.net_kind = [](const std::string& kind, const std::string& shape) -> Overrides {
    for (auto& p : split_list(kind, ','))
      if (p != "torus" && p != "mesh") return {};
    if (kind.empty()) return {};
    return {{"net.family", "torus"}, {"net.radix", shape}, {"net.topology", kind}};
  };
  f.net_kind_help = "torus, mesh, a comma list of them";
  f.net_examples = "torus:8x8, mesh:4x4x4, torus,mesh:8x4";
  f.validate = [](Config& c) {
    check_bands_threads(c.sim.threads, c.sim.schedule);
    if (c.net.radix.size() > size_t(limits::kMaxDims))
      throw ConfigError(fmt::format("config: net.radix has {} dimensions; allowed for the torus family: 1..{}",
                                    c.net.radix.size(), limits::kMaxDims));
    if (derive_router_params(c.net, c.part<RouterConfig>()).num_vcs > limits::kMaxVcs) {
      // The most VCs per class this router's other settings leave (classes, valiant's two sets,
      // min-adaptive's extra VCs; at least 1, router.adaptive_vcs being at most half the limit).
      RouterConfig r = c.part<RouterConfig>();
      const int given = r.vcs_per_class;
      int most = 1;
      for (r.vcs_per_class = 1; r.vcs_per_class <= given; ++r.vcs_per_class)
        if (derive_router_params(c.net, r).num_vcs <= limits::kMaxVcs) most = r.vcs_per_class;
      throw ConfigError(fmt::format("config: router.vcs_per_class = {} is invalid for this router ({} VCs per port); "
                                    "allowed: 1..{} (at most {} VCs per port: {} with dateline classes, fewer by "
                                    "router.adaptive_vcs under min-adaptive, half under valiant)",
                                    given, derive_router_params(c.net, c.part<RouterConfig>()).num_vcs, most,
                                    limits::kMaxVcs, limits::kMaxVcsPerClass));
    }
    if (c.part<RouterConfig>().routing == RouterRouting::MinAdaptive && c.part<RouterConfig>().model != RouterModel::SystemC)
      throw ConfigError("config: router.routing = min-adaptive is SystemC only; allowed with router.model = rtl "
                        "or mixed: dor (the routing the RTL router implements)");
    const int64_t nodes = c.net.nodes();
    if (c.part<RouterConfig>().routing == RouterRouting::Valiant && nodes > limits::kMaxRtlNodes)
      throw ConfigError(fmt::format("config: router.routing = valiant is invalid on {} nodes; allowed: networks of at "
                                    "most {} nodes (the head's 16-bit intermediate node), or dor, min-adaptive",
                                    nodes, limits::kMaxRtlNodes));
    if (c.part<RouterConfig>().routing == RouterRouting::Valiant && c.part<RouterConfig>().model != RouterModel::SystemC)
      throw ConfigError("config: router.routing = valiant is SystemC only; allowed with router.model = rtl or mixed: "
                        "dor (the routing the RTL router implements)");
    // (The Verilog router's own refusals first: a rule it lacks is named as SystemC only.)
    check_rtl_model(c);
    if (c.part<RouterConfig>().pipeline == RouterPipeline::Staged && c.part<RouterConfig>().router_delay < 3)
      throw ConfigError(fmt::format("config: router.router_delay = {} is invalid with router.pipeline = staged; "
                                    "allowed: 3..8 (a head's route and VC allocation stages before its switch "
                                    "allocation and traversal)",
                                    c.part<RouterConfig>().router_delay));
  };
  f.node_name = [](const Config& c, int node) { return router_name(c.net.topology(), node); };
  f.longest_quiet = [](const Config& c) {
    return TorusNetwork::longest_quiet_of(derive_router_params(c.net, c.part<RouterConfig>()), c.net.topology(), nullptr);
  };
  f.make = [](sc_core::sc_module_name name, const Config& cfg, const NetworkOptions& opt) -> std::unique_ptr<Network> {
    return std::make_unique<TorusNetwork>(name, cfg, opt);
  };
  return f;
}

}  // namespace wormcast
