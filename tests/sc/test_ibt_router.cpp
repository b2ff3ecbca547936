// The interlaced bypass torus family (docs/router.md section 10): bypass-first routing plans a
// shortest use of the source's bypass ring and keeps to it hop by hop, and its channel
// dependency graph (channel = node, output port, VC class) is acyclic on several iBTs (shortest
// routing: tests/sc/test_ibt_shortest.cpp),
// packets arrive at the documented zero-load time over bypass links, saturated runs drain with a
// clean scoreboard (unstable, exit 5), and bad iBT configurations exit 2.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <unordered_map>
#include <unordered_set>

#include "systemc/ibt/network.h"
#include "systemc/ibt/routing.h"
#include "tests/sc/harness.h"

using namespace wormcast;
using namespace wormcast::test;

namespace {

Config ibt_config(const std::string& radix, const std::string& bypass, const std::string& routing,
                  Overrides extra = {}) {
  Overrides ov{{"net.family", "ibt"}, {"net.radix", radix}, {"ibt.bypass", bypass}, {"ibt.routing", routing}};
  for (auto& e : extra) ov.push_back(e);
  return load_config("", ov);
}

int ring(int delta, int n) {
  const int f = ((delta % n) + n) % n;
  return std::min(f, n - f);
}

/// The shortest path that takes bypass hops of the source's ring first and then torus links only,
/// found by trying every signed bypass count (independent of BypassRouting's search).
int bypass_first_distance(const sw::IbtTopology& t, int src, int dst) {
  const int bd = t.bypass_dim(src), len = t.bypass_length(src), n = t.n();
  int other = 0;
  for (int d = 0; d < t.dims(); ++d)
    if (d != bd) other += ring(t.coord_of(dst, d) - t.coord_of(src, d), n);
  int best = 1 << 30;
  for (int j = -n; j <= n; ++j)
    if (std::abs(j) * len < n)
      best = std::min(best, std::abs(j) + ring(t.coord_of(dst, bd) - t.coord_of(src, bd) - j * len, n));
  return best + other;
}

struct RouteCheck {
  uint64_t pairs = 0, bypass_hops = 0, cdg_edges = 0, hops = 0, distance = 0;
  uint64_t shorter = 0;  ///< routes shorter than their source's plan
  std::string first_error;
  bool acyclic = false;
};

/// Walks every route; checks its shape and length and builds the channel dependency graph.
RouteCheck check_routes(const Config& cfg) {
  const sw::IbtTopology t = ibt_topology(cfg);
  const BypassRouting r(t, cfg.net.topology(), cfg.part<IbtConfig>().routing);
  const int N = int(t.num_nodes()), P = t.num_ports();
  const sw::IbtDistanceTable bfs(t);
  // The VC class the router gives the hop: vc_class when the routing names one, else the dateline class.
  auto vc_class = [](const PortRoute& pr) { return pr.vc_class >= 0 ? pr.vc_class : int(pr.vclass); };
  auto channel = [&](int node, const PortRoute& pr) {
    return (uint64_t(node) * uint64_t(P) + uint64_t(pr.port)) * 16 + uint64_t(vc_class(pr));
  };
  std::unordered_map<uint64_t, std::vector<uint64_t>> succ;
  std::unordered_set<uint64_t> edge_seen;
  RouteCheck rc;
  auto fail = [&](int s, int d, const std::string& what) {
    if (rc.first_error.empty()) rc.first_error = std::to_string(s) + "->" + std::to_string(d) + ": " + what;
  };
  for (int s = 0; s < N; ++s)
    for (int d = 0; d < N; ++d) {
      if (s == d) continue;
      ++rc.pairs;
      const int planned = cfg.part<IbtConfig>().routing == IbtRouting::Bypass ? r.planned_bypass_hops(s, d) : 0;
      int cur = s, in = -1, in_class = -1, hops = 0, byp = 0, wraps = 0;
      bool left_bypass = false, prev_lh = false;
      uint64_t prev = ~uint64_t(0);
      while (cur != d && hops <= 4 * N) {
        const PortRoute pr = r.route(cur, in, in_class, d, false);
        if (pr.port < 0) {
          fail(s, d, "ejected before the destination");
          break;
        }
        if (vc_class(pr) >= r.num_classes()) fail(s, d, "VC class beyond the router's " + std::to_string(r.num_classes()));
        const bool is_bypass = pr.port >= t.bypass_port();
        if (is_bypass) {
          if (left_bypass) fail(s, d, "a bypass hop after a torus hop");
          if (pr.port != (planned > 0 ? t.bypass_port() : t.bypass_port() + 1))
            fail(s, d, "bypass direction differs from the plan");
          if (prev_lh && pr.vclass == sw::VcClass::P) fail(s, d, "bypass class went back from l/h to p");
          prev_lh = pr.vclass == sw::VcClass::LH;
          const int x = t.coord_of(cur, t.bypass_dim(cur));
          const int next = t.coord_of(int(t.neighbor(cur, pr.port)), t.bypass_dim(cur));
          const bool wrapped = pr.port == t.bypass_port() ? next < x : next > x;
          if (wrapped && ++wraps == 2) fail(s, d, "crossed the bypass dateline twice");
          ++byp;
        } else {
          left_bypass = true;
        }
        const uint64_t ch = channel(cur, pr);
        if (prev != ~uint64_t(0) && edge_seen.insert(prev * 1000003ull ^ ch).second) succ[prev].push_back(ch);
        succ.emplace(ch, std::vector<uint64_t>{});
        prev = ch;
        cur = int(t.neighbor(cur, pr.port));
        in = pr.port ^ 1;
        in_class = r.arrival_class(pr);  // what the router passes: the class of the VC the head arrived on
        ++hops;
      }
      if (cur != d) fail(s, d, "never arrived");
      if (hops != r.hops(s, d, false)) fail(s, d, "PortRouting::hops differs from the walk");
      // A bypass route takes at least its source's planned bypass hops and is at most as long as the
      // source's plan (the shortest bypass-first length over |j| * b < n): a router on the way may
      // find a strictly shorter continuation the source's limit did not reach (docs/router.md 10).
      if (byp < std::abs(planned)) fail(s, d, "took " + std::to_string(byp) + " bypass hops, planned " + std::to_string(planned));
      const int want = cfg.part<IbtConfig>().routing == IbtRouting::Bypass ? bypass_first_distance(t, s, d)
                                                                        : cfg.net.topology().hops(s, d, false);
      if (hops > want || (hops < want && cfg.part<IbtConfig>().routing != IbtRouting::Bypass))
        fail(s, d, "took " + std::to_string(hops) + " hops, shortest bypass-first " + std::to_string(want));
      rc.shorter += hops < want;
      rc.hops += uint64_t(hops);
      rc.distance += uint64_t(bfs.distance(s, d));
      rc.bypass_hops += uint64_t(byp);
    }
  // Kahn's algorithm: every channel removed <=> no cycle.
  std::unordered_map<uint64_t, int> indeg;
  for (auto& [c, out] : succ) {
    indeg.emplace(c, 0);
    for (auto o : out) ++indeg[o];
    rc.cdg_edges += out.size();
  }
  std::vector<uint64_t> ready;
  for (auto& [c, k] : indeg)
    if (k == 0) ready.push_back(c);
  size_t removed = 0;
  while (!ready.empty()) {
    const uint64_t c = ready.back();
    ready.pop_back();
    ++removed;
    for (auto o : succ[c])
      if (--indeg[o] == 0) ready.push_back(o);
  }
  rc.acyclic = removed == indeg.size();
  return rc;
}

/// max_stretch: the mean route length over the mean distance may not exceed it (0: not checked).
RouteCheck require_routes(const Config& cfg, bool expect_bypass, double max_stretch = 0) {
  const RouteCheck rc = check_routes(cfg);
  INFO("first error: " << (rc.first_error.empty() ? "none" : rc.first_error));
  INFO("mean hops " << double(rc.hops) / double(rc.pairs) << ", mean distance " << double(rc.distance) / double(rc.pairs));
  if (max_stretch > 0) CHECK(double(rc.hops) <= max_stretch * double(rc.distance));
  CHECK(rc.first_error.empty());
  REQUIRE(rc.pairs > 0);
  REQUIRE(rc.cdg_edges > 0);
  REQUIRE(rc.acyclic);
  REQUIRE((rc.bypass_hops > 0) == expect_bypass);
  return rc;
}

}  // namespace

