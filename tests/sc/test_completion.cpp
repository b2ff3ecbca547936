// End-of-run accounting: a packet left in a NIC's source queue while the network sits idle is a
// scoreboard error (exit 1) naming the node, not a drain timeout; one still waiting for its own
// send latency t_s is not.
#include <catch2/catch.hpp>

#include <memory>

#include "systemc/nic/nic.h"
#include "tb/out/output_plan.h"
#include "tb/run/driver.h"
#include "tests/sc/harness.h"

using namespace wormcast;

namespace {

/// The family's adapter with its wake-up lost: a packet submitted while the adapter sleeps is
/// never injected (the fault a completion check has to catch).
class LostWake : public NicPort {
 public:
  explicit LostWake(NicPort& real) : m_real(real) {}
  int channels() const override { return m_real.channels(); }
  int channel_for(const Destination& d, bool tie) const override { return m_real.channel_for(d, tie); }
  std::shared_ptr<const std::vector<int>> group_of(const Destination& d) const override { return m_real.group_of(d); }
  void wake() override {}

 private:
  NicPort& m_real;
};

struct Top : sc_core::sc_module {
  sc_core::sc_clock clk;
  std::unique_ptr<Network> net;
  Top(sc_core::sc_module_name n, const Config& cfg) : sc_module(n), clk("clk", cycle_time()), net(make_network("net", cfg, {})) {
    net->clk(clk);
  }
};

}  // namespace

TEST_CASE("completion: a packet stranded in a NIC's source queue is a scoreboard error, not a timeout", "[sc]") {
  const Config cfg = test::config_for("4x4", "torus", {{"sim.watchdog", "200"}, {"sim.progress", "off"}});
  Top top("top", cfg);
  Network& net = *top.net;
  LostWake lost(*net.nic(3).port());
  net.nic(3).attach(&lost);
  sc_core::sc_start(cycle_time() * 20.0);  // the adapters are asleep now
  net.nic(3).submit(9, 4, false, 0, 20);
  REQUIRE(net.outstanding() == 1);

  OutputPlan plan;
  RecordOptions opt;
  opt.plan = &plan;
  RunPhases ph;
  ph.limit = 3000;
  ph.on_limit = RunStatus::DrainTimeout;
  ph.finished = [&](uint64_t) { return net.outstanding() == 0; };
  const RunResult r = drive(net, cfg.sim, ph, opt);
  REQUIRE(r.status == RunStatus::ScoreboardError);
  REQUIRE(exit_code(r.status) == 1);
  REQUIRE(net.scoreboard().error_count() == 1);
  REQUIRE(net.scoreboard().errors().at(0).find("node 3: 1 packets stranded in the NIC") != std::string::npos);
}

TEST_CASE("completion: a source waiting on its own send latency t_s is not stranded", "[sc]") {
  // The message's packets become ready only at cycle 20 + t_s, after the run's limit: the network
  // is idle and the source queue full, yet nothing is lost; the run ends with the limit's status.
  const Config cfg = test::config_for("4x4", "torus", {{"sim.watchdog", "200"}, {"sim.progress", "off"}, {"nic.ts", "100000"}});
  Top top("top", cfg);
  Network& net = *top.net;
  sc_core::sc_start(cycle_time() * 20.0);
  net.nic(3).submit(9, 4, false, 0, 20);
  REQUIRE(net.nic(3).next_ready() == 100020);

  OutputPlan plan;
  RecordOptions opt;
  opt.plan = &plan;
  RunPhases ph;
  ph.limit = 3000;
  ph.on_limit = RunStatus::DrainTimeout;
  ph.finished = [&](uint64_t) { return net.outstanding() == 0; };
  const RunResult r = drive(net, cfg.sim, ph, opt);
  CHECK(r.status == RunStatus::DrainTimeout);
  CHECK(net.scoreboard().error_count() == 0);
  CHECK(net.outstanding() == 1);
}
