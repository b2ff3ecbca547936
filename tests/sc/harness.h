// Test-bench helpers for SystemC tests: a network under a clock, driven one message at a time.
#pragma once

#include <cstdio>
#include <fstream>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "systemc/common/clock.h"
#include "systemc/common/config.h"
#include "systemc/net/network.h"
#include "tb/cli/commands.h"

namespace wormcast::test {

/// A clocked network whose NICs keep deliveries for inspection; a driver thread runs `body`.
struct Bench : sc_core::sc_module, HopObserver {
  sc_core::sc_clock clk;
  std::unique_ptr<Network> owned;  ///< the network of cfg.net.family
  Network& net;
  std::function<void(Bench&)> body;
  std::vector<HopEvent> hops;
  bool record_hops = false;

  Bench(sc_core::sc_module_name n, const Config& cfg)
      : sc_module(n), clk("clk", cycle_time()), owned(make_network("net", cfg, {})), net(*owned) {
    net.clk(clk);
    for (int i = 0; i < net.num_nodes(); ++i) net.nic(i).enable_rx_queue(true);
    net.set_hop_observer(this);  // refused (no hops recorded) by networks that cannot report hops
    SC_HAS_PROCESS(Bench);
    SC_THREAD(run);
  }
  void on_hop(const HopEvent& e) override {
    if (record_hops) hops.push_back(e);
  }
  void run() {
    body(*this);
    sc_core::sc_stop();
  }
  /// Advance to the start of cycle c (whole-cycle time, before the routers act).
  void wait_until(uint64_t c) {
    const uint64_t now = current_cycle();
    if (c > now) wait(cycle_time() * double(c - now));
  }
  /// Advance by n cycles; n = 0.5 moves between a rising edge and the next, where router state
  /// is stable.
  void wait_cycles(double n) { wait(cycle_time() * n); }
  /// Wait until node `dst` has a visible delivery (at most `limit` cycles); returns it.
  bool wait_delivery(int dst, uint64_t limit, sw::Delivery& out) {
    for (uint64_t i = 0; i < limit; ++i) {
      if (net.nic(dst).has_rx(current_cycle())) {
        out = net.nic(dst).pop_rx();
        return true;
      }
      wait(cycle_time());
    }
    return false;
  }
};

/// A platform of its own around a network of `cfg`: a 1 ns clock and TLM-2.0 initiators bound to
/// the NICs of node 0 (tx) and node 5 (rx), nothing else (the receive queues as the binding leaves
/// them); `body` runs as its thread, then the simulation stops.
struct TlmPlatform : sc_core::sc_module {
  sc_core::sc_clock clk{"clk", sc_core::sc_time(1, sc_core::SC_NS)};
  std::unique_ptr<Network> net;
  tlm_utils::simple_initiator_socket<TlmPlatform> tx{"tx"}, rx{"rx"};
  std::function<void(TlmPlatform&)> body;

  TlmPlatform(sc_core::sc_module_name n, const Config& cfg, std::function<void(TlmPlatform&)> b)
      : sc_module(n), net(make_network("net", cfg, {})), body(std::move(b)) {
    net->clk(clk);
    tx.bind(net->nic(0).socket());
    rx.bind(net->nic(5).socket());
    SC_HAS_PROCESS(TlmPlatform);
    SC_THREAD(run);
  }
  void run() {
    body(*this);
    sc_core::sc_stop();
  }
};

/// A TLM-2.0 generic payload for `len` bytes at `addr` (a register access of a NIC).
inline void tlm_payload(tlm::tlm_generic_payload& t, tlm::tlm_command cmd, uint64_t addr, unsigned char* data,
                        unsigned len) {
  t.set_command(cmd);
  t.set_address(addr);
  t.set_data_ptr(data);
  t.set_data_length(len);
  t.set_streaming_width(len);
}

/// A blocking register access through an initiator socket from a SC_THREAD: waits for the
/// annotated delay; returns whether the target answered OK.
template <class Socket>
bool tlm_access(Socket& s, tlm::tlm_command cmd, uint64_t addr, unsigned char* data, unsigned len) {
  tlm::tlm_generic_payload t;
  tlm_payload(t, cmd, addr, data, len);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  s->b_transport(t, delay);
  sc_core::wait(delay);
  return t.is_response_ok();
}

/// Runs the `wormcast` command line in this process: its exit code.
inline int cli(const std::vector<std::string>& args) {
  std::vector<const char*> argv{"wormcast"};
  for (auto& a : args) argv.push_back(a.c_str());
  return run_cli(int(argv.size()), argv.data());
}

/// A JSON result file, removed after reading (empty JSON when it cannot be read).
inline nlohmann::json take_json(const std::string& path) {
  std::ifstream in(path);
  if (!in.good()) return {};
  auto j = nlohmann::json::parse(in);
  std::remove(path.c_str());
  return j;
}

/// A `wormcast traffic` run of `measure` cycles whose injection then stops and whose network
/// drains: every packet injected (measured or not) is delivered, the scoreboard is clean, nothing
/// is left anywhere; ok or unstable (beyond saturation), never a deadlock or a lost flit. `sets`:
/// more key=value overrides. Returns the run's JSON result.
inline nlohmann::json drained_run(const std::string& net, const std::string& pattern, const std::string& rate,
                                  const std::string& measure, const std::vector<std::string>& sets) {
  const std::string json = "drained_" + std::to_string(::getpid()) + ".json";
  std::vector<std::string> args{"traffic", "--net", net, "--rate", rate, "--warmup", "0", "--measure", measure,
                                "--set", "traffic.pattern=" + pattern, "--set", "sim.drain=200000", "--set",
                                "sim.progress=off", "--json", json};
  for (auto& s : sets) args.insert(args.end(), {"--set", s});
  const int rc = cli(args);
  auto j = take_json(json);
  INFO("exit " << rc << ", status " << j["status"]);
  REQUIRE((rc == 0 || rc == 5));
  REQUIRE(j["scoreboard"]["errors"] == 0);
  REQUIRE(j["packets"]["in_flight_at_end"] == 0);
  REQUIRE(j["packets"]["injected"] == j["packets"]["delivered"]);
  REQUIRE(j["throughput"]["measured_undelivered"] == 0);
  return j;
}

inline Config config_for(const std::string& radix, const std::string& topology, Overrides extra = {}) {
  Overrides ov{{"net.radix", radix}, {"net.topology", topology}};
  for (auto& e : extra) ov.push_back(e);
  return load_config("", ov);
}

}  // namespace wormcast::test