TEST_CASE("ibt routing: bypass-first routes are shortest of their kind and their channel graph is acyclic", "[sc]") {
  // On these every route is its source's plan: exactly the shortest bypass-first length.
  CHECK(require_routes(ibt_config("16x16", "4", "bypass"), true).shorter == 0);
  CHECK(require_routes(ibt_config("16x16", "6", "bypass"), true).shorter == 0);
  CHECK(require_routes(ibt_config("24x24", "4,8", "bypass"), true).shorter == 0);
  CHECK(require_routes(ibt_config("9x9x9", "3", "bypass"), true).shorter == 0);
  CHECK(require_routes(ibt_config("32x32", "8", "bypass"), true).shorter == 0);
  require_routes(ibt_config("16x16", "4", "dor"), false);
}

TEST_CASE("ibt routing: a bypass route never crosses its ring's dateline twice where |j| * b < n allows three hops",
          "[sc]") {
  // Rings on which a head that replanned freely at each router went round past its dateline twice
  // (28 / 12: from coordinate 7 to 15, one hop planned, then two more from 19): the routes cross
  // at most one dateline link, take no l/h hop before a p one, are at most as long as their
  // source's plan, and their channel graph is acyclic; some are shorter than the plan.
  for (const auto& [radix, bypass] : {std::pair<const char*, const char*>{"28x28", "12"}, {"21", "3,6,9"}, {"19", "8"}}) {
    INFO("ibt:" << radix << " <" << bypass << ">");
    CHECK(require_routes(ibt_config(radix, bypass, "bypass"), true).shorter > 0);
  }
}

