// Broadcast generators: worked examples of our reconstruction, step counts, sources, size errors.
#include <catch2/catch.hpp>

#include <set>
#include <tuple>

#include "sw/broadcast/broadcast.h"
#include "tests/sw/schedule_helpers.h"

using namespace wormcast::sw;
using namespace wormcast::sw::test;

namespace {

Topology net(const std::string& text) { return parse_net(text); }


/// The destinations `src` sends to in `step`, in send order.
std::vector<int> sends(const Schedule& s, int src, int step) {
  std::vector<std::pair<int, int>> v;
  for (const Unicast& u : s.unicasts)
    if (u.src == src && u.step == step) v.push_back({u.order, u.dst});
  std::sort(v.begin(), v.end());
  std::vector<int> out;
  for (auto& p : v) out.push_back(p.second);
  return out;
}

int count_step(const Schedule& s, int step) {
  int n = 0;
  for (const Unicast& u : s.unicasts) n += u.step == step;
  return n;
}

std::set<std::tuple<int, int, int, int>> as_set(const Schedule& s) {
  std::set<std::tuple<int, int, int, int>> out;
  for (const Unicast& u : s.unicasts) out.insert({u.step, u.src, u.dst, u.order});
  return out;
}

}  // namespace

TEST_CASE("dcf: 4x4 block matches the reconstructed send lists", "[sw]") {
  const Topology t = net("torus:4x4");
  const Schedule s = dcf_broadcast(t, 0);
  REQUIRE(s.num_steps == 2);
  REQUIRE(s.unicasts.size() == 15);
  REQUIRE(sends(s, at(t, 0, 0), 1) == std::vector<int>{at(t, 2, 1), at(t, 0, 2), at(t, 3, 3), at(t, 0, 3)});
  REQUIRE(sends(s, at(t, 0, 0), 2) == std::vector<int>{at(t, 1, 0)});
  REQUIRE(sends(s, at(t, 2, 1), 2) == std::vector<int>{at(t, 2, 0), at(t, 1, 1), at(t, 3, 1), at(t, 2, 2)});
  REQUIRE(sends(s, at(t, 0, 2), 2) == std::vector<int>{at(t, 0, 1), at(t, 3, 2), at(t, 1, 2)});
  REQUIRE(sends(s, at(t, 3, 3), 2) == std::vector<int>{at(t, 2, 3), at(t, 3, 0)});
  REQUIRE(sends(s, at(t, 0, 3), 2) == std::vector<int>{at(t, 1, 3)});
  for (const Unicast& u : s.unicasts) REQUIRE_FALSE(u.tie_negative);
}

TEST_CASE("dcf: 16x16 phase 1 and unicasts per step", "[sw]") {
  const Topology t = net("torus:16x16");
  const Schedule s = dcf_broadcast(t, 0);
  REQUIRE(s.num_steps == 4);
  REQUIRE(sends(s, at(t, 0, 0), 1) == std::vector<int>{at(t, 8, 4), at(t, 0, 8), at(t, 12, 12), at(t, 0, 12)});
  REQUIRE(sends(s, at(t, 8, 4), 2) == std::vector<int>{at(t, 8, 0), at(t, 4, 4), at(t, 12, 4), at(t, 8, 8)});
  REQUIRE(sends(s, at(t, 0, 8), 2) == std::vector<int>{at(t, 0, 4), at(t, 12, 8), at(t, 4, 8)});
  REQUIRE(sends(s, at(t, 12, 12), 2) == std::vector<int>{at(t, 8, 12), at(t, 12, 0)});
  REQUIRE(sends(s, at(t, 0, 12), 2) == std::vector<int>{at(t, 4, 12)});
  REQUIRE(t.hops(0, at(t, 8, 4), false) == 12);
  REQUIRE(count_step(s, 1) == 4);
  REQUIRE(count_step(s, 2) == 11);
  REQUIRE(count_step(s, 3) == 64);
  REQUIRE(count_step(s, 4) == 176);
}

TEST_CASE("dcf: sol1 swaps the roles of B and C", "[sw]") {
  const Topology t = net("torus:4x4");
  const Schedule s = dcf_broadcast(t, 0, DcfVariant::Sol1);
  REQUIRE(sends(s, 0, 1) == std::vector<int>{at(t, 2, 1), at(t, 3, 3), at(t, 0, 2), at(t, 0, 3)});
  REQUIRE(sends(s, at(t, 3, 3), 2) == std::vector<int>{at(t, 2, 3), at(t, 3, 0), at(t, 3, 2)});
  REQUIRE(sends(s, at(t, 0, 2), 2) == std::vector<int>{at(t, 0, 1), at(t, 1, 2)});
}

