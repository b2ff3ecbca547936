// Broadcast schedules as node programs on the cycle-accurate model: DCF is depth contention-free,
// so its measured latency equals the analytic backend's exactly with no blocked cycle; every
// generator delivers to all N-1 nodes exactly once.
#include <catch2/catch.hpp>

#include "sw/broadcast/broadcast.h"
#include "sw/schedule/analytic.h"
#include "sw/schedule/program_image.h"
#include "tb/run/programs.h"
#include "tests/sc/harness.h"

using namespace wormcast;

namespace {

struct Outcome {
  ProgramRun run;
  sw::AnalyticResult analytic;
  uint64_t measured = 0;
  int source = 0;
};

Outcome broadcast(const std::string& radix, const std::string& algo, uint32_t len, int ts, int source_seed = 0) {
  const Config cfg = test::config_for(radix, "torus",
                                      {{"router.vcs_per_class", "2"}, {"nic.max_packet", "4096"},
                                       {"nic.ts", std::to_string(ts)}, {"nic.tr", std::to_string(ts)}});
  const sw::Topology t = cfg.net.topology();
  Outcome o;
  o.source = source_seed % t.num_nodes();
  const sw::Schedule s = sw::generate_broadcast(sw::parse_algo(algo), t, o.source);
  sw::AnalyticParams ap;
  ap.t_s = uint64_t(ts);
  ap.t_r = uint64_t(ts);
  o.analytic = sw::run_schedule_analytic(s, len, ap);
  const sw::ProgramImage image(s);
  auto programs = image.make_programs(len);
  std::vector<sw::NodeProgram*> ptrs;
  for (auto& p : programs) ptrs.push_back(&p);
  o.run = run_programs(cfg, ptrs, ProgramRunOptions{});
  for (int i = 0; i < t.num_nodes(); ++i) {
    if (i == o.source) {
      REQUIRE(o.run.deliveries[size_t(i)] == 0);
      continue;
    }
    REQUIRE(o.run.deliveries[size_t(i)] == 1);  // exactly once
    REQUIRE(o.run.first_visible[size_t(i)] != ~uint64_t(0));
    o.measured = std::max(o.measured, o.run.first_visible[size_t(i)]);
  }
  REQUIRE(o.run.status == RunStatus::Ok);
  REQUIRE(o.run.errors.empty());
  return o;
}

void dcf_exact(const std::string& radix, uint32_t len, int ts) {
  const Outcome o = broadcast(radix, "dcf", len, ts);
  REQUIRE(o.run.blocked_cycles == 0);
  REQUIRE(o.measured == o.analytic.latency);
  // Every node, not only the last one, sees the message when the model says.
  for (size_t i = 0; i < o.run.first_visible.size(); ++i)
    if (int(i) != o.source) REQUIRE(int64_t(o.run.first_visible[i]) == o.analytic.first_visible[i]);
}

}  // namespace

TEST_CASE("broadcast: DCF 16x16 measured equals analytic, 0 blocked, t_s = t_r = 0, L = 1", "[sc]") { dcf_exact("16x16", 1, 0); }
TEST_CASE("broadcast: DCF 16x16 measured equals analytic, 0 blocked, t_s = t_r = 0, L = 64", "[sc]") { dcf_exact("16x16", 64, 0); }
TEST_CASE("broadcast: DCF 16x16 measured equals analytic, 0 blocked, t_s = t_r = 0, L = 1024", "[sc]") { dcf_exact("16x16", 1024, 0); }
TEST_CASE("broadcast: DCF 16x16 measured equals analytic, 0 blocked, t_s = t_r = 200, L = 1", "[sc]") { dcf_exact("16x16", 1, 200); }
TEST_CASE("broadcast: DCF 16x16 measured equals analytic, 0 blocked, t_s = t_r = 200, L = 64", "[sc]") { dcf_exact("16x16", 64, 200); }
TEST_CASE("broadcast: DCF 16x16 measured equals analytic, 0 blocked, t_s = t_r = 200, L = 1024", "[sc]") { dcf_exact("16x16", 1024, 200); }
TEST_CASE("broadcast: DCF 32x32 measured equals analytic, 0 blocked, t_s = t_r = 0, L = 256", "[sc]") { dcf_exact("32x32", 256, 0); }
TEST_CASE("broadcast: DCF 32x32 measured equals analytic, 0 blocked, t_s = t_r = 200, L = 64", "[sc]") { dcf_exact("32x32", 64, 200); }

TEST_CASE("broadcast: DCF from another source on 8x8 delivers exactly once", "[sc]") { broadcast("8x8", "dcf", 16, 10, 27); }
TEST_CASE("broadcast: EDN on 8x8 delivers exactly once", "[sc]") { broadcast("8x8", "edn", 16, 0, 5); }
TEST_CASE("broadcast: Tseng on 5x5 delivers exactly once", "[sc]") { broadcast("5x5", "tseng", 8, 3); }
TEST_CASE("broadcast: Tseng on 6x6 delivers exactly once", "[sc]") { broadcast("6x6", "tseng", 8, 0, 7); }
TEST_CASE("broadcast: Wang-Tseng on 5x5x5 delivers exactly once", "[sc]") { broadcast("5x5x5", "wang-tseng", 8, 2); }
TEST_CASE("broadcast: Wang-Tseng on 4x4x4x4 delivers exactly once", "[sc]") { broadcast("4x4x4x4", "wang-tseng", 4, 0, 9); }
TEST_CASE("broadcast: recursive doubling on 4x4x4 delivers exactly once", "[sc]") { broadcast("4x4x4", "rd", 8, 5); }
TEST_CASE("broadcast: sequential on 4x4 delivers exactly once", "[sc]") { broadcast("4x4", "sequential", 8, 1, 3); }
