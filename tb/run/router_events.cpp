// The result's router events and their energy: router_activity (docs/statistics.md) and energy
// (docs/energy.md), from the counts at the measurement window's ends.
#include "tb/run/router_events.h"

#include <algorithm>
#include <cmath>

#include "systemc/common/clock.h"
#include "systemc/common/energy_config.h"
#include "systemc/net/energy.h"
#include "systemc/net/network.h"

namespace wormcast {

void add_router_events(nlohmann::json& j, const Config& cfg, const RunResult& r, const Network& net) {
  if (r.act_end.empty() || r.act_begin.size() != r.act_end.size()) return;  // the family counts none
  // Router event counts over the measurement window (docs/statistics.md), per router in node
  // order and summed; vc_utilization: flits per cycle per output VC (port * VCs + VC);
  // vc_blocking: blocked edges per input VC (port * VCs + VC) by cause.
  const double w = double(std::max<uint64_t>(r.window, 1));
  const auto sum = [](const std::vector<uint64_t>& v) {
    uint64_t s = 0;
    for (uint64_t x : v) s += x;
    return s;
  };
  const bool arrays = cfg.sim.arrays(int(r.act_end.size()));
  std::vector<RouterActivity> counts;
  std::vector<std::string> names;
  nlohmann::json per = nlohmann::json::array(), vcu = nlohmann::json::array(), vcb = nlohmann::json::array();
  uint64_t tw = 0, tr = 0, tv = 0, tl = 0, te = 0, tbv = 0, tbc = 0, tbs = 0;
  double tocc = 0;
  for (size_t i = 0; i < r.act_end.size(); ++i) {
    const RouterActivity d = activity_delta(r.act_end[i], r.act_begin[i]);
    const double occ = double(d.occupancy_integral) / w;
    tw += d.buffer_writes;
    tr += d.buffer_reads;
    tv += d.vc_allocations;
    tl += d.link_flits;
    te += d.ejected_flits;
    tocc += occ;
    tbv += sum(d.blocked_vc);
    tbc += sum(d.blocked_credit);
    tbs += sum(d.blocked_switch);
    counts.push_back(d);  // the energy totals need each router's counts
    if (!arrays) continue;
    names.push_back(net.node_name(int(i)));
    per.push_back({{"router", names.back()}, {"counted", r.act_counted.empty() || r.act_counted[i]},
                   {"buffer_writes", d.buffer_writes}, {"buffer_reads", d.buffer_reads},
                   {"crossbar_traversals", d.buffer_reads}, {"vc_allocations", d.vc_allocations},
                   {"link_traversals", d.link_flits}, {"ejections", d.ejected_flits},
                   {"mean_buffer_occupancy", std::round(occ * 1e4) / 1e4},
                   {"blocked_vc", sum(d.blocked_vc)}, {"blocked_credit", sum(d.blocked_credit)},
                   {"blocked_switch", sum(d.blocked_switch)}});
    std::vector<double> u;
    for (uint64_t f : d.vc_flits) u.push_back(std::round(double(f) / w * 1e4) / 1e4);
    vcu.push_back(u);
    vcb.push_back({{"vc", d.blocked_vc}, {"credit", d.blocked_credit}, {"switch", d.blocked_switch}});
  }
  j["router_activity"] = {{"window", r.window},
                          {"totals", {{"buffer_writes", tw}, {"buffer_reads", tr}, {"crossbar_traversals", tr},
                                      {"vc_allocations", tv}, {"link_traversals", tl}, {"ejections", te},
                                      {"mean_buffer_occupancy", std::round(tocc * 1e4) / 1e4},
                                      {"blocked_vc", tbv}, {"blocked_credit", tbc}, {"blocked_switch", tbs}}}};
  if (arrays) {
    j["router_activity"]["per_router"] = std::move(per);
    j["router_activity"]["vc_utilization"] = std::move(vcu);
    j["router_activity"]["vc_blocking"] = std::move(vcb);
  }
  if (const std::string order = net.vc_order(); !order.empty()) j["router_activity"]["vc_order"] = order;
  // The energy of those events (docs/energy.md), at the configured clock or the one the network ran on.
  const EnergyConfig& ec = cfg.part<EnergyConfig>();
  const double period_ns = ec.clock_period_ns > 0 ? ec.clock_period_ns : cycle_time().to_seconds() * 1e9;
  if (const RouterShape shape = net.router_shape(); shape.ports > 0)
    j["energy"] = energy_report(ec, shape, period_ns, counts, names, r.act_counted, r.window, arrays);
}

}  // namespace wormcast