TEST_CASE("dcf: step counts are 2k on 4^k and 2k+1 on 2*4^k", "[sw]") {
  auto [n, steps] = GENERATE(table<int, int>({{4, 2}, {8, 3}, {16, 4}, {32, 5}, {64, 6}, {128, 7}}));
  const Topology t = net("torus:" + std::to_string(n) + "x" + std::to_string(n));
  const Schedule s = dcf_broadcast(t, 0);
  REQUIRE(s.num_steps == steps);
  REQUIRE(int(s.unicasts.size()) == n * n - 1);
}

TEST_CASE("edn: 4x4 stand-in sends the interpretation's targets, tie bit on the top third target", "[sw]") {
  const Topology t = net("torus:4x4");
  const Schedule s = edn_broadcast(t, 0);
  REQUIRE(s.num_steps == 2);
  REQUIRE(sends(s, 0, 1) == std::vector<int>{at(t, 2, 0), at(t, 0, 2), at(t, 2, 2)});
  REQUIRE(sends(s, 0, 2) == std::vector<int>{at(t, 1, 0), at(t, 0, 1), at(t, 3, 1)});
  REQUIRE(sends(s, at(t, 2, 0), 2) == std::vector<int>{at(t, 3, 0), at(t, 2, 1), at(t, 1, 1)});
  REQUIRE(sends(s, at(t, 0, 2), 2) == std::vector<int>{at(t, 1, 2), at(t, 0, 3), at(t, 3, 3)});
  REQUIRE(sends(s, at(t, 2, 2), 2) == std::vector<int>{at(t, 3, 2), at(t, 2, 3), at(t, 1, 3)});
  int ties = 0;
  for (const Unicast& u : s.unicasts) {
    if (!u.tie_negative) continue;
    ++ties;
    REQUIRE(u.step == 1);
    REQUIRE(first_port(t, u) == 1);  // x-
  }
  REQUIRE(ties == 1);
}

TEST_CASE("tseng: 5x5 example, with and without the redundant re-sends", "[sw]") {
  const Topology t = net("torus:5x5");
  const Schedule keep = tseng_broadcast(t, 0, true);
  REQUIRE(keep.num_steps == 3);
  REQUIRE(keep.unicasts.size() == 26);
  REQUIRE(sends(keep, 0, 1) == std::vector<int>{at(t, 0, 3), at(t, 4, 4), at(t, 1, 1), at(t, 0, 2)});
  REQUIRE(sends(keep, at(t, 0, 2), 2) == std::vector<int>{at(t, 2, 2)});
  REQUIRE(sends(keep, at(t, 0, 3), 2) == std::vector<int>{at(t, 3, 3)});
  REQUIRE(sends(keep, at(t, 1, 1), 2).empty());
  REQUIRE(sends(keep, 0, 3) == std::vector<int>{at(t, 3, 0), at(t, 0, 1), at(t, 0, 4), at(t, 2, 0)});
  const Schedule lean = tseng_broadcast(t, 0);
  REQUIRE(lean.unicasts.size() == 24);
}

TEST_CASE("tseng: 8x8 stage 1 and unicast counts of the literal scheme", "[sw]") {
  const Topology t = net("torus:8x8");
  const Schedule s = tseng_broadcast(t, 0, true);
  REQUIRE(sends(s, 0, 1) == std::vector<int>{at(t, 0, 5), at(t, 6, 6), at(t, 2, 2), at(t, 0, 4)});
  REQUIRE(sends(s, at(t, 6, 6), 2) == std::vector<int>{at(t, 7, 7)});
  REQUIRE(sends(s, 0, 2) == std::vector<int>{at(t, 1, 1)});
  REQUIRE(sends(s, at(t, 2, 2), 2) == std::vector<int>{at(t, 3, 3)});
  REQUIRE(sends(s, at(t, 0, 5), 3) == std::vector<int>{at(t, 5, 5)});
  REQUIRE(sends(s, at(t, 0, 4), 3) == std::vector<int>{at(t, 4, 4)});
  REQUIRE(s.unicasts.size() == 65);
  REQUIRE(tseng_broadcast(net("torus:16x16"), 0, true).unicasts.size() == 262);
  REQUIRE(tseng_broadcast(net("torus:64x64"), 0, true).unicasts.size() == 4132);
}

