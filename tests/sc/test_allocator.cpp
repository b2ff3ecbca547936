// The allocator units on hand-built request matrices: the round-robin rule, and each separable
// allocator's grants and pointer moves (docs/router.md section 5.6).
#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>
#include <random>
#include <utility>
#include <vector>

#include "systemc/torus/allocator.h"
#include "systemc/torus/credit_unit.h"
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

// The rules of docs/router.md 5.6 written the plain way: request matrix req[g][l] = resource or
// -1, pointers as arrays, every arbiter a scan from its pointer over all requesters.
struct Reference {
  int groups, locals, resources, iterations;
  std::vector<int> gptr, rptr, gres;  // gres: a group's pointer over the resources (IslipPorts)
  Reference(int g, int l, int r, int it)
      : groups(g), locals(l), resources(r), iterations(it), gptr(size_t(g)), rptr(size_t(r)), gres(size_t(g)) {}
  static int scan(int ptr, int n, const std::function<bool(int)>& wants) {
    for (int i = 0; i < n; ++i)
      if (wants((ptr + i) % n)) return (ptr + i) % n;
    return -1;
  }
  std::vector<int> allocate(AllocatorKind kind, const std::vector<std::vector<int>>& req) {
    std::vector<int> grant(size_t(groups), -1);
    if (kind == AllocatorKind::InputFirst) {
      std::vector<int> pick(static_cast<size_t>(groups));
      for (int g = 0; g < groups; ++g) pick[size_t(g)] = scan(gptr[size_t(g)], locals, [&](int l) { return req[size_t(g)][size_t(l)] >= 0; });
      for (int r = 0; r < resources; ++r) {
        const int g = scan(rptr[size_t(r)], groups, [&](int x) { return pick[size_t(x)] >= 0 && req[size_t(x)][size_t(pick[size_t(x)])] == r; });
        if (g < 0) continue;
        grant[size_t(g)] = pick[size_t(g)];
        rptr[size_t(r)] = (g + 1) % groups;
        gptr[size_t(g)] = (pick[size_t(g)] + 1) % locals;
      }
      return grant;
    }
    const int rounds = kind == AllocatorKind::OutputFirst ? 1 : iterations;
    std::vector<uint8_t> taken(size_t(resources), 0);
    if (kind == AllocatorKind::IslipPorts) {
      // Each resource picks a requesting unmatched group from its pointer; each group accepts the
      // first resource that picked it from its resource pointer, through its first local from its
      // local pointer requesting that resource; the local pointer moves on every match.
      for (int it = 0; it < rounds; ++it) {
        std::vector<int> offer(size_t(resources), -1);
        for (int r = 0; r < resources; ++r)
          if (!taken[size_t(r)])
            offer[size_t(r)] = scan(rptr[size_t(r)], groups, [&](int g) {
              return grant[size_t(g)] < 0 && std::count(req[size_t(g)].begin(), req[size_t(g)].end(), r) > 0;
            });
        bool matched = false;
        for (int g = 0; g < groups; ++g) {
          if (grant[size_t(g)] >= 0) continue;
          const int r = scan(gres[size_t(g)], resources, [&](int x) { return offer[size_t(x)] == g; });
          if (r < 0) continue;
          const int l = scan(gptr[size_t(g)], locals, [&](int x) { return req[size_t(g)][size_t(x)] == r; });
          grant[size_t(g)] = l;
          taken[size_t(r)] = 1;
          matched = true;
          gptr[size_t(g)] = (l + 1) % locals;
          if (it == 0) {
            gres[size_t(g)] = (r + 1) % resources;
            rptr[size_t(r)] = (g + 1) % groups;
          }
        }
        if (!matched) break;
      }
      return grant;
    }
    for (int it = 0; it < rounds; ++it) {
      std::vector<int> offer(size_t(resources), -1);
      for (int r = 0; r < resources; ++r) {
        if (taken[size_t(r)]) continue;
        offer[size_t(r)] = scan(rptr[size_t(r)], groups, [&](int g) {
          if (grant[size_t(g)] >= 0) return false;
          for (int l = 0; l < locals; ++l)
            if (req[size_t(g)][size_t(l)] == r) return true;
          return false;
        });
      }
      bool matched = false;
      for (int g = 0; g < groups; ++g) {
        if (grant[size_t(g)] >= 0) continue;
        const int l = scan(gptr[size_t(g)], locals, [&](int x) { const int r = req[size_t(g)][size_t(x)]; return r >= 0 && offer[size_t(r)] == g; });
        if (l < 0) continue;
        const int r = req[size_t(g)][size_t(l)];
        grant[size_t(g)] = l;
        taken[size_t(r)] = 1;
        matched = true;
        if (it == 0) {
          gptr[size_t(g)] = (l + 1) % locals;
          rptr[size_t(r)] = (g + 1) % groups;
        }
      }
      if (!matched) break;
    }
    return grant;
  }
};

