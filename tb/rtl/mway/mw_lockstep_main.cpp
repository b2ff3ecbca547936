// wc_mway_lockstep: one lockstep run of an m-way RTL build against the SystemC fabric
// (tb/rtl/mway/mw_lockstep.h). Exit 0 when they agree, 1 on a mismatch, 2 on a bad option.
#include <iostream>

#include <CLI/CLI.hpp>

#include "tb/rtl/mway/mw_lockstep.h"

int sc_main(int argc, char* argv[]) {
  CLI::App app{"lockstep run of an m-way RTL build (rtl/mway/configs.txt) against the SystemC fabric"};
  std::string config;
  bool list = false;
  wormcast::MwLockstepOptions opt;
  app.add_option("--config", config, "configuration name (--list shows them)");
  app.add_flag("--list", list, "list the Verilated configurations");
  app.add_option("--cycles", opt.cycles, "cycles to compare");
  app.add_option("--seed", opt.seed, "random seed");
  app.add_option("--rate", opt.rate, "messages per node per cycle");
  app.add_option("--broadcast-fraction", opt.broadcast_fraction, "share of region broadcasts");
  app.add_option("--queue-limit", opt.queue_limit, "longest source queue a node generates into");
  CLI11_PARSE(app, argc, argv);
  try {
    if (list) {
      for (const auto& m : wormcast::mway_rtl_models())
        std::cout << m.name << (m.test_hook.empty() ? "" : " (" + m.test_hook + ")") << "\n";
      return 0;
    }
    const wormcast::MwLockstepResult r = wormcast::run_mway_lockstep(wormcast::find_mway_rtl_model(config), opt);
    std::cout << r << std::endl;
    return r.ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "wc_mway_lockstep: " << e.what() << std::endl;
    return 2;
  }
}
