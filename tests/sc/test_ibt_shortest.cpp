// ibt.routing = shortest on every valid 2-D and 3-D interlaced bypass torus up to 48^2 and 16^3,
// single and mixed bypass lengths (docs/router.md section 10): every route keeps the layer order
// and its VC classes, its mean hops come within 3 % of the exact mean distance (BFS, distinct
// pairs), and the channel dependency graph of the routes of every source-destination pair
// (channel = router, output port, VC class) is acyclic. The default case walks the mean hops of
// all of them and the CDG of every 2-D network up to 24^2 and of iBT(9^3; <3>); the hidden case
// "[ibt-shortest-all]" (ctest long.ibt-shortest-all-networks) walks the CDG of all of them.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <numeric>

#include "systemc/ibt/network.h"
#include "systemc/ibt/routing.h"
#include "tests/sc/harness.h"

using namespace wormcast;
using namespace wormcast::test;

namespace {

struct Net {
  int n, d;
  std::vector<int> b;
  std::string name() const {
    std::string s = "iBT(" + std::to_string(n) + "^" + std::to_string(d) + ";<";
    for (size_t i = 0; i < b.size(); ++i) s += (i ? "," : "") + std::to_string(b[i]);
    return s + ">)";
  }
};

/// Every valid iBT(n^d; <b1 < ... < bk>): b_j positive multiples of d*k below n/2, n a multiple of
/// d*k, n <= 48 on 2-D and <= 16 on 3-D.
std::vector<Net> all_networks() {
  std::vector<Net> out;
  for (auto [d, nmax] : {std::pair{2, 48}, std::pair{3, 16}})
    for (int k = 1; k <= 4; ++k) {
      const int dk = d * k;
      for (int n = 3; n <= nmax; ++n) {
        if (n % dk) continue;
        std::vector<int> lens;
        for (int b = dk; 2 * b < n; b += dk) lens.push_back(b);
        if (int(lens.size()) < k) continue;
        std::vector<bool> pick(lens.size(), false);
        std::fill(pick.begin(), pick.begin() + k, true);
        do {
          Net net{n, d, {}};
          for (size_t i = 0; i < lens.size(); ++i)
            if (pick[i]) net.b.push_back(lens[i]);
          out.push_back(net);
        } while (std::prev_permutation(pick.begin(), pick.end()));
      }
    }
  return out;
}

Config shortest_config(const Net& net, int layers = 0) {
  std::string radix, bypass;
  for (int i = 0; i < net.d; ++i) radix += (i ? "x" : "") + std::to_string(net.n);
  for (size_t i = 0; i < net.b.size(); ++i) bypass += (i ? "," : "") + std::to_string(net.b[i]);
  return load_config("", {{"net.family", "ibt"}, {"net.radix", radix}, {"ibt.bypass", bypass}, {"ibt.routing", "shortest"},
                          {"ibt.layers", layers ? std::to_string(layers) : "auto"}});
}

struct Result {
  uint64_t pairs = 0, hops = 0, distance = 0;
  int worst_excess = -1;
  std::string worst_pair, first_error;
  int classes = 0;
  uint64_t channels = 0, edges = 0;
  bool acyclic = false;
};

/// Mean hops and route shape from every source to one destination of each species (a translation
/// whose vector sums to 0 mod d*k maps routes to routes, so these pairs have the hop counts of all
/// pairs); with `cdg`, the channel dependency graph of the routes of all N(N-1) pairs.
Result walk(const Net& net, bool cdg, int layers = 0) {
  const Config cfg = shortest_config(net, layers);
  const sw::IbtTopology t = ibt_topology(cfg);
  const int C = ibt_router_params(cfg).classes;
  const BypassRouting r(t, cfg.net.topology(), IbtRouting::Shortest, C, ibt_layers(cfg));
  const int N = int(t.num_nodes()), P = t.num_ports(), bp = t.bypass_port(), dk = t.num_species();
  const int K = r.num_classes(), L = r.layers();
  Result res;
  res.classes = K;
  auto fail = [&](int s, int dst, const std::string& what) {
    if (res.first_error.empty()) res.first_error = std::to_string(s) + "->" + std::to_string(dst) + ": " + what;
  };
  // The rank of a hop in the layer order: align hops of layer j 2j, its run 2j + 1, dimension order 2L.
  auto rank = [&](int node, const PortRoute& pr) {
    if (pr.port >= bp) return 2 * ((pr.vc_class / 2) * dk + ((t.species(node) - r.first_species()) % dk + dk) % dk) + 1;
    return pr.vc_class >= C ? 2 * (pr.vc_class - C) : 2 * L;
  };
  for (int s = 0; s < dk; ++s) {
    const int dst = int(sw::species_representative(t, s));
    const std::vector<int16_t> dist = sw::bfs_distances(t, dst);  // undirected: distance to dst
    for (int src = 0; src < N; ++src) {
      if (src == dst) continue;
      int cur = src, in = -1, in_class = -1, hops = 0, last_rank = 0;
      while (cur != dst && hops <= 4 * N) {
        const PortRoute pr = r.route(cur, in, in_class, dst, false);
        if (pr.port < 0) {
          fail(src, dst, "ejected before the destination");
          break;
        }
        if (pr.vc_class < 0 && !pr.classed) fail(src, dst, "a hop without a VC class");
        const int vc = pr.vc_class >= 0 ? pr.vc_class : int(pr.vclass);
        if (vc >= K) fail(src, dst, "VC class " + std::to_string(vc) + " beyond the router's " + std::to_string(K));
        const int rk = rank(cur, pr);
        if (rk < last_rank) fail(src, dst, "went back from phase " + std::to_string(last_rank) + " to " + std::to_string(rk));
        if (pr.port >= bp) {
          if (in >= bp && pr.port != (in ^ 1) && rk == last_rank) fail(src, dst, "a bypass run turned round");
          // Class 2p until the run has crossed its ring's dateline (the link into the ring's router
          // with coordinate below gcd(n, b)), 2p + 1 after.
          const bool cont = in >= bp && pr.port == (in ^ 1) && rk == last_rank;
          const int g = std::gcd(t.n(), t.bypass_length(cur));
          const bool crossed = cont && ((in_class & 1) || t.coord_of(cur, t.bypass_dim(cur)) < g);
          if ((vc & 1) != int(crossed)) fail(src, dst, "run class " + std::to_string(vc) + " at the dateline");
          if (cont && vc / 2 != in_class / 2) fail(src, dst, "a run changed its group of layers");
        } else if (in >= 0 && in < bp && pr.vc_class >= C && in_class == pr.vc_class && (pr.port >> 1) <= (in >> 1)) {
          fail(src, dst, "align hops of one layer not in increasing dimension");
        }
        last_rank = rk;
        cur = int(t.neighbor(cur, pr.port));
        in = pr.port ^ 1;
        in_class = vc;
        ++hops;
      }
      if (cur != dst) fail(src, dst, "never arrived");
      if (hops < dist[src]) fail(src, dst, "shorter than the distance");
      ++res.pairs;
      res.hops += uint64_t(hops);
      res.distance += uint64_t(dist[src]);
      if (hops - dist[src] > res.worst_excess) {
        res.worst_excess = hops - dist[src];
        res.worst_pair = std::to_string(src) + "->" + std::to_string(dst) + " " + std::to_string(hops) + " hops, distance " +
                         std::to_string(dist[src]);
      }
    }
  }
  if (!cdg) return res;
  // Channel dependency graph of all pairs: channel (node, port, class); the successors of a channel
  // are channels of the router it leads to, one bit per (port, class) there. For each destination
  // a packet's state at a router is the channel it arrived on, so each channel's onward route is
  // walked once per destination.
  const int slots = P * K, words = (slots + 63) / 64;
  const size_t channels = size_t(N) * size_t(slots);
  std::vector<uint64_t> succ(channels * size_t(words), 0);
  std::vector<int> stamp(channels, -1);
  std::vector<uint8_t> used(channels, 0);
  auto id = [&](int node, const PortRoute& pr) {
    return (size_t(node) * size_t(P) + size_t(pr.port)) * size_t(K) + size_t(pr.vc_class >= 0 ? pr.vc_class : int(pr.vclass));
  };
  for (int dst = 0; dst < N; ++dst)
    for (int src = 0; src < N; ++src) {
      if (src == dst) continue;
      PortRoute pr = r.route(src, -1, -1, dst, false);
      int cur = src;
      size_t ch = id(cur, pr);
      while (true) {
        used[ch] = 1;
        if (stamp[ch] == dst) break;  // walked onward already for this destination
        stamp[ch] = dst;
        const int next = int(t.neighbor(cur, pr.port));
        if (next == dst) break;
        const int vc = pr.vc_class >= 0 ? pr.vc_class : int(pr.vclass);
        const PortRoute nx = r.route(next, pr.port ^ 1, vc, dst, false);
        const size_t nch = id(next, nx);
        const size_t slot = nch % size_t(slots);
        succ[ch * size_t(words) + slot / 64] |= uint64_t(1) << (slot % 64);
        cur = next;
        pr = nx;
        ch = nch;
      }
    }
  // Kahn's algorithm: every used channel removed <=> no cycle.
  std::vector<int> indeg(channels, 0);
  auto for_succ = [&](size_t c, auto&& f) {
    const size_t node = c / size_t(slots);
    const int port = int((c / size_t(K)) % size_t(P));
    const size_t next = size_t(t.neighbor(int64_t(node), port));
    for (int w = 0; w < words; ++w)
      for (uint64_t bits = succ[c * size_t(words) + size_t(w)]; bits; bits &= bits - 1)
        f(next * size_t(slots) + size_t(w * 64 + __builtin_ctzll(bits)));
  };
  for (size_t c = 0; c < channels; ++c)
    if (used[c]) {
      ++res.channels;
      for_succ(c, [&](size_t o) {
        ++indeg[o];
        ++res.edges;
      });
    }
  std::vector<size_t> ready;
  for (size_t c = 0; c < channels; ++c)
    if (used[c] && indeg[c] == 0) ready.push_back(c);
  uint64_t removed = 0;
  while (!ready.empty()) {
    const size_t c = ready.back();
    ready.pop_back();
    ++removed;
    for_succ(c, [&](size_t o) {
      if (--indeg[o] == 0) ready.push_back(o);
    });
  }
  res.acyclic = removed == res.channels;
  return res;
}

/// Walks the networks; the CDG of those with at most `cdg_nodes` routers and of `cdg_also`.
void walk_all(int64_t cdg_nodes, const std::vector<std::string>& cdg_also = {}) {
  const auto nets = all_networks();
  REQUIRE(nets.size() == 178u);  // 132 2-D single, 40 2-D pairs, 2 2-D triples, 4 3-D
  double worst_ratio = 0;
  std::string worst_net;
  int cdg_walked = 0;
  // WORMCAST_IBT_WALK_CSV=FILE: one row per network (docs/experiments/ibt-shortest.md).
  FILE* csv = std::getenv("WORMCAST_IBT_WALK_CSV") ? std::fopen(std::getenv("WORMCAST_IBT_WALK_CSV"), "w") : nullptr;
  if (csv) std::fprintf(csv, "network,d,k,mu,mean_hops,excess_percent,vc_classes,worst_excess,worst_pair,cdg\n");
  for (const Net& net : nets) {
    int64_t nodes = 1;
    for (int i = 0; i < net.d; ++i) nodes *= net.n;
    const bool cdg = nodes <= cdg_nodes || std::find(cdg_also.begin(), cdg_also.end(), net.name()) != cdg_also.end();
    const Result res = walk(net, cdg);
    const double mean = double(res.hops) / double(res.pairs), mu = double(res.distance) / double(res.pairs);
    INFO(net.name() << ": mean hops " << mean << ", mu " << mu << ", " << res.classes << " VC classes, worst pair "
                    << res.worst_pair << "; first error: " << (res.first_error.empty() ? "none" : res.first_error));
    CHECK(res.first_error.empty());
    CHECK(double(res.hops) <= 1.03 * double(res.distance));
    CHECK(res.classes <= 16);
    if (cdg) {
      ++cdg_walked;
      INFO("CDG: " << res.channels << " channels, " << res.edges << " dependencies");
      CHECK(res.edges > 0);
      CHECK(res.acyclic);
    }
    if (mean / mu > worst_ratio) {
      worst_ratio = mean / mu;
      worst_net = net.name() + " (worst pair " + res.worst_pair + ")";
    }
    if (csv)
      std::fprintf(csv, "\"%s\",%d,%d,%.6f,%.6f,%.3f,%d,%d,\"%s\",%s\n", net.name().c_str(), net.d, int(net.b.size()), mu, mean,
                   100 * (mean / mu - 1), res.classes, res.worst_excess, res.worst_pair.c_str(),
                   cdg ? (res.acyclic ? "acyclic" : "CYCLIC") : "not walked");
  }
  if (csv) std::fclose(csv);
  WARN("worst mean stretch " << worst_ratio << " on " << worst_net << "; CDG walked on " << cdg_walked << " networks");
}

}  // namespace

