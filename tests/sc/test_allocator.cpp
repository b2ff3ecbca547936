// The allocator units on hand-built request matrices: the round-robin rule, and each separable
// allocator's grants and pointer moves (docs/router.md section 5.6).
#include <catch2/catch.hpp>

#include <utility>
#include <vector>

#include "systemc/torus/allocator.h"
#include "tb/run/traffic.h"
#include "tests/sc/harness.h"

using namespace wormcast;

namespace {

/// Groups 0..2 request resources through local index = resource index.
SeparableAllocator make(AllocatorKind kind, const std::vector<std::vector<int>>& wants, int iterations = 1) {
  SeparableAllocator a(kind, 3, 3, 3, iterations);
  for (int g = 0; g < 3; ++g)
    for (int r : wants[size_t(g)]) a.request(g, r, r);
  return a;
}

std::vector<int> group_ptrs(const SeparableAllocator& a) {
  return {a.group_arbiter(0).pointer(), a.group_arbiter(1).pointer(), a.group_arbiter(2).pointer()};
}
std::vector<int> resource_ptrs(const SeparableAllocator& a) {
  return {a.resource_arbiter(0).pointer(), a.resource_arbiter(1).pointer(), a.resource_arbiter(2).pointer()};
}

// g0 wants r0 and r1, g1 wants r0, g2 wants r0 and r2.
const std::vector<std::vector<int>> kContended = {{0, 1}, {0}, {0, 2}};
// g0 wants r0 and r1, g1 wants r2, g2 wants r1: a second iSLIP iteration matches g2 with r1.
const std::vector<std::vector<int>> kSecondChance = {{0, 1}, {2}, {1}};

}  // namespace

TEST_CASE("allocator: the round-robin arbiter grants the first requester from its pointer and moves past a winner",
          "[sc]") {
  RrArbiter arb(4);
  CHECK(arb.pick({0, 1, 0, 1}) == 1);
  arb.advance(1);
  CHECK(arb.pointer() == 2);
  CHECK(arb.pick({0, 1, 0, 1}) == 3);
  CHECK(arb.pick({1, 1, 0, 0}) == 0);  // wraps past n-1
  arb.advance(3);
  CHECK(arb.pointer() == 0);
  CHECK(arb.pick({0, 0, 0, 0}) == -1);
}

TEST_CASE("allocator: input-first grants what the groups' first choices win and moves both pointers past "
          "final winners only",
          "[sc]") {
  SeparableAllocator a = make(AllocatorKind::InputFirst, kContended);
  std::vector<int> grant;
  a.allocate(grant);
  // Every group's pointer is 0, so all three pick r0, which takes g0.
  CHECK(grant == std::vector<int>{0, -1, -1});
  CHECK(group_ptrs(a) == std::vector<int>{1, 0, 0});
  CHECK(resource_ptrs(a) == std::vector<int>{1, 0, 0});
  a.allocate(grant);
  // g0 now starts at r1; r0 starts at g1.
  CHECK(grant == std::vector<int>{1, 0, -1});
  CHECK(group_ptrs(a) == std::vector<int>{2, 1, 0});
  CHECK(resource_ptrs(a) == std::vector<int>{2, 1, 0});
}

TEST_CASE("allocator: output-first lets each resource offer itself, each group accept one offer, and moves "
          "the pointers of accepted offers only",
          "[sc]") {
  SeparableAllocator a = make(AllocatorKind::OutputFirst, kContended);
  std::vector<int> grant;
  a.allocate(grant);
  // r0 and r1 offer to g0, r2 to g2; g0 accepts r0, so r1's pointer stays.
  CHECK(grant == std::vector<int>{0, -1, 2});
  CHECK(group_ptrs(a) == std::vector<int>{1, 0, 0});
  CHECK(resource_ptrs(a) == std::vector<int>{1, 0, 0});
  a.allocate(grant);
  // r0 offers to g1; r1 again to g0, which now prefers r1; r2 to g2.
  CHECK(grant == std::vector<int>{1, 0, 2});
  CHECK(group_ptrs(a) == std::vector<int>{2, 1, 0});
  CHECK(resource_ptrs(a) == std::vector<int>{2, 1, 0});
}

TEST_CASE("allocator: iSLIP adds matches in later iterations and moves pointers for first-iteration matches only",
          "[sc]") {
  SeparableAllocator one = make(AllocatorKind::Islip, kSecondChance, 1);
  std::vector<int> grant;
  one.allocate(grant);
  CHECK(grant == std::vector<int>{0, 2, -1});  // r1's offer to g0 was declined

  SeparableAllocator two = make(AllocatorKind::Islip, kSecondChance, 2);
  two.allocate(grant);
  CHECK(grant == std::vector<int>{0, 2, 1});  // the second iteration gives r1 to g2
  CHECK(group_ptrs(two) == std::vector<int>{1, 0, 0});
  CHECK(resource_ptrs(two) == std::vector<int>{1, 0, 2});

  // Input-first matches all three here at once, every pointer moving past its winner.
  SeparableAllocator in = make(AllocatorKind::InputFirst, kSecondChance);
  in.allocate(grant);
  CHECK(grant == std::vector<int>{0, 2, 1});
  CHECK(group_ptrs(in) == std::vector<int>{1, 0, 2});
  CHECK(resource_ptrs(in) == std::vector<int>{1, 0, 2});
}

namespace {

// An 8x8 torus (V = 2, B = 8) above saturation for 50k cycles under the given allocator: no
// deadlock, every packet delivered exactly once and in order, the allocator echoed.
void loaded(const std::string& allocator, const std::string& iterations) {
  const Config cfg = test::config_for("8x8", "torus",
                                      {{"router.allocator", allocator}, {"router.islip_iterations", iterations},
                                       {"router.vcs_per_class", "2"}, {"router.buffer_depth", "8"},
                                       {"traffic.rate", "0.6"}, {"sim.measure", "50000"}, {"sim.progress", "off"}});
  const RunOutcome r = run_traffic(cfg, RunOptions{});
  const auto& j = r.result;
  INFO(r.summary);
  REQUIRE(r.exit_code == 5);  // drained and clean; beyond saturation: unstable
  REQUIRE(j["status"] == "unstable");
  CHECK(j["config"]["router"]["allocator"] == allocator);
  CHECK(j["deadlock"]["detected"] == false);
  CHECK(j["scoreboard"]["errors"] == 0);
  CHECK(j["packets"]["injected"].get<uint64_t>() > 100000);
  CHECK(j["packets"]["delivered"] == j["packets"]["injected"]);
  const double accepted = j["throughput"]["accepted"].get<double>();
  CHECK(accepted > 0.2);
  CHECK(accepted < j["throughput"]["offered"].get<double>());
}

}  // namespace

TEST_CASE("allocator: output-first routers deliver every packet of an overloaded 8x8 torus once and in order",
          "[sc]") {
  loaded("output-first", "1");
}

TEST_CASE("allocator: iSLIP routers with 2 iterations deliver every packet of an overloaded 8x8 torus once and in "
          "order",
          "[sc]") {
  loaded("islip", "2");
}