namespace {

/// Every pair of iBT(12^2; <4>) with R = 2, Ld = 1 arrives at (h+1) R + h Ld + L, and the bypass
/// ports carry flits. h: the shortest bypass-first length under bypass routing; under shortest the
/// hops of its routes walked apart from the network (the routers decode each head's phase from
/// its VC class, so a class given differently would change the path or stall it).
void zero_load_all_pairs(const std::string& routing) {
  const Config cfg = ibt_config("12x12", "4", routing, {{"router.router_delay", "2"}, {"router.link_delay", "1"}});
  Bench bench("bench", cfg);
  const sw::IbtTopology t = ibt_topology(cfg);
  const BypassRouting r(t, cfg.net.topology(), cfg.part<IbtConfig>().routing);
  uint64_t checked = 0, bad = 0;
  std::string first;
  bench.body = [&](Bench& b) {
    const int n = b.net.num_nodes();
    for (int s = 0; s < n; ++s)
      for (int d = 0; d < n; ++d) {
        if (s == d) continue;
        const uint32_t len = 1 + uint32_t((s + d) % 6);
        const uint64_t start = current_cycle();
        b.net.nic(s).submit(d, len, false, 0, start);
        sw::Delivery got;
        REQUIRE(b.wait_delivery(d, 10000, got));
        const uint64_t h = uint64_t(routing == "bypass" ? bypass_first_distance(t, s, d) : r.hops(s, d, false));
        const uint64_t want = start + (h + 1) * 2 + h * 1 + len;
        if (got.visible != want || b.net.zero_load(s, d, len) != want - start) {
          if (!bad++) first = std::to_string(s) + "->" + std::to_string(d) + " got " + std::to_string(got.visible) + " want " + std::to_string(want);
        }
        ++checked;
        b.wait_until(current_cycle() + 2);
      }
  };
  sc_core::sc_start();
  INFO("first mismatch: " << first);
  CHECK(bad == 0);
  REQUIRE(checked == 144u * 143u);
  REQUIRE(bench.net.scoreboard().error_count() == 0);
  // The bypass ports (2d, 2d+1 of every router) carried flits.
  const auto links = bench.net.link_counters();
  uint64_t bypass_flits = 0;
  for (int r = 0; r < 144; ++r) bypass_flits += links[size_t(r * 6 + 4)] + links[size_t(r * 6 + 5)];
  REQUIRE(bypass_flits > 0);
}

}  // namespace

TEST_CASE("ibt zero-load: every pair of iBT 12x12 b=4 arrives at (h+1) R + h Ld + L over bypass links", "[sc]") {
  zero_load_all_pairs("bypass");
}

TEST_CASE("ibt zero-load: shortest routing, every pair of iBT 12x12 b=4 at (h+1) R + h Ld + L, h its route's hops", "[sc]") {
  zero_load_all_pairs("shortest");
}

