// sc_main of the `wormcast` command-line program: subcommands run, traffic, config (and the
// schedule / broadcast commands registered from their own files).
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include <CLI/CLI.hpp>
#include <systemc>

#include "sw/topology/path.h"
#include "tb/commands.h"
#include "tb/sim.h"
#ifdef WORMCAST_HAVE_RTL
#include "tb/rtl/rtl_network.h"
#endif

using namespace wormcast;

namespace {

struct CommonOptions {
  std::vector<std::string> sets;
  std::string json;
  RecordOptions rec;
};

void add_common(CLI::App* cmd, CommonOptions& o) {
  cmd->add_option("--set", o.sets, "override a configuration key: --set router.buffer_depth=8 (repeatable)");
  cmd->add_option("--json", o.json, "write the result (effective configuration echoed) as JSON");
  add_record_options(cmd, o.rec);
}

int execute(const Config& cfg, const CommonOptions& o, const char* command) {
  RunOptions ro;
  static_cast<RecordOptions&>(ro) = o.rec;
  ro.json_path = o.json;
  ro.command = command;
  RunOutcome r = run_traffic(cfg, ro);
  std::cout << r.summary << std::endl;
  return r.exit_code;
}

}  // namespace

int sc_main(int argc, char* argv[]) {
#ifdef WORMCAST_HAVE_RTL
  install_rtl_routers();
#endif
  CLI::App app{"wormcast: cycle-accurate wormhole torus router model and node software"};
  app.require_subcommand(1);

  CommonOptions run_opt;
  std::string run_cfg;
  auto* run = app.add_subcommand("run", "run the experiment of a YAML configuration");
  run->add_option("config", run_cfg, "configuration file (YAML)")->required();
  add_common(run, run_opt);

  CommonOptions tr_opt;
  std::string net, pattern, config_file, router_model;
  double rate = -1;
  int vcs = 0, buf = 0, len = 0;
  long long seed = -1, warmup = -1, measure = -1;
  auto* traffic = app.add_subcommand("traffic", "synthetic traffic on a network (defaults: 8x8 torus, uniform, 0.1)");
  traffic->add_option("--config", config_file, "start from this YAML configuration");
  traffic->add_option("--net", net, "network, e.g. torus:8x8, mesh:4x4x4, torus,mesh:8x4");
  traffic->add_option("--pattern", pattern, "uniform, transpose, bitcomp, tornado, neighbor, hotspot");
  traffic->add_option("--rate", rate, "offered load, flits/node/cycle (0..1)");
  traffic->add_option("--router", router_model, "router model: sc, rtl (Verilated Verilog twin) or mixed");
  traffic->add_option("--vcs", vcs, "VCs per dateline class (1..8)");
  traffic->add_option("--buf", buf, "buffer depth in flits (1..64)");
  traffic->add_option("--len", len, "packet length in flits");
  traffic->add_option("--seed", seed, "random seed");
  traffic->add_option("--warmup", warmup, "warm-up cycles");
  traffic->add_option("--measure", measure, "measured cycles");
  add_common(traffic, tr_opt);

  auto* config = app.add_subcommand("config", "print every configuration key with its default and allowed values");
  bool check = false;
  std::string check_file;
  std::vector<std::string> check_sets;
  config->add_flag("--check", check, "validate a configuration instead (exit 2 on a bad field) and print it as JSON");
  config->add_option("--config", check_file, "with --check: the YAML configuration");
  config->add_option("--set", check_sets, "with --check: override a key (repeatable)");
  register_schedule_command(app);
  register_broadcast_command(app);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::RuntimeError& e) {  // a sub-command's callback reporting its exit code
    return e.get_exit_code();
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);
    std::cerr << "wormcast: " << e.what() << std::endl;
    return 2;
  }

  try {
    if (config->parsed()) {
      if (!check) {
        std::cout << config_reference();
        return 0;
      }
      Overrides ov;
      for (auto& s : check_sets) ov.push_back(parse_override(s));
      std::cout << load_config(check_file, ov).echo().dump(2) << std::endl;
      return 0;
    }
    if (run->parsed()) {
      Overrides ov;
      for (auto& s : run_opt.sets) ov.push_back(parse_override(s));
      return execute(load_config(run_cfg, ov), run_opt, "run");
    }
    if (traffic->parsed()) {
      Overrides ov;
      if (!net.empty()) ov = net_spec_overrides("--net", net);
      if (!pattern.empty()) ov.emplace_back("traffic.pattern", pattern);
      if (rate >= 0 || traffic->count("--rate")) ov.emplace_back("traffic.rate", CLI::detail::to_string(rate));
      if (!router_model.empty()) ov.emplace_back("router.model", router_model);
      if (traffic->count("--vcs")) ov.emplace_back("router.vcs_per_class", std::to_string(vcs));
      if (traffic->count("--buf")) ov.emplace_back("router.buffer_depth", std::to_string(buf));
      if (traffic->count("--len")) ov.emplace_back("traffic.packet_len", std::to_string(len));
      if (traffic->count("--seed")) ov.emplace_back("sim.seed", std::to_string(seed));
      if (traffic->count("--warmup")) ov.emplace_back("sim.warmup", std::to_string(warmup));
      if (traffic->count("--measure")) ov.emplace_back("sim.measure", std::to_string(measure));
      for (auto& s : tr_opt.sets) ov.push_back(parse_override(s));
      return execute(load_config(config_file, ov), tr_opt, "traffic");
    }
    return 0;
  } catch (const ConfigError& e) {
    std::cerr << "wormcast: " << e.what() << std::endl;
    return 2;
  }
}

// The program's own entry point: silence the library banner before the kernel starts, then hand
// over to SystemC, which calls sc_main.
int main(int argc, char* argv[]) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
