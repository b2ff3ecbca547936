// The family-neutral parts of a network: node lookup, outstanding work, NIC ownership.
#include "systemc/net/network.h"

#include <algorithm>
#include <unordered_set>

#include <fmt/format.h>

#include "systemc/common/clock.h"

namespace wormcast {

Network::Network(sc_core::sc_module_name name, const Config& cfg, const NetworkOptions& opt)
    : sc_module(name), m_cfg(cfg), m_opt(opt), m_topo(cfg.net.topology()) {}

Network::~Network() = default;

std::string coord_name(const sw::Topology& topo, const std::string& prefix, int node) {
  std::string s = prefix;
  for (int d = 0; d < topo.dims(); ++d) s += "_" + std::to_string(topo.coord_of(node, d));
  return s;
}

std::string Network::node_name(int node) const { return coord_name(m_topo, "n", node); }

int Network::find_node(const std::string& name) const {
  for (int i = 0; i < num_nodes(); ++i)
    if (node_name(i) == name) return i;
  return -1;
}

uint64_t Network::outstanding() const {
  uint64_t n = m_sb.in_flight();
  for (auto& nic : m_nics) n += nic->unstarted();  // a packet being injected is in flight already
  return n;
}

uint64_t Network::zero_load_crossing() const {
  uint64_t crossing = 0;
  for (int d = 1; d < num_nodes(); ++d) crossing = std::max(crossing, zero_load(0, d, 1));
  return crossing;
}

int Network::packet_hops(const PacketRecord& rec) const {
  if (rec.dst < 0) return -1;
  if (rec.via < 0) return hops(rec.src, rec.dst);
  const int a = hops(rec.src, rec.via), b = hops(rec.via, rec.dst);
  return a < 0 || b < 0 ? -1 : a + b;
}

std::string Network::internals_refusal() const { return no_internal_signals(); }

std::string Network::no_internal_signals() {
  return "this network's routers have no internal signals to dump (their state is in the port waveform)";
}

std::string Network::router_vcd_name_error(const std::string& arg, const std::string& first, const std::string& last) {
  return fmt::format("--router-vcd '{}' is invalid; allowed: ROUTER=FILE.vcd with ROUTER a router of the network, {} .. {}",
                     arg, first, last);
}

std::string Network::router_vcd_refusal(const std::string& arg, const std::string& why) {
  return fmt::format("--router-vcd '{}' is invalid: {}; allowed: a torus or ibt network's router (or --vcd for the "
                     "port waveform)", arg, why);
}

std::string Network::waveform_router_error(const std::string& name, const std::string& first) {
  return fmt::format("--vcd-routers: '{}' is not a router of this network; allowed: names like {} (comma-separated)",
                     name, first);
}

std::string Network::router_vcd_twice(const std::string& arg, const std::string& router) {
  return fmt::format("--router-vcd '{}': router {} is given twice; allowed: one file per router", arg, router);
}

std::string Network::trace_internals(int, const std::string&) { return internals_refusal(); }

void Network::end_of_elaboration() {
  if (CycleClock* cc = CycleClock::of(clk.get_interface())) {
    set_cycle_time(cc->period());
    if (ClockRider* r = clock_rider()) cc->ride(r);
    m_cycle_clock = cc;
    return;
  }
  auto* clock = dynamic_cast<sc_core::sc_clock*>(clk.get_interface());
  if (!clock) return;  // a plain signal as clock: the period stays what it is (1 ns by default)
  // Cycle c spans [c * period, (c + 1) * period): the rising edge at its start, the falling edge
  // in its middle. A clock that starts elsewhere or falls first would shift every cycle number.
  if (clock->start_time() != sc_core::SC_ZERO_TIME || !clock->posedge_first() || clock->duty_cycle() != 0.5)
    SC_REPORT_ERROR("wormcast/clock", (std::string(clock->name()) +
                                       ": the network needs a clock that starts at time 0 with a rising edge and a "
                                       "duty cycle of 0.5")
                                          .c_str());
  set_cycle_time(clock->period());
}

Nic& Network::add_nic(std::unique_ptr<Nic> nic) {
  m_nics.push_back(std::move(nic));
  return *m_nics.back();
}

std::unique_ptr<Network> make_network(sc_core::sc_module_name name, const Config& cfg, const NetworkOptions& opt) {
  const Family* f = find_family(cfg.net.family);
  if (!f) throw ConfigError(fmt::format("config: net.family = '{}' is not registered", cfg.net.family));
  if (!opt.internal_routers.empty() && f->internals_refusal)
    if (const std::string why = f->internals_refusal(cfg); !why.empty())
      throw ConfigError(Network::router_vcd_refusal(opt.internal_routers.front(), why));
  if ((!opt.internal_routers.empty() || !opt.waveform_routers.empty()) && f->node_name) {
    const int n = cfg.net.topology().num_nodes();
    std::unordered_set<std::string> names;
    for (int i = 0; i < n; ++i) names.insert(f->node_name(cfg, i));
    std::unordered_set<std::string> given;  // a router named twice is refused here too: before any model is built
    for (const std::string& arg : opt.internal_routers) {
      const auto eq = arg.find('=');
      if (eq == std::string::npos || eq + 1 >= arg.size() || !names.count(arg.substr(0, eq)))
        throw ConfigError(Network::router_vcd_name_error(arg, f->node_name(cfg, 0), f->node_name(cfg, n - 1)));
      if (!given.insert(arg.substr(0, eq)).second) throw ConfigError(Network::router_vcd_twice(arg, arg.substr(0, eq)));
    }
    for (const std::string& name : opt.waveform_routers)
      if (!names.count(name)) throw ConfigError(Network::waveform_router_error(name, f->node_name(cfg, 0)));
  }
  return f->make(name, cfg, opt);
}

}  // namespace wormcast
