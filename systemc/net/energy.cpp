// The energy model's technology tables and formulas (docs/energy.md): per-event energies of the
// router's blocks as DSENT computes them, fitted over buffer size and port count, scaled to the
// flit width, and the window's energy, energy per delivered flit and power from the event counts.
#include "systemc/net/energy.h"

#include <algorithm>

#include <fmt/format.h>
#include <cmath>

namespace wormcast {
namespace {

// Every number below was computed with DSENT 0.91 (C. Sun, C.-H. O. Chen, G. Kurian, L. Wei,
// J. Miller, A. Agarwal, L.-S. Peh, V. Stojanovic, "DSENT - A Tool Connecting Emerging Photonics
// with Electronics for Opto-Electronic Networks-on-Chip Modeling", ACM/IEEE NOCS 2012) from its
// technology models Bulk45LVT (45 nm bulk, low-Vt, 1.0 V, 340 K) and Bulk32LVT (32 nm, 0.9 V,
// 340 K), at 1 GHz with timing optimization, for its input-buffered VC router (flip-flop RAM
// buffers, multiplexer crossbar, two-stage matrix-arbiter switch allocator), its matrix arbiter
// and its repeated link (global wire, 1 mm, 64 bits, 1 ns delay). The router was run at 64-bit flits for
// N = 1..64 buffered flits per port (5 ports) and P = 3..20 ports (2 VCs x 4 flits); the fits of
// a + b N + c log2 N (buffers) and a + b P (crossbar) are INTERPRETATION, their largest error
// against DSENT's own figures: write 6.8 %, read 0.4 %, crossbar 2.1 % (docs/energy.md).
const TechnologyTable kDsent45 = {
    "dsent-45nm", "45 nm bulk, low-Vt, 1.0 V", 1.0,
    0.6303, 0.0832, 0.1357,  // buffer write
    0.3396, 0.0935, 0.0733,  // buffer read
    0.1729, 0.1775,          // crossbar
    {{2, 0.01384}, {3, 0.04127}, {4, 0.08150}, {5, 0.1333}, {6, 0.1959}, {8, 0.3411}, {10, 0.4848},
     {12, 0.6083}, {16, 0.8350}, {20, 1.138}, {24, 1.561}, {32, 2.726}, {48, 6.194}, {64, 11.04},
     {96, 25.04}, {128, 44.52}},
    40.36,  // 2.583 pJ for 64 bits over 1 mm
    2.407,  // 1.232 mW per input port of 8 x 64 bits
};

const TechnologyTable kDsent32 = {
    "dsent-32nm", "32 nm bulk, low-Vt, 0.9 V", 0.9,
    0.3489, 0.0460, 0.0744,
    0.1874, 0.0511, 0.0408,
    0.0971, 0.0974,
    {{2, 0.007615}, {3, 0.02271}, {4, 0.04485}, {5, 0.07338}, {6, 0.1078}, {8, 0.1878}, {10, 0.2670},
     {12, 0.3352}, {16, 0.4605}, {20, 0.6278}, {24, 0.8615}, {32, 1.505}, {48, 3.419}, {64, 6.097},
     {96, 13.82}, {128, 24.58}},
    32.40,  // 2.073 pJ for 64 bits over 1 mm
    2.050,  // 1.049 mW per input port of 8 x 64 bits
};

/// Six significant digits: the result stays readable and byte-identical run to run.
double sig6(double x) {
  if (x == 0 || !std::isfinite(x)) return x;
  const double scale = std::pow(10.0, 5 - int(std::floor(std::log10(std::fabs(x)))));
  return std::round(x * scale) / scale;
}

/// Energy by component of one router (or of all), pJ.
struct Components {
  double buffer_write = 0, buffer_read = 0, crossbar = 0, switch_allocation = 0, vc_allocation = 0, link = 0,
         leakage = 0;
  double dynamic() const { return buffer_write + buffer_read + crossbar + switch_allocation + vc_allocation + link; }
  void add(const Components& o) {
    buffer_write += o.buffer_write;
    buffer_read += o.buffer_read;
    crossbar += o.crossbar;
    switch_allocation += o.switch_allocation;
    vc_allocation += o.vc_allocation;
    link += o.link;
    leakage += o.leakage;
  }
  /// The JSON of these energies over `window` cycles with `delivered` flits delivered.
  nlohmann::json to_json(uint64_t delivered, uint64_t window, double period_ns) const {
    const double total = dynamic() + leakage;
    const double seconds = double(window) * period_ns * 1e-9;
    return {{"buffer_write_pj", sig6(buffer_write)},
            {"buffer_read_pj", sig6(buffer_read)},
            {"crossbar_pj", sig6(crossbar)},
            {"switch_allocation_pj", sig6(switch_allocation)},
            {"vc_allocation_pj", sig6(vc_allocation)},
            {"link_pj", sig6(link)},
            {"dynamic_pj", sig6(dynamic())},
            {"leakage_pj", sig6(leakage)},
            {"total_pj", sig6(total)},
            // Undefined (null) for a window that delivered nothing, or of no cycles.
            {"pj_per_delivered_flit", delivered ? nlohmann::json(sig6(total / double(delivered))) : nlohmann::json(nullptr)},
            {"power_w", seconds > 0 ? nlohmann::json(sig6(total * 1e-12 / seconds)) : nlohmann::json(nullptr)}};
  }
};

}  // namespace

const TechnologyTable& technology_table(EnergyTechnology t) {
  return t == EnergyTechnology::Dsent32 ? kDsent32 : kDsent45;
}

double arbiter_energy(const TechnologyTable& t, int n) {
  if (n <= 1) return 0;
  const auto& a = t.arbiter;
  if (n <= a.front().first) return a.front().second;
  // Beyond the largest arbiter DSENT was run for, its N(N-1)/2 priority flip-flops dominate:
  // INTERPRETATION, energy grows as N^2 from the last point.
  if (n >= a.back().first) return a.back().second * double(n) * double(n) / (double(a.back().first) * a.back().first);
  const auto hi = std::lower_bound(a.begin(), a.end(), n, [](const std::pair<int, double>& p, int x) { return p.first < x; });
  if (hi->first == n) return hi->second;
  const auto lo = hi - 1;
  return lo->second + (hi->second - lo->second) * double(n - lo->first) / double(hi->first - lo->first);
}

EventEnergies event_energies(const EnergyConfig& cfg, const RouterShape& shape, double period_ns) {
  const TechnologyTable& t = technology_table(cfg.technology);
  EventEnergies e;
  // DSENT's buffer, crossbar and link energies per bit stay within 5 % of their 64-bit figure
  // from 32 to 256 bits (13 % above it at 16 bits, the buffer read): INTERPRETATION, they scale
  // in proportion to the flit width from 64 bits.
  const double w = double(cfg.flit_bits) / 64.0;
  const double n = double(shape.vcs) * double(shape.buffer_depth);  // flits buffered per input port
  const double p = double(shape.ports);
  if (n >= 1) {
    e.buffer_write = w * (t.write_a + t.write_b * n + t.write_c * std::log2(n));
    e.buffer_read = w * (t.read_a + t.read_b * n + t.read_c * std::log2(n));
  }
  if (p >= 1) e.crossbar = w * (t.xbar_a + t.xbar_b * p);
  // DSENT's switch allocator: a V:1 arbiter at the input port, then a P:1 arbiter at the output
  // port. DSENT models no VC allocator; INTERPRETATION: the router's separable VC allocator
  // (docs/router.md 5.3) is charged a V:1 arbiter at the input VC and a (P x V):1 arbiter at the
  // output VC.
  e.switch_allocation = arbiter_energy(t, shape.vcs) + arbiter_energy(t, shape.ports);
  e.vc_allocation = arbiter_energy(t, shape.vcs) + arbiter_energy(t, shape.ports * shape.vcs);
  e.link = double(cfg.flit_bits) * cfg.link_length_mm * t.link_fj_per_bit_mm * 1e-3;
  e.leakage_per_bit_cycle = t.leak_uw_per_bit * period_ns * 1e-3;  // 1 uW for 1 ns = 1e-3 pJ
  e.buffer_bits = uint64_t(shape.ports) * uint64_t(shape.vcs) * uint64_t(shape.buffer_depth) * uint64_t(cfg.flit_bits);
  return e;
}

nlohmann::json energy_report(const EnergyConfig& cfg, const RouterShape& shape, double period_ns,
                             const std::vector<RouterActivity>& counts, const std::vector<std::string>& names,
                             const std::vector<bool>& counted, uint64_t window, bool per_router) {
  const TechnologyTable& t = technology_table(cfg.technology);
  const EventEnergies e = event_energies(cfg, shape, period_ns);
  uint64_t delivered = 0;
  for (const RouterActivity& a : counts) delivered += a.ejected_flits;
  std::vector<Components> per(counts.size());
  Components total;
  for (size_t i = 0; i < counts.size(); ++i) {
    const RouterActivity& a = counts[i];
    Components& c = per[i];
    c.buffer_write = double(a.buffer_writes) * e.buffer_write;
    c.buffer_read = double(a.buffer_reads) * e.buffer_read;
    // Every flit read out of a buffer crosses the crossbar on its switch grant.
    c.crossbar = double(a.buffer_reads) * e.crossbar;
    c.switch_allocation = double(a.buffer_reads) * e.switch_allocation;
    c.vc_allocation = double(a.vc_allocations) * e.vc_allocation;
    c.link = double(a.link_spans) * e.link;  // a link b network links long costs b links' wire
    c.leakage = double(e.buffer_bits) * double(window) * e.leakage_per_bit_cycle;
    total.add(c);
  }
  nlohmann::json routers = nlohmann::json::array();
  for (size_t i = 0; per_router && i < per.size(); ++i) {
    nlohmann::json r = {{"router", i < names.size() ? names[i] : std::to_string(i)},
                        {"counted", counted.empty() || counted[i]}};
    r.update(per[i].to_json(delivered, window, period_ns));
    routers.push_back(r);
  }
  nlohmann::json totals = total.to_json(delivered, window, period_ns);
  totals["delivered_flits"] = delivered;
  // Routers seen only at their ports (RTL): their buffer, crossbar and allocator energy is not in
  // the totals, which then are a lower bound.
  totals["uncounted_routers"] = counted.empty() ? 0 : std::count(counted.begin(), counted.end(), false);
  nlohmann::json j = {{"technology", t.name},
                       {"node", t.node},
                       {"vdd", t.vdd},
                       {"clock_period_ns", sig6(period_ns)},
                       {"flit_bits", cfg.flit_bits},
                       {"link_length_mm", cfg.link_length_mm},
                       {"router", {{"ports", shape.ports}, {"vcs", shape.vcs}, {"buffer_depth", shape.buffer_depth},
                                   {"buffer_bits", e.buffer_bits}}},
                       {"per_event_pj", {{"buffer_write", sig6(e.buffer_write)}, {"buffer_read", sig6(e.buffer_read)},
                                         {"crossbar", sig6(e.crossbar)}, {"switch_allocation", sig6(e.switch_allocation)},
                                         {"vc_allocation", sig6(e.vc_allocation)}, {"link", sig6(e.link)},
                                         {"leakage_per_bit_cycle", sig6(e.leakage_per_bit_cycle)}}},
                       {"window", window},
                       {"totals", totals}};
  // What lies outside the ranges the coefficients were fitted over (docs/energy.md): the formulas
  // are extrapolated there, with no stated error.
  nlohmann::json outside = nlohmann::json::array();
  const int n = shape.vcs * shape.buffer_depth;
  if (cfg.flit_bits < 32 || cfg.flit_bits > 256)
    outside.push_back(fmt::format("energy.flit_bits = {} (width scaling checked for 32..256)", cfg.flit_bits));
  if (n < 1 || n > 64) outside.push_back(fmt::format("{} buffered flits per port (fitted for 1..64)", n));
  if (shape.ports < 3 || shape.ports > 20) outside.push_back(fmt::format("{} ports (fitted for 3..20)", shape.ports));
  if (shape.ports * shape.vcs > 128)
    outside.push_back(fmt::format("a VC allocation among {} input VCs (arbiters given for up to 128; grown as n^2)",
                                  shape.ports * shape.vcs));
  j["outside_fitted_ranges"] = outside;
  if (per_router) j["per_router"] = routers;
  return j;
}

}  // namespace wormcast