TEST_CASE("tseng: 2*ceil(log5 n)+1 steps and N-1 unicasts without redundancy", "[sw]") {
  for (int n = 2; n <= 40; ++n) {
    CAPTURE(n);
    const Schedule s = tseng_broadcast(net("torus:" + std::to_string(n) + "x" + std::to_string(n)), 0);
    REQUIRE(s.num_steps == 2 * ceil_log(n, 5) + 1);
    REQUIRE(int(s.unicasts.size()) == n * n - 1);
  }
}

TEST_CASE("wang-tseng: on 2-D tori it is Tseng's scheme step by step", "[sw]") {
  for (int n = 2; n <= 40; ++n) {
    CAPTURE(n);
    const Topology t = net("torus:" + std::to_string(n) + "x" + std::to_string(n));
    REQUIRE(as_set(wang_tseng_broadcast(t, 0, true)) == as_set(tseng_broadcast(t, 0, true)));
  }
}

TEST_CASE("wang-tseng: 7x7x7 distribution and alignment steps", "[sw]") {
  const Topology t = net("torus:7x7x7");
  const Schedule s = wang_tseng_broadcast(t, 0, true);
  REQUIRE(s.num_steps == 5);
  REQUIRE(sends(s, 0, 1) == std::vector<int>{at(t, 0, 0, 4), at(t, 0, 5, 5), at(t, 6, 0, 6), at(t, 1, 0, 1),
                                             at(t, 0, 2, 2), at(t, 0, 0, 3)});
  REQUIRE(sends(s, at(t, 0, 0, 4), 2) == std::vector<int>{at(t, 4, 0, 4)});
  REQUIRE(sends(s, at(t, 0, 5, 5), 2) == std::vector<int>{at(t, 5, 0, 5)});
  REQUIRE(sends(s, at(t, 0, 2, 2), 2) == std::vector<int>{at(t, 2, 0, 2)});
  REQUIRE(sends(s, at(t, 0, 0, 3), 2) == std::vector<int>{at(t, 3, 0, 3)});
  REQUIRE(sends(s, at(t, 1, 0, 1), 2).empty());
  const int literal[] = {6, 4, 42, 28, 294};
  for (int step = 1; step <= 5; ++step) REQUIRE(count_step(s, step) == literal[step - 1]);
  REQUIRE(wang_tseng_broadcast(t, 0).unicasts.size() == 342);
}

TEST_CASE("wang-tseng: 5x5x5 stage 2 targets and per-step counts", "[sw]") {
  const Topology t = net("torus:5x5x5");
  const Schedule s = wang_tseng_broadcast(t, 0, true);
  REQUIRE(sends(s, 0, 3) == std::vector<int>{at(t, 0, 3, 2), at(t, 0, 0, 1), at(t, 0, 0, 4), at(t, 0, 2, 3)});
  REQUIRE(sends(s, at(t, 0, 0, 1), 4) == std::vector<int>{at(t, 0, 4, 1)});
  const int literal[] = {4, 2, 20, 10, 100};
  for (int step = 1; step <= 5; ++step) REQUIRE(count_step(s, step) == literal[step - 1]);
  const Schedule lean = wang_tseng_broadcast(t, 0);
  REQUIRE(count_step(lean, 5) == 88);
  REQUIRE(lean.unicasts.size() == 124);
}

TEST_CASE("wang-tseng: 8x8x8 and 5^4 per-step counts, literal and suppressed", "[sw]") {
  auto counts = [](const Schedule& s) {
    std::vector<int> v;
    for (int step = 1; step <= s.num_steps; ++step) v.push_back(count_step(s, step));
    return v;
  };
  const Topology t3 = net("torus:8x8x8");
  REQUIRE(counts(wang_tseng_broadcast(t3, 0, true)) == std::vector<int>{6, 1, 4, 48, 8, 40, 384, 64});
  REQUIRE(counts(wang_tseng_broadcast(t3, 0)) == std::vector<int>{6, 1, 4, 47, 8, 40, 349, 56});
  const Topology t4 = net("torus:5x5x5x5");
  REQUIRE(counts(wang_tseng_broadcast(t4, 0, true)) == std::vector<int>{4, 2, 20, 20, 100, 50, 500});
  REQUIRE(counts(wang_tseng_broadcast(t4, 0)) == std::vector<int>{4, 2, 20, 20, 80, 50, 448});
}

