// Traffic from C++ on a platform clock of 2.5 ns: wormcast::run_traffic builds the network of a
// Config, runs warm-up, measurement and drain as `wormcast traffic` does, and returns its result
// (the JSON `wormcast traffic --json` writes); this program prints latency and throughput.
// With router.model=rtl it runs the Verilated Verilog routers.
// Usage: traffic [key=value ...] [--json FILE]   (configuration keys as for wormcast --set; --json -: the
// result on standard output, these lines on standard error)
#include <cstdio>
#include <string>

#include <systemc>

#include "systemc/common/config.h"
#include "systemc/common/version.h"
#include "tb/rtl/rtl_network.h"
#include "tb/run/traffic.h"

int sc_main(int argc, char* argv[]) {
  // router.model=rtl / mway.model=rtl: the Verilated routers, built on first use from the
  // installation's Verilog sources (CMakeLists.txt: wormcast_enable_rtl).
  wormcast::install_rtl_routers();
  sc_core::sc_clock clk("clk", sc_core::sc_time(2.5, sc_core::SC_NS));
  wormcast::Overrides sets = {{"net.radix", "4x4"}, {"traffic.rate", "0.1"}, {"sim.warmup", "1000"},
                              {"sim.measure", "4000"}, {"sim.seed", "1"}};
  wormcast::RunOptions opt;
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string arg = argv[i];
      if (arg == "--json") {
        if (i + 1 == argc) throw wormcast::ConfigError("--json needs a FILE; allowed: --json FILE");
        opt.json_path = argv[++i];
      } else {
        sets.push_back(wormcast::parse_override(arg));
      }
    }
    const wormcast::Config cfg = wormcast::load_config("", sets);
    const wormcast::RunOutcome out = wormcast::run_traffic(cfg, clk, opt);
    const nlohmann::json& r = out.result;
    const double ns = clk.period().to_seconds() * 1e9;
    const double mean = r["latency"].value("mean", 0.0), accepted = r["throughput"]["accepted"].get<double>();
    const nlohmann::json& net = r["config"]["net"];
    // With --json - the result is on standard output: these lines go to standard error then.
    FILE* text = opt.json_path == "-" ? stderr : stdout;
    std::fprintf(text, "wormcast %s: %s %s at %g ns per cycle: %s after %llu cycles (%g ns simulated)\n", wormcast::version(),
                net["radix"].get<std::string>().c_str(), net.value("topology", cfg.net.family).c_str(), ns,
                r["status"].get<std::string>().c_str(), (unsigned long long)r["cycles"].get<uint64_t>(),
                sc_core::sc_time_stamp().to_seconds() * 1e9);
    std::fprintf(text, "latency mean %.4f p99 %d max %d cycles (mean %.2f ns); accepted %.4f flits/node/cycle "
                "(%.2f flits/node/us), offered %.4f\n",
                mean, r["latency"].value("p99", 0), r["latency"].value("max", 0), mean * ns, accepted,
                accepted * 1e3 / ns, r["throughput"]["offered"].get<double>());
    return out.exit_code;
  } catch (const wormcast::ConfigError& e) {
    std::fprintf(stderr, "traffic: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {  // SystemC's own errors (a clock the network cannot take)
    std::fprintf(stderr, "traffic: %s\n", e.what());
    return 1;
  }
}