namespace {

/// A run at 0.9 flits/node/cycle, far beyond saturation: it must drain with a clean scoreboard
/// (status unstable, exit 5) and keep accepting traffic.
void saturated(const std::string& net, const std::string& bypass, std::vector<std::string> extra, const std::string& json,
               const std::string& routing = "bypass", const std::string& measure = "3000") {
  std::vector<std::string> a{"traffic", "--net", net, "--set", "ibt.bypass=" + bypass, "--set", "ibt.routing=" + routing,
                             "--rate", "0.9", "--warmup", "200", "--measure", measure, "--set", "sim.progress=off",
                             "--json", json};
  a.insert(a.end(), extra.begin(), extra.end());
  REQUIRE(cli(a) == 5);
  const auto j = take_json(json);
  REQUIRE(j["status"] == "unstable");
  REQUIRE(j["packets"]["in_flight_at_end"] == 0);
  REQUIRE(j["scoreboard"]["errors"] == 0);
  REQUIRE(j["throughput"]["accepted"].get<double>() > 0.1);
}

}  // namespace

TEST_CASE("ibt run: bypass routing beyond saturation, uniform, drains with a clean scoreboard", "[sc]") {
  saturated("ibt:8x8", "2", {}, "ibt_sat_u.json");
}

TEST_CASE("ibt run: bypass routing beyond saturation, tornado, 2 VCs per class, drains clean", "[sc]") {
  saturated("ibt:12x12", "4", {"--set", "traffic.pattern=tornado", "--set", "router.vcs_per_class=2"}, "ibt_sat_t.json");
}

TEST_CASE("ibt run: shortest routing beyond saturation, uniform on 2-D, drains with a clean scoreboard", "[sc]") {
  saturated("ibt:8x8", "2", {}, "ibt_sat_su.json", "shortest");
}

TEST_CASE("ibt run: shortest routing beyond saturation, tornado on 3-D, 2 VCs per class, drains clean", "[sc]") {
  saturated("ibt:9x9x9", "3", {"--set", "traffic.pattern=tornado", "--set", "router.vcs_per_class=2"}, "ibt_sat_st.json",
            "shortest", "800");
}

TEST_CASE("ibt config: bad bypass vectors, uneven radices and the RTL router in a program without it exit 2", "[sc]") {
  REQUIRE(cli({"traffic", "--net", "ibt:16x16", "--set", "ibt.bypass=3"}) == 2);   // not a multiple of d*k
  REQUIRE(cli({"traffic", "--net", "ibt:16x16", "--set", "ibt.bypass=8"}) == 2);   // not below n/2
  REQUIRE(cli({"traffic", "--net", "ibt:18x18", "--set", "ibt.bypass=4,8"}) == 2); // n not a multiple of d*k
  REQUIRE(cli({"traffic", "--net", "ibt:16x8", "--set", "ibt.bypass=2"}) == 2);    // radices differ
  REQUIRE(cli({"traffic", "--net", "ibt:16x16", "--set", "router.model=rtl"}) == 2);  // no RTL library installed here
  REQUIRE(cli({"traffic", "--net", "ibt:16x16", "--set", "net.topology=mesh"}) == 2);  // a torus key
  REQUIRE(cli({"traffic", "--net", "torus:16x16", "--set", "ibt.bypass=4"}) == 2);     // an ibt key
  // shortest needs (2 + L) V VCs per port, at most 16, L = d*k + 3 = 6 layers: V <= 2 on iBT(9^3; <3>).
  REQUIRE(cli({"traffic", "--net", "ibt:9x9x9", "--set", "ibt.bypass=3", "--set", "ibt.routing=shortest", "--set",
               "router.vcs_per_class=4"}) == 2);
  // 2 + L classes: L = 7 on two bypass lengths (9 classes) leaves V = 1; L at most 14.
  REQUIRE(cli({"traffic", "--net", "ibt:24x24", "--set", "ibt.bypass=4,8", "--set", "ibt.routing=shortest", "--set",
               "router.vcs_per_class=2"}) == 2);
  // The refusal says the layers are auto's (the user set none).
  REQUIRE_THROWS_WITH(load_config("", {{"net.family", "ibt"}, {"net.radix", "24x24"}, {"ibt.bypass", "4,8"},
                                       {"ibt.routing", "shortest"}, {"router.vcs_per_class", "2"}}),
                      Catch::Contains("ibt.layers = auto: 7 layers"));
  REQUIRE(cli({"traffic", "--net", "ibt:16x16", "--set", "ibt.routing=shortest", "--set", "ibt.layers=15"}) == 2);
}
