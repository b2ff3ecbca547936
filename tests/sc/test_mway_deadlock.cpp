// Plain MST (unordered reservation, partial header advance, wormhole buffers) deadlocks on a
// documented configuration; MST-safe and MST-replica complete the same injection pattern.
#include <catch2/catch.hpp>

#include <functional>
#include <map>
#include <set>

#include "tests/sc/mway_bench.h"

using namespace wormcast;

namespace {
// docs/mway.md section 10: a 4x4 mesh, one buffer per buffer set, every node broadcasting a
// 5-flit message to the whole mesh in cycle 0.
MwayParams config(MwayAlgorithm alg, int buffer_length) {
  MwayParams p;
  p.radix = {4, 4};
  p.algorithm = alg;
  p.buffers = 1;
  p.buffer_length = buffer_length;
  p.injection_buffers = 1;
  p.ejection_buffers = 1;
  return p;
}
void all_broadcast(test::MwayBench& b) {
  const auto& g = b.fab.geometry();
  for (int s = 0; s < g.num_channels(); ++s) b.submit(b.region(uint64_t(s + 1), s, g.full_region(), 5, 0));
}
bool has_cycle(const std::vector<WaitEdge>& edges) {
  std::map<std::string, std::vector<std::string>> adj;
  for (auto& e : edges) adj[e.waiter].push_back(e.holder);
  std::map<std::string, int> state;  // 0 new, 1 on stack, 2 done
  std::function<bool(const std::string&)> dfs = [&](const std::string& v) {
    state[v] = 1;
    for (auto& w : adj[v]) {
      if (state[w] == 1) return true;
      if (state[w] == 0 && dfs(w)) return true;
    }
    state[v] = 2;
    return false;
  };
  for (auto& [v, _] : adj)
    if (state[v] == 0 && dfs(v)) return true;
  return false;
}
constexpr uint64_t kWindow = 200;
}  // namespace

TEST_CASE("mway: plain MST deadlocks on the documented configuration and the wait-for graph has a cycle", "[sc]") {
  test::MwayBench b("bench", config(MwayAlgorithm::Mst, 2));
  all_broadcast(b);
  const bool stuck = b.run_until_stuck(kWindow, 20000);
  REQUIRE(stuck);
  REQUIRE(b.errors.empty());
  REQUIRE_FALSE(b.complete());
  REQUIRE(b.fab.buffered_flits() > 0);
  const auto edges = b.fab.wait_edges();
  REQUIRE(!edges.empty());
  for (auto& e : edges) {
    REQUIRE(e.waiter.find("bench.fab.") == 0);
    REQUIRE(e.holder.find("bench.fab.") == 0);
  }
  REQUIRE(has_cycle(edges));
}

TEST_CASE("mway: MST-safe completes the injection pattern on which plain MST deadlocks", "[sc]") {
  test::MwayBench b("bench", config(MwayAlgorithm::MstSafe, 5));
  all_broadcast(b);
  REQUIRE_FALSE(b.run_until_stuck(kWindow, 20000));
  REQUIRE(b.errors.empty());
  REQUIRE(b.complete());
  REQUIRE(b.fab.wait_edges().empty());
}

TEST_CASE("mway: MST-replica completes the injection pattern on which plain MST deadlocks", "[sc]") {
  test::MwayBench b("bench", config(MwayAlgorithm::MstReplica, 5));
  all_broadcast(b);
  REQUIRE_FALSE(b.run_until_stuck(kWindow, 20000));
  REQUIRE(b.errors.empty());
  REQUIRE(b.complete());
}
