// Elaboration of a k-ary n-cube of routers and NICs, tracing, and the deadlock wait-for report.
#include "systemc/torus/network.h"

#include <fmt/format.h>

namespace wormcast {

TorusNetwork::TorusNetwork(sc_core::sc_module_name name, const Config& cfg, PacketListener* listener)
    : sc_module(name), m_cfg(cfg), m_topo(cfg.net.topology()), m_rp(derive_router_params(cfg.net, cfg.router)) {
  const int n = m_topo.num_nodes();
  const int np = m_rp.num_ports();
  const int net = 2 * m_rp.dims;
  m_idle_flit = std::make_unique<FlitSig>("idle_flit");
  m_idle_credit = std::make_unique<CreditSig>("idle_credit");
  RouterMaker rtl;
  if (cfg.router.model != RouterModel::SystemC) rtl = rtl_router_maker(cfg);
  for (int r = 0; r < n; ++r) {
    if (node_is_rtl(cfg, m_topo, r))
      m_routers.push_back(rtl(node_name(r).c_str(), m_rp, m_topo, r, &m_activity));
    else
      m_routers.push_back(std::make_unique<TorusRouter>(node_name(r).c_str(), m_rp, m_topo, r, &m_activity));
    m_nics.push_back(std::make_unique<Nic>(("nic" + node_name(r).substr(1)).c_str(), cfg.nic, m_rp, m_topo, r, &m_sb, listener));
  }
  for (int r = 0; r < n; ++r) {
    RouterBase& R = *m_routers[size_t(r)];
    R.clk(clk);
    m_nics[size_t(r)]->clk(clk);
    for (int p = 0; p < np; ++p) {
      m_out_flit.push_back(std::make_unique<FlitSig>(fmt::format("{}_out_{}", node_name(r), p).c_str()));
      m_out_credit.push_back(std::make_unique<CreditSig>(fmt::format("{}_credit_out_{}", node_name(r), p).c_str()));
      R.flit_out[p](*m_out_flit.back());
      R.credit_out[p](*m_out_credit.back());
    }
  }
  for (int r = 0; r < n; ++r) {
    RouterBase& R = *m_routers[size_t(r)];
    Nic& N = *m_nics[size_t(r)];
    for (int p = 0; p < net; ++p) {
      const int nb = m_topo.neighbor(r, p);
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
      N.inj_out[j](*m_nic_flit.back());
      R.flit_in[p](*m_nic_flit.back());
      N.ej_credit[j](*m_nic_credit.back());
      R.credit_in[p](*m_nic_credit.back());
      N.ej_in[j](*m_out_flit[size_t(r * np + p)]);
      N.inj_credit[j](*m_out_credit[size_t(r * np + p)]);
    }
  }
}

std::string router_name(const sw::Topology& topo, int node) {
  std::string s = "r";
  for (int d = 0; d < topo.dims(); ++d) s += "_" + std::to_string(topo.coord_of(node, d));
  return s;
}

std::string TorusNetwork::node_name(int node) const { return router_name(m_topo, node); }

void TorusNetwork::set_observer(HopObserver* obs) {
  for (auto& r : m_routers) r->set_observer(obs);
}

void TorusNetwork::trace(sc_core::sc_trace_file* tf) const {
  for (auto& r : m_routers) {
    const std::string base = r->name();
    for (int p = 0; p < m_rp.num_ports(); ++p) {
      sc_trace(tf, r->flit_in[p].read(), base + ".in_" + std::to_string(p));
      sc_trace(tf, r->flit_out[p].read(), base + ".out_" + std::to_string(p));
      sc_trace(tf, r->credit_in[p].read(), base + ".credit_in_" + std::to_string(p));
      sc_trace(tf, r->credit_out[p].read(), base + ".credit_out_" + std::to_string(p));
    }
  }
}

std::string TorusNetwork::gtkw(const std::string& dump_file) const {
  std::string s = fmt::format("[dumpfile] \"{}\"\n", dump_file);
  for (auto& r : m_routers) {
    const std::string base = std::string("SystemC.") + r->name();  // the VCD writer's top scope
    s += fmt::format("@800200\n-{}\n", r->name());
    for (int p = 0; p < m_rp.num_ports(); ++p) {
      for (const char* w : {"in_", "out_"}) {
        const std::string sig = base + "." + w + std::to_string(p);
        s += fmt::format("@28\n{}.valid\n@22\n{}.payload[31:0]\n", sig, sig);
      }
    }
    s += fmt::format("@1000200\n-{}\n", r->name());
  }
  return s;
}

nlohmann::json TorusNetwork::wait_for() const {
  nlohmann::json list = nlohmann::json::array();
  const int net = 2 * m_rp.dims;
  for (auto& r : m_routers) {
    for (auto& w : r->waiting()) {
      nlohmann::json e;
      if (w.in_port < 0) {  // an RTL router: only its flit count is visible at the ports
        e["buffer"] = fmt::format("{} (rtl)", node_name(r->node()));
        e["occupancy"] = w.occupancy;
        e["waits_for"] = "not visible at an RTL router's ports (see the waveform of its input buffers)";
        list.push_back(e);
        continue;
      }
      e["buffer"] = fmt::format("{}.in_{} vc{}", node_name(r->node()), w.in_port, w.in_vc);
      e["occupancy"] = w.occupancy;
      e["packet"] = payload_packet(w.front.payload);
      e["dst"] = w.front.dst;
      if (w.out_port >= net) {
        e["waits_for"] = fmt::format("{}.ejection_{}", node_name(r->node()), w.out_port - net);
      } else {
        const int nb = m_topo.neighbor(r->node(), w.out_port);
        e["waits_for"] = w.out_vc >= 0
                             ? fmt::format("{}.in_{} vc{}", node_name(nb), w.out_port ^ 1, w.out_vc)
                             : fmt::format("a free VC of {}.in_{}", node_name(nb), w.out_port ^ 1);
      }
      list.push_back(e);
    }
  }
  return list;
}

std::vector<uint64_t> TorusNetwork::link_counters() const {
  std::vector<uint64_t> v;
  const int net = 2 * m_rp.dims;
  for (auto& r : m_routers)
    for (int p = 0; p < net; ++p)
      v.push_back(m_topo.neighbor(r->node(), p) < 0 ? ~uint64_t(0) : r->output_flits()[size_t(p)]);
  return v;
}

uint64_t TorusNetwork::outstanding() const {
  uint64_t n = m_sb.in_flight();
  for (auto& nic : m_nics) n += nic->backlog();
  return n;
}

}  // namespace wormcast
