// All-port vs one-port: a node sends L flits to each of its 2n neighbours at once, through the
// node CPU, the HAL and the NIC's TLM socket. Exact finishing times (docs/router.md section 7):
// all-port, send i (from 0) is injected at (i+1)*t_s on its own channel; one-port, the single
// injection channel serializes them.
#include <catch2/catch.hpp>

#include <memory>

#include "systemc/nic/node_cpu.h"
#include "systemc/torus/network.h"
#include "tests/sc/harness.h"

using namespace wormcast;
using namespace wormcast::test;

namespace {

class Fanout : public sw::NodeProgram {
 public:
  explicit Fanout(uint32_t len, std::vector<uint64_t>& seen) : m_len(len), m_seen(seen) {}
  void on_start(sw::NodeApi& api) override {
    if (api.self() != 0) return;
    for (int p = 0; p < api.topology().num_net_ports(); ++p) api.send(api.topology().neighbor(0, p), m_len, {});
  }
  void on_receive(sw::NodeApi& api, const sw::Delivery& d) override {
    REQUIRE(d.src == 0);
    REQUIRE(d.visible == api.now());
    m_seen.push_back(d.visible);
  }

 private:
  uint32_t m_len;
  std::vector<uint64_t>& m_seen;
};

uint64_t fanout_finish(const std::string& ports, uint32_t len, int ts, int tr) {
  const Config cfg = config_for("4x4", "torus", {{"router.local_ports", ports}, {"nic.ts", std::to_string(ts)},
                                                 {"nic.tr", std::to_string(tr)}});
  sc_core::sc_clock clk("clk", cycle_time());
  TorusNetwork net("net", cfg);
  net.clk(clk);
  std::vector<uint64_t> seen;
  Fanout program(len, seen);
  std::vector<std::unique_ptr<NodeCpu>> cpus;
  for (int i = 0; i < net.num_nodes(); ++i)
    cpus.push_back(std::make_unique<NodeCpu>(("cpu" + std::to_string(i)).c_str(), net.topology(), i, net.nic(i), &program));
  sc_core::sc_start(cycle_time() * 2000.0);
  REQUIRE(seen.size() == 4);
  REQUIRE(net.scoreboard().error_count() == 0);
  return *std::max_element(seen.begin(), seen.end());
}

}  // namespace

TEST_CASE("port model: all-port fan-out to 2n neighbours finishes at 2n*t_s + L + 2 + t_r (t_s = 0)", "[sc]") {
  REQUIRE(fanout_finish("all", 32, 0, 0) == 32 + 2);
}

TEST_CASE("port model: one-port fan-out to 2n neighbours finishes at 2n*L + 2 + t_r (t_s = 0)", "[sc]") {
  REQUIRE(fanout_finish("one", 32, 0, 0) == 4 * 32 + 2);
}

TEST_CASE("port model: all-port with t_s = 10 and t_r = 5 finishes at 4*t_s + L + 2 + t_r", "[sc]") {
  REQUIRE(fanout_finish("all", 20, 10, 5) == 4 * 10 + 20 + 2 + 5);
}

TEST_CASE("port model: one-port with t_s = 10 and t_r = 5 injects at 10 30 50 70", "[sc]") {
  // Injection i starts at max((i+1)*t_s, previous start + L): 10, 30, 50, 70.
  REQUIRE(fanout_finish("one", 20, 10, 5) == 70 + 20 + 2 + 5);
}