// 2,000 random allocations in a row (requests, then grants and every pointer compared); each
// (group, local) requests with probability 1/one_in. Returns how many of the rounds had no resource
// requested by two groups (the allocator's shortcut for that case, SeparableAllocator::disjoint).
int cross_check(AllocatorKind kind, int iterations, int one_in = 3) {
  const int groups = 12, locals = 4, resources = 9;
  int disjoint_rounds = 0;
  std::mt19937_64 rng(7);
  SeparableAllocator unit(kind, groups, locals, resources, iterations);
  Reference ref(groups, locals, resources, iterations);
  std::vector<int> grant;
  for (int round = 0; round < 2000; ++round) {
    std::vector<std::vector<int>> req(size_t(groups), std::vector<int>(size_t(locals), -1));
    unit.clear();
    for (int g = 0; g < groups; ++g)
      for (int l = 0; l < locals; ++l)
        if (rng() % uint64_t(one_in) == 0) {
          req[size_t(g)][size_t(l)] = int(rng() % uint64_t(resources));
          unit.request(g, l, req[size_t(g)][size_t(l)]);
        }
    std::vector<int> owner(size_t(resources), -1);
    bool shared = false;
    for (int g = 0; g < groups; ++g)
      for (int r : req[size_t(g)]) {
        if (r < 0) continue;
        shared |= owner[size_t(r)] >= 0 && owner[size_t(r)] != g;
        owner[size_t(r)] = g;
      }
    disjoint_rounds += shared ? 0 : 1;
    unit.allocate(grant);
    INFO("round " << round);
    REQUIRE(grant == ref.allocate(kind, req));
    for (int g = 0; g < groups; ++g) REQUIRE(unit.group_arbiter(g).pointer() == ref.gptr[size_t(g)]);
    for (int r = 0; r < resources; ++r) REQUIRE(unit.resource_arbiter(r).pointer() == ref.rptr[size_t(r)]);
    if (kind == AllocatorKind::IslipPorts)
      for (int g = 0; g < groups; ++g) REQUIRE(unit.group_resource_arbiter(g).pointer() == ref.gres[size_t(g)]);
  }
  return disjoint_rounds;
}

}  // namespace

TEST_CASE("allocator: input-first output-first iSLIP and iSLIP by ports grant and move pointers as the plain rules on 2000 "
          "random request matrices",
          "[sc]") {
  cross_check(AllocatorKind::InputFirst, 1);
  cross_check(AllocatorKind::OutputFirst, 1);
  cross_check(AllocatorKind::Islip, 1);
  cross_check(AllocatorKind::Islip, 3);
  cross_check(AllocatorKind::IslipPorts, 1);
  cross_check(AllocatorKind::IslipPorts, 3);
}

TEST_CASE("allocator: sparse requests, most with no resource shared between groups, are granted and move "
          "pointers as the plain rules for every kind",
          "[sc]") {
  // One request in 24 (two on average): both the shortcut and the full allocation run, in one
  // sequence of pointer states.
  for (auto [kind, iterations] : {std::pair{AllocatorKind::InputFirst, 1}, std::pair{AllocatorKind::OutputFirst, 1},
                                  std::pair{AllocatorKind::Islip, 1}, std::pair{AllocatorKind::Islip, 3},
                                  std::pair{AllocatorKind::IslipPorts, 1}, std::pair{AllocatorKind::IslipPorts, 3}}) {
    const int disjoint = cross_check(kind, iterations, 24);
    CHECK(disjoint > 1000);
    CHECK(disjoint < 2000);
  }
}

TEST_CASE("allocator: the credit unit counts a returned credit after its delay and reports a count above the depth",
          "[sc]") {
  CreditUnit now(2, 2, 0);
  now.take(1);
  CHECK(now.credits(1) == 1);
  CHECK(now.arrive(1, 5));
  CHECK(now.credits(1) == 2);
  CHECK(now.settled());
  CHECK_FALSE(now.arrive(1, 6));  // a third credit for a 2-flit buffer

  CreditUnit late(1, 4, 3);
  late.take(0);
  late.take(0);
  CHECK(late.arrive(0, 10));
  CHECK(late.arrive(0, 11));
  CHECK_FALSE(late.settled());
  CHECK(late.mature(12));
  CHECK(late.credits(0) == 2);  // usable from 13 and 14
  CHECK(late.mature(13));
  CHECK(late.credits(0) == 3);
  CHECK(late.mature(14));
  CHECK(late.credits(0) == 4);
  CHECK(late.settled());
  CHECK(late.arrive(0, 20));
  CHECK_FALSE(late.mature(23));
}