TEST_CASE("ibt shortest: every valid 2-D and 3-D network up to 48^2 and 16^3 within 3 % of the mean distance and CDG acyclic up to 24^2 and on 9^3",
          "[sc]") {
  walk_all(576, {"iBT(9^3;<3>)"});
}

TEST_CASE("ibt shortest: every valid 2-D and 3-D network up to 48^2 and 16^3 within 3 % of the mean distance and CDG acyclic on all",
          "[.][ibt-shortest-all]") {
  walk_all(int64_t(1) << 30);
}

TEST_CASE("ibt shortest: fewer layers never shorten the routes (hops and VC classes per layer count)", "[sc]") {
  // WORMCAST_IBT_LAYERS_CSV=FILE: the table of docs/experiments/ibt-shortest.md.
  FILE* csv = std::getenv("WORMCAST_IBT_LAYERS_CSV") ? std::fopen(std::getenv("WORMCAST_IBT_LAYERS_CSV"), "w") : nullptr;
  if (csv) std::fprintf(csv, "network,layers,vc_classes,mean_hops,mu,excess_percent,worst_excess\n");
  for (const Net& net : {Net{16, 2, {4}}, Net{24, 2, {4, 8}}, Net{48, 2, {4, 12}}, Net{12, 3, {3}}}) {
    uint64_t last = ~uint64_t(0);
    for (int layers = 1; layers <= 14; ++layers) {
      const Result res = walk(net, false, layers);
      INFO(net.name() << " with " << layers << " layers; first error: " << res.first_error);
      CHECK(res.first_error.empty());
      CHECK(res.hops <= last);
      CHECK(res.classes == std::max(2 + layers, 2 * ((layers + net.d * int(net.b.size()) - 1) / (net.d * int(net.b.size())))));
      last = res.hops;
      if (csv)
        std::fprintf(csv, "\"%s\",%d,%d,%.6f,%.6f,%.3f,%d\n", net.name().c_str(), layers, res.classes,
                     double(res.hops) / double(res.pairs), double(res.distance) / double(res.pairs),
                     100 * (double(res.hops) / double(res.distance) - 1), res.worst_excess);
    }
  }
  if (csv) std::fclose(csv);
}