TEST_CASE("rd: halves each dimension in turn, one send per node per step", "[sw]") {
  const Topology t = net("torus:8x8");
  const Schedule s = recursive_doubling_broadcast(t, 0);
  REQUIRE(s.num_steps == 6);
  REQUIRE(s.unicasts.size() == 63);
  const int order[] = {at(t, 4, 0), at(t, 2, 0), at(t, 1, 0), at(t, 0, 4), at(t, 0, 2), at(t, 0, 1)};
  for (int step = 1; step <= 6; ++step) REQUIRE(sends(s, 0, step) == std::vector<int>{order[step - 1]});
  REQUIRE(sends(s, at(t, 4, 0), 2) == std::vector<int>{at(t, 6, 0)});
  REQUIRE(sends(s, at(t, 4, 0), 3) == std::vector<int>{at(t, 5, 0)});
  REQUIRE(sends(s, at(t, 4, 0), 4) == std::vector<int>{at(t, 4, 4)});
  const Schedule odd = recursive_doubling_broadcast(net("torus:7x9x3"), 5);
  REQUIRE(odd.num_steps == 3 + 4 + 2);
  REQUIRE(odd.unicasts.size() == 7 * 9 * 3 - 1);
}

TEST_CASE("sequential: the source sends N-1 unicasts, one per step", "[sw]") {
  const Topology t = net("mesh:3x4");
  const Schedule s = sequential_broadcast(t, 5);
  REQUIRE(s.unicasts.size() == 11);
  REQUIRE(s.num_steps == 11);
  std::set<int> dsts;
  for (const Unicast& u : s.unicasts) {
    REQUIRE(u.src == 5);
    REQUIRE(u.order == 0);
    dsts.insert(u.dst);
  }
  REQUIRE(dsts.size() == 11);
  REQUIRE(dsts.count(5) == 0);
}

TEST_CASE("generators: another source gives the translated schedule", "[sw]") {
  const Topology t = net("torus:16x16");
  const int src = at(t, 3, 11);
  for (BroadcastAlgo a : {BroadcastAlgo::Dcf, BroadcastAlgo::Edn, BroadcastAlgo::Tseng,
                          BroadcastAlgo::WangTseng, BroadcastAlgo::RecursiveDoubling}) {
    CAPTURE(algo_name(a));
    Schedule moved = translate(generate_broadcast(a, t, 0), src);
    sort_canonical(moved);
    const Schedule direct = generate_broadcast(a, t, src);
    REQUIRE(direct.source == src);
    REQUIRE(as_set(direct) == as_set(moved));
  }
}

TEST_CASE("generators: unsupported networks get one line naming the algorithm", "[sw]") {
  auto [algo, text] = GENERATE(table<BroadcastAlgo, const char*>({
      {BroadcastAlgo::Dcf, "torus:6x6"},
      {BroadcastAlgo::Dcf, "torus:2x2"},
      {BroadcastAlgo::Dcf, "torus:8x16"},
      {BroadcastAlgo::Dcf, "torus:4x4x4"},
      {BroadcastAlgo::Dcf, "mesh:8x8"},
      {BroadcastAlgo::Edn, "torus:12x12"},
      {BroadcastAlgo::Edn, "torus:8"},
      {BroadcastAlgo::Tseng, "torus:8x16"},
      {BroadcastAlgo::Tseng, "torus:8x8x8"},
      {BroadcastAlgo::WangTseng, "torus:5x6x5"},
      {BroadcastAlgo::WangTseng, "torus:9"},
      {BroadcastAlgo::WangTseng, "torus,mesh:5x5"},
      {BroadcastAlgo::RecursiveDoubling, "mesh:4x4"},
  }));
  CAPTURE(text);
  try {
    generate_broadcast(algo, net(text), 0);
    FAIL("generated a schedule");
  } catch (const UnsupportedNetwork& e) {
    const std::string msg = e.what();
    REQUIRE(msg.rfind(std::string(algo_name(algo)) + ":", 0) == 0);
    REQUIRE(msg.find(text) != std::string::npos);
    REQUIRE(msg.find('\n') == std::string::npos);
  }
}

TEST_CASE("generators: tseng names the missing dilated diagonal for non-square tori", "[sw]") {
  REQUIRE_THROWS_WITH(tseng_broadcast(net("torus:8x16"), 0), Catch::Contains("non-square"));
  REQUIRE_THROWS_AS(generate_broadcast(BroadcastAlgo::Dcf, net("torus:4x4"), 16), std::invalid_argument);
}

TEST_CASE("algorithm names: parse what algo_name prints, reject others with the list", "[sw]") {
  for (const std::string& name : algo_names()) REQUIRE(algo_name(parse_algo(name)) == name);
  REQUIRE(algo_names().size() == 6);
  REQUIRE_THROWS_WITH(parse_algo("dfc"), Catch::Contains("wang-tseng"));
  REQUIRE_THAT(algo_help(BroadcastAlgo::Edn), Catch::Contains("INTERPRETATION"));
}
