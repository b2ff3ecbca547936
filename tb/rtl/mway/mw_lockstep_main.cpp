// wc_mway_lockstep: one lockstep run of the m-way RTL units of one parameter set against the
// SystemC fabric (tb/rtl/mway/mw_lockstep.h). Exit 0 when they agree, 1 on a mismatch, 2 on a bad option.
#include <cstdlib>
#include <iostream>
#include <string>

#include <CLI/CLI.hpp>
#include <systemc>

#include "systemc/mway/network.h"
#include "tb/cli/commands.h"
#include "tb/rtl/mway/mw_lockstep.h"
#include "tb/rtl/mway/mw_models.h"
#include "tb/rtl/param_set_options.h"

int sc_main(int argc, char* argv[]) {
  CLI::App app{"lockstep run of the m-way RTL of one parameter set (the keys of wormcast mway / traffic with "
               "--net mway:...; its model is built on demand) against the SystemC fabric. The stimulus is this "
               "program's own (--rate, --broadcast-fraction, --queue-limit): a configuration's traffic.* keys are "
               "not used"};
  wormcast::ParamSetOptions set;
  set.add_to(app, "rtl/mway/configs.txt, --list shows them");
  bool list = false;
  wormcast::MwLockstepOptions opt;
  app.add_flag("--list", list, "list the named test sets");
  app.add_option("--cycles", opt.cycles, "cycles to compare (1..1000000000)")
      ->check(wormcast::decimal_int(1, 1000000000))
      ->capture_default_str();
  app.add_option("--seed", opt.seed, "random seed")->capture_default_str();
  app.add_option("--rate", opt.rate, "messages (not flits, as traffic.rate) per node per cycle (0.000001..1)")
      ->check(wormcast::decimal_real(0.000001, 1))
      ->capture_default_str();
  app.add_option("--broadcast-fraction", opt.broadcast_fraction, "share of region broadcasts (0..1)")
      ->check(wormcast::decimal_real(0, 1))
      ->capture_default_str();
  app.add_option("--queue-limit", opt.queue_limit, "longest source queue a node generates into (1..1000000)")
      ->check(wormcast::decimal_int(1, 1000000))
      ->capture_default_str();
  // The kernel's "simulation stopped by user" and similar notes say nothing the result does not.
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  setenv("WORMCAST_RTL_ASSERT", "1", 0);  // a verification run: the RTL's named assertions compiled in
  try {
    try {
      app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
      if (e.get_exit_code() == 0) return app.exit(e);  // --help
      std::cerr << "wc_mway_lockstep: " << wormcast::parse_error_line(e.what(), "wc_mway_lockstep") << std::endl;
      return 2;
    }
    if (list) {
      for (const auto& m : wormcast::mway_rtl_test_models())
        std::cout << m.name << (m.test_hook.empty() ? "" : " (" + m.test_hook + ")") << "\n";
      return 0;
    }
    auto mway_config = [&] {
      const wormcast::Config cfg = set.config(app);
      if (cfg.net.family != "mway")
        throw wormcast::ConfigError("config: net.family = " + cfg.net.family +
                                    " has no m-way RTL; allowed: mway (wc_lockstep runs the torus and ibt routers)");
      return cfg;
    };
    const wormcast::MwRtlModelInfo model =
        set.test_set.empty() ? wormcast::mway_rtl_model_of(wormcast::mway_params(mway_config()))
                             : wormcast::find_mway_rtl_model(set.test_set);
    const wormcast::MwLockstepResult r = wormcast::run_mway_lockstep(model, opt);
    std::cout << r << std::endl;
    return r.ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "wc_mway_lockstep: " << wormcast::one_line_message(e.what()) << std::endl;
    return 2;
  }
}