TEST_CASE("allocator: the credit unit of a one-edge delay counts a credit from the next edge, exact when traced",
          "[sc]") {
  CreditUnit one(3, 2, 1);
  one.take(0);
  one.take(0);
  one.take(2);
  REQUIRE(one.mature(10));
  CHECK(one.arrive(0, 10));  // usable from 11
  CHECK(one.arrive(2, 10));
  CHECK(one.mature(10));
  CHECK(one.credits(0) == 0);
  CHECK(one.credits(2) == 1);
  CHECK_FALSE(one.settled());
  CHECK(one.arrive(0, 11));  // usable from 12; the credit of edge 10 is usable at 11
  CHECK(one.mature(11));
  CHECK(one.credits(0) == 1);
  CHECK(one.credits(2) == 2);
  CHECK(one.mature(12));
  CHECK(one.credits(0) == 2);
  CHECK(one.settled());
  CHECK_FALSE(one.arrive(1, 13));  // a third credit for a 2-flit buffer, seen as it arrives

  CreditUnit traced(2, 4, 1);
  traced.take(1);
  CHECK(traced.mature(5));
  CHECK(traced.arrive(1, 5));
  traced.exact_counters();  // the counter excludes the credit until it is usable
  CHECK(traced.counter(1) == 3);
  CHECK(traced.credits(1) == 3);
  CHECK(traced.mature(6));
  CHECK(traced.counter(1) == 4);
  CHECK(traced.settled());
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

TEST_CASE("allocator: iSLIP by ports offers one VC per output from the VC pointer and accepts by output pointer",
          "[sc]") {
  // One input port (group 0) of 4 VCs: VC 0 wants output 1, VCs 1 and 2 want output 0 (BookSim2's
  // switch allocator, docs/router.md section 11). Output 0 sees VC 1 (the first from the VC pointer
  // 0 that wants it), output 1 VC 0; both grant the port, which accepts output 0 (the first from its
  // output pointer 0). iSLIP by VCs would accept VC 0 (output 1).
  auto want = [](SeparableAllocator& a) {
    a.clear();
    a.request(0, 0, 1);
    a.request(0, 1, 0);
    a.request(0, 2, 0);
  };
  SeparableAllocator ports(AllocatorKind::IslipPorts, 2, 4, 2, 1), vcs(AllocatorKind::Islip, 2, 4, 2, 1);
  want(ports);
  want(vcs);
  const auto p1 = ports.allocate();
  const auto v1 = vcs.allocate();
  REQUIRE(p1.size() == 1);
  CHECK(std::make_pair(int(p1[0].local), int(p1[0].resource)) == std::make_pair(1, 0));
  REQUIRE(v1.size() == 1);
  CHECK(std::make_pair(int(v1[0].local), int(v1[0].resource)) == std::make_pair(0, 1));
  // Pointers: the port's VC pointer past VC 1, output 0's past the port.
  CHECK(ports.group_arbiter(0).pointer() == 2);
  CHECK(ports.resource_arbiter(0).pointer() == 1);
  CHECK(ports.resource_arbiter(1).pointer() == 0);
  // Again: from VC pointer 2 output 0 sees VC 2; the output pointer (past output 0) now prefers
  // output 1, VC 0.
  want(ports);
  const auto p2 = ports.allocate();
  REQUIRE(p2.size() == 1);
  CHECK(std::make_pair(int(p2[0].local), int(p2[0].resource)) == std::make_pair(0, 1));
  CHECK(ports.group_arbiter(0).pointer() == 1);
  // Two ports on one output: the output's pointer picks one, the other port gets its other output.
  SeparableAllocator two(AllocatorKind::IslipPorts, 2, 4, 2, 1);
  two.clear();
  two.request(0, 3, 0);
  two.request(1, 0, 0);
  two.request(1, 2, 1);
  const auto t = two.allocate();
  REQUIRE(t.size() == 2);
  CHECK(t[0].group == 0);
  CHECK(std::make_pair(int(t[0].local), int(t[0].resource)) == std::make_pair(3, 0));
  CHECK(t[1].group == 1);
  CHECK(std::make_pair(int(t[1].local), int(t[1].resource)) == std::make_pair(2, 1));
}
