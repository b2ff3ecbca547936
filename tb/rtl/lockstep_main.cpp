// wc_lockstep: runs the SystemC router and the Verilated router of one parameter set in lockstep.
#include <cstdlib>
#include <iostream>
#include <map>
#include <string>

#include <CLI/CLI.hpp>
#include <systemc>

#include "systemc/torus/router_models.h"
#include "tb/cli/commands.h"
#include "tb/out/output_plan.h"
#include "tb/rtl/lockstep.h"
#include "tb/rtl/param_set_options.h"
#include "tb/rtl/rtl_network.h"

int sc_main(int argc, char* argv[]) {
  wormcast::install_rtl_routers();  // the rules of router.model = rtl, which the parameter set is checked by
  CLI::App app{"Lockstep co-simulation of the SystemC and the Verilated torus (and iBT) router of one parameter "
               "set (the keys of wormcast traffic; its model is built on demand)"};
  wormcast::ParamSetOptions set;
  set.add_to(app, "rtl/configs.txt, --list shows them");
  bool list = false;
  wormcast::LockstepOptions opt;
  app.add_flag("--list", list, "list the named test sets");
  app.add_option("--cycles", opt.cycles, "cycles of stimulus (1..1000000000)")
      ->capture_default_str()
      ->check(wormcast::decimal_int(1, 1000000000));
  app.add_option("--seed", opt.seed, "stimulus seed")->capture_default_str();
  app.add_option("--node", opt.node,
                 "router position (node id, 0..nodes-1); default: coordinate k/2+1 in every dimension")
      ->check(wormcast::decimal_int(0, (1 << 20) - 1));
  app.add_option("--max-packet", opt.max_packet, "longest packet, flits (1..4096)")
      ->capture_default_str()
      ->check(wormcast::decimal_int(1, 4096));
  app.add_option("--load", opt.load, "offered load: phases (random rates, the default), low or saturating")
      ->transform(CLI::CheckedTransformer(
          std::map<std::string, wormcast::StimulusLoad>{{"phases", wormcast::StimulusLoad::Phases},
                                                        {"low", wormcast::StimulusLoad::Low},
                                                        {"saturating", wormcast::StimulusLoad::Saturating}}));
  app.add_option("--vcd", opt.mismatch_vcd, "VCD of both routers around the first mismatch");
  app.add_option("--window", opt.window, "cycles before and after the mismatch in --vcd (1..1000000)")
      ->capture_default_str()
      ->check(wormcast::decimal_int(1, 1000000));
  app.add_option("--full-vcd", opt.full_vcd, "VCD of the whole run (ports of both routers)");
  app.add_option("--rtl-vcd", opt.rtl_vcd, "VCD of every signal inside the Verilated router");
  // The kernel's "simulation stopped by user" and similar notes say nothing the result does not.
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  setenv("WORMCAST_RTL_ASSERT", "1", 0);  // a verification run: the RTL's named assertions compiled in
  try {
    app.parse(argc, argv);
    if (list) {
      for (const auto& m : wormcast::rtl_test_models()) std::cout << m.name << "\n";
      return 0;
    }
    // The waveforms are planned before the run (each path checked, written to a temporary next to
    // it, put in place at the end; an error or interrupt leaves no file).
    wormcast::OutputPlan plan;
    const std::string mismatch_vcd = opt.mismatch_vcd;
    if (!opt.mismatch_vcd.empty()) opt.mismatch_vcd = plan.add("--vcd", mismatch_vcd, false, ".vcd");
    if (!opt.full_vcd.empty()) opt.full_vcd = plan.add("--full-vcd", opt.full_vcd, false, ".vcd");
    if (!opt.rtl_vcd.empty()) opt.rtl_vcd = plan.add("--rtl-vcd", opt.rtl_vcd, false, ".vcd");
    // The SystemC router is built from the Verilog parameters alone: a key the RTL does not
    // implement is refused, as a run with router.model = rtl refuses it, not dropped.
    auto rtl_config = [&] {
      wormcast::Config cfg;
      wormcast::check_set_conflicts(set.given(app), set.sets);  // as wormcast traffic
      try {
        cfg = set.config(app);
      } catch (const wormcast::ConfigError&) {
        // A configuration the SystemC router refuses may be one the Verilog router refuses first
        // (a SystemC-only pipeline, not the delay it would need): its refusal, if any, is named.
        set.config(app, {{"router.model", "rtl"}});
        throw;
      }
      wormcast::check_as_rtl(cfg);
      return cfg;
    };
    const wormcast::RtlModelInfo model =
        set.test_set.empty() ? wormcast::rtl_model_of(rtl_config()) : wormcast::find_rtl_model(set.test_set);
    wormcast::LockstepResult r = wormcast::run_lockstep(model, opt);
    if (!mismatch_vcd.empty()) {
      if (r.vcd_written.empty())
        plan.drop(mismatch_vcd);  // no mismatch: no window to draw
      else
        r.vcd_written = mismatch_vcd;
    }
    plan.commit();
    std::cout << model.name << ": " << r << std::endl;
    return r.ok ? 0 : 1;
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help
    std::cerr << "wc_lockstep: " << wormcast::parse_error_line(e.what(), "wc_lockstep") << std::endl;
    return 2;
  } catch (const wormcast::ConfigError& e) {
    std::cerr << "wc_lockstep: " << wormcast::one_line_message(e.what()) << std::endl;
    return 2;
  }
}
