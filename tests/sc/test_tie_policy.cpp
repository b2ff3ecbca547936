// traffic.tie: the direction that synthetic torus traffic takes on a distance-k/2 dimension,
// counted hop by hop on an 8x8 torus under uniform traffic.
#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <memory>
#include <vector>

#include "systemc/common/clock.h"
#include "systemc/net/network.h"
#include "systemc/torus/flit.h"
#include "tb/run/traffic.h"
#include "tests/sc/harness.h"

using namespace wormcast;

namespace {

/// Per dimension, how many distance-k/2 legs went plus and minus.
struct TieCount {
  std::vector<uint64_t> plus, minus;
};

/// Records every head hop on a network port, and at delivery finds each tie dimension's first
/// hop in that dimension: its direction is the one the tie bit chose.
struct TieProbe : sc_core::sc_module, HopObserver, PacketListener {
  sc_core::sc_clock clk;
  sw::Topology topo;
  TrafficStats stats;
  std::unique_ptr<Network> net;
  std::unique_ptr<TrafficGen> gen;
  std::map<uint32_t, std::vector<int>> out_ports;  ///< packet key -> network output ports, in order
  TieCount count;
  uint64_t delivered = 0;
  uint64_t unmatched = 0;  ///< deliveries without recorded hops (checked after the run)

  TieProbe(sc_core::sc_module_name n, const Config& cfg)
      : sc_module(n),
        clk("clk", cycle_time()),
        topo(cfg.net.topology()),
        stats(0, ~uint64_t(0) / 2, topo.num_nodes()) {
    NetworkOptions opt;
    opt.listener = this;
    net = make_network("net", cfg, opt);
    gen = std::make_unique<TrafficGen>("traffic", cfg, *net, stats);
    net->clk(clk);
    gen->clk(clk);
    REQUIRE(net->set_hop_observer(this).empty());
    count.plus.assign(size_t(topo.dims()), 0);
    count.minus.assign(size_t(topo.dims()), 0);
  }

  void on_hop(const HopEvent& e) override {
    if (e.head && e.out_port < 2 * topo.dims()) out_ports[uint32_t(e.packet)].push_back(e.out_port);
  }

  void on_packet(const PacketRecord& rec) override {
    // The flit carries 24 bits of the packet id; uniform traffic never sends to the source, so
    // every packet has network hops.
    const auto it = out_ports.find(uint32_t(rec.id & 0xffffff));
    if (rec.id >= (uint64_t(1) << 24) || it == out_ports.end()) {
      ++unmatched;
      return;
    }
    for (int d = 0; d < topo.dims(); ++d) {
      const int k = topo.radix(d);
      const int f = ((topo.coord_of(rec.dst, d) - topo.coord_of(rec.src, d)) % k + k) % k;
      if (2 * f != k) continue;
      for (int o : it->second) {
        if (o >> 1 != d) continue;
        ++((o & 1) ? count.minus : count.plus)[size_t(d)];
        break;
      }
    }
    out_ports.erase(it);
    ++delivered;
  }
};

TieCount run_ties(const std::string& policy) {
  const Config cfg = test::config_for("8x8", "torus",
                                      {{"traffic.rate", "0.25"}, {"traffic.tie", policy}, {"sim.seed", "3"}});
  TieProbe probe("probe", cfg);
  sc_core::sc_start(cycle_time() * 40000.0);
  INFO(policy << ": " << probe.delivered << " packets delivered");
  REQUIRE(probe.delivered > 100000);
  REQUIRE(probe.unmatched == 0);
  return probe.count;
}

uint64_t total(const std::vector<uint64_t>& v) {
  uint64_t s = 0;
  for (uint64_t x : v) s += x;
  return s;
}

/// The overall minus share is within 2 % of one half (0.49..0.51), each dimension's within 0.02.
void check_halves(const TieCount& c) {
  for (size_t d = 0; d < c.plus.size(); ++d) {
    const double n = double(c.plus[d] + c.minus[d]);
    INFO("dimension " << d << ": " << c.plus[d] << " plus, " << c.minus[d] << " minus");
    REQUIRE(n > 10000);
    CHECK(std::fabs(double(c.minus[d]) / n - 0.5) < 0.02);
  }
  const double n = double(total(c.plus) + total(c.minus));
  INFO(total(c.plus) << " plus, " << total(c.minus) << " minus");
  CHECK(std::fabs(double(total(c.minus)) / n - 0.5) < 0.02 * 0.5);
}

}  // namespace

TEST_CASE("tie policy: plus sends every distance-k/2 leg of 8x8 uniform traffic plus", "[sc]") {
  const TieCount c = run_ties("plus");
  CHECK(total(c.plus) > 10000);
  CHECK(total(c.minus) == 0);
}

TEST_CASE("tie policy: random splits the distance-k/2 legs of 8x8 uniform traffic within 2 % of half",
          "[sc]") {
  check_halves(run_ties("random"));
}

TEST_CASE("tie policy: balanced splits the distance-k/2 legs of 8x8 uniform traffic within 2 % of half",
          "[sc]") {
  check_halves(run_ties("balanced"));
}
