// `wormcast run`, `wormcast traffic` and `wormcast config`: the traffic experiment of a
// configuration (any router family) and the configuration reference.
#include <algorithm>
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "systemc/common/family.h"
#include "systemc/common/version.h"
#include "tb/cli/command_table.h"
#include "tb/cli/commands.h"
#include "tb/out/output_plan.h"
#include "tb/run/driver.h"
#include "tb/run/dry_run.h"
#include "tb/run/traffic.h"
#include "tb/run/traffic_gen.h"

namespace wormcast {

namespace {

int execute(const Config& cfg, const CommonOptions& o, const char* command, const std::string& config_file) {
  return run_traffic_command(cfg, o.json, o.rec, command, config_file);
}

struct TrafficArgs {
  CommonOptions common;
  std::string net, pattern, config_file, router_model;
  /// Kept as text: the configuration's strict parser reads them (no CLI conversion in between).
  std::string rate, vcs, buf, len;
  RunLength length;
};

}  // namespace

int run_traffic_command(const Config& cfg, const std::string& json, const RecordOptions& rec, const char* command,
                        const std::string& config_file) {
  RunOptions ro;
  static_cast<RecordOptions&>(ro) = rec;
  ro.json_path = json;
  ro.command = command;
  ro.want_result = false;  // only the summary is printed; a JSON file is built when asked for
  check_record_options(ro);
  OutputPlan plan;
  plan.add_input(config_file);
  plan.add_input(cfg.traffic.trace);  // the trace the sources read
  if (!json.empty()) plan.add("--json", json);
  plan_recordings(plan, ro);
  ro.plan = &plan;
  RunOutcome r = run_traffic(cfg, ro);
  // The summary is printed before the files are put in place: a summary that cannot be printed
  // or a file that cannot be renamed is exit 2 with no new file.
  plan.commit(r.summary + "\n");
  return r.exit_code;
}

void register_run_commands(CLI::App& app) {
  auto run_opt = std::make_shared<CommonOptions>();
  auto run_cfg = std::make_shared<std::string>();
  auto* run = app.add_subcommand("run", "run the experiment of a YAML configuration");
  run->add_option("config", *run_cfg, "configuration file (YAML)")->required();
  add_common(run, *run_opt);
  set_command_action(run, [run_opt, run_cfg] {
    Overrides ov;
    for (auto& s : run_opt->sets) ov.push_back(parse_override(s));
    const Config cfg = load_config(*run_cfg, ov);
    refuse_unused_with_trace(cfg, ov);
    return execute(cfg, *run_opt, "run", *run_cfg);
  });

  auto a = std::make_shared<TrafficArgs>();
  auto* traffic = app.add_subcommand("traffic", "synthetic traffic on a network (defaults: 8x8 torus, uniform, 0.1)");
  traffic->add_option("--config", a->config_file, "start from this YAML configuration");
  traffic->add_option("--net", a->net, "network, e.g. torus:8x8, mesh:4x4x4, torus,mesh:8x4, or FAMILY:SHAPE");
  traffic->add_option("--pattern", a->pattern, "destination pattern: " + find_config_key("traffic.pattern")->allowed)
      ->check(config_value("traffic.pattern"));
  traffic->add_option("--rate", a->rate, "offered load, flits/node/cycle (0..1)")->check(config_value("traffic.rate"));
  traffic->add_option("--router", a->router_model, "router model: sc, rtl (Verilated Verilog twin) or mixed")
      ->check(config_value("router.model"));
  traffic->add_option("--vcs", a->vcs, "VCs per dateline class (1..8)")->check(config_value("router.vcs_per_class"));
  traffic->add_option("--buf", a->buf, "buffer depth in flits (1..64)")->check(config_value("router.buffer_depth"));
  traffic->add_option("--len", a->len, "packet length in flits (traffic.packet_len; unused when traffic.sizes is set or traffic.mode is message, whose length is traffic.message_len)")->check(config_value("traffic.packet_len"));
  add_run_length_options(traffic, a->length);
  add_common(traffic, a->common);
  set_command_action(traffic, [a, traffic] {
    Overrides ov;
    if (!a->net.empty()) ov = net_spec_overrides("--net", a->net);
    if (!a->pattern.empty()) ov.emplace_back("traffic.pattern", a->pattern);
    if (traffic->count("--rate")) ov.emplace_back("traffic.rate", a->rate);
    if (!a->router_model.empty()) ov.emplace_back("router.model", a->router_model);
    if (traffic->count("--vcs")) ov.emplace_back("router.vcs_per_class", a->vcs);
    if (traffic->count("--buf")) ov.emplace_back("router.buffer_depth", a->buf);
    if (traffic->count("--len")) ov.emplace_back("traffic.packet_len", a->len);
    run_length_overrides(traffic, a->length, ov);
    check_set_conflicts(ov, a->common.sets);
    for (auto& s : a->common.sets) ov.push_back(parse_override(s));
    const Config cfg = load_config(a->config_file, ov);
    refuse_unused_with_trace(cfg, ov);
    return execute(cfg, a->common, "traffic", a->config_file);
  });

  struct CheckArgs {
    bool check = false;
    bool markdown = false;
    std::string file;
    std::vector<std::string> sets;
  };
  auto c = std::make_shared<CheckArgs>();
  auto* config = app.add_subcommand("config", "print every configuration key with its default and allowed values");
  config->add_flag("--check", c->check,
                   "validate a configuration instead, as a traffic run (run, traffic, mway) checks it before its "
                   "first cycle (exit 2 on a bad field), and print it as JSON");
  config->add_flag("--markdown", c->markdown,
                   "print the reference as Markdown tables: every key (default, allowed values, meaning, family), "
                   "the families and the traffic patterns (docs/reference.md's block, scripts/gen_reference)");
  config->add_option("--config", c->file, "with --check: the YAML configuration");
  config->add_option("--set", c->sets, "with --check: override a key (repeatable)");
  set_command_action(config, [c, config] {
    if (!c->check && (config->count("--set") || config->count("--config")))
      throw ConfigError(std::string(config->count("--set") ? "--set" : "--config") +
                        ": given without --check; allowed: only with --check (without it `wormcast config` prints the reference and reads nothing)");
    if (c->check && c->markdown)
      throw ConfigError("--markdown: given with --check; allowed: one of them (--markdown prints the reference)");
    if (!c->check) {
      dry_run_point();
      std::cout << (c->markdown ? config_reference_markdown() : config_reference());
      return 0;
    }
    Overrides ov;
    for (auto& s : c->sets) ov.push_back(parse_override(s));
    const Config cfg = load_config(c->file, ov);
    check_synthetic_keys(cfg);  // what a traffic run would refuse before its first cycle
    check_family_traffic(cfg);
    if (const Family* f = find_family(cfg.net.family); f && f->longest_quiet) check_quiet_windows(cfg.sim, f->longest_quiet(cfg));
    dry_run_point();
    std::cout << cfg.echo().dump(2) << std::endl;
    return 0;
  });
}

namespace {
std::string command_names(const CLI::App& app) {
  std::string s;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    s += (s.empty() ? "" : ", ") + sub->get_name();
  return s;
}
}  // namespace

int run_cli(int argc, const char* const* argv) {
  reserve_standard_streams();
  install_interrupt_handlers();
  const int rc = run_commands(argc, argv);
  // What a command printed on standard output after its files were in place (or with no files)
  // must have reached it too: a lost result is exit 2. An error already reported keeps its line.
  const std::string why = check_stdout();
  if (why.empty() || rc == 2) return rc;
  std::cerr << "wormcast: standard output: cannot write the result: " << why
            << "; allowed: a writable standard output" << std::endl;
  return rc == 0 ? 2 : rc;
}

int run_commands(int argc, const char* const* argv) { return run_commands_registering(argc, argv, false); }

int run_commands_registering(int argc, const char* const* argv, bool named_only) {
  CLI::App app{"wormcast: cycle-accurate wormhole router models (SystemC + Verilog) and node software"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("wormcast ") + version() + " (" + commit() + ")");
  app.option_defaults()->always_capture_default();  // help shows each option's default
  struct Registration {
    std::vector<std::string> names;
    void (*add)(CLI::App&);
  };
  static const Registration kCommands[] = {
      {{"run", "traffic", "config"}, register_run_commands}, {{"schedule"}, register_schedule_command},
      {{"broadcast"}, register_broadcast_command},          {{"mway"}, register_mway_command},
      {{"gossip"}, register_gossip_command},                {{"ibt"}, register_ibt_command},
      {{"wave"}, register_wave_command},                    {{"rtl"}, register_rtl_command}};
  const Registration* named = nullptr;
  if (named_only && argc >= 2)
    for (const Registration& r : kCommands)
      if (std::find(r.names.begin(), r.names.end(), argv[1]) != r.names.end()) named = &r;
  for (const Registration& r : kCommands)
    if (!named || named == &r) r.add(app);
  refuse_empty_values(app);
  if (argc < 2) {
    std::cerr << "wormcast: a command is required; allowed: " << command_names(app)
              << " (wormcast --help lists them, wormcast COMMAND --help their options)" << std::endl;
    return 2;
  }
  // An unknown command word, or a missing sub-command, is named with the commands allowed where it
  // stands (the library would only say that a command is required).
  {
    const CLI::App* at = &app;
    std::string path = "wormcast";
    int i = 1;
    for (; i < argc; ++i) {
      const std::string word = argv[i];
      if (word.empty() || word[0] == '-') break;
      const auto subs = at->get_subcommands([](const CLI::App*) { return true; });
      if (subs.empty()) break;
      const CLI::App* next = nullptr;
      for (const CLI::App* sub : subs)
        if (sub->check_name(word)) next = sub;
      if (!next) {
        if (at->get_require_subcommand_min() == 0) break;  // a positional argument of this command
        std::cerr << path << ": "
                  << one_line_message(fmt::format("unknown command '{}'; allowed: {} ({} --help lists them)",
                                                  shown_value(word), command_names(*at), path))
                  << std::endl;
        return 2;
      }
      at = next;
      path += " " + word;
    }
    const std::string rest = i < argc ? argv[i] : "";
    if (at != &app && at->get_require_subcommand_min() > 0 && rest != "-h" && rest != "--help") {
      std::cerr << path << ": a sub-command is required; allowed: " << command_names(*at) << " (" << path
                << " --help lists them)" << std::endl;
      return 2;
    }
  }
  // The help's types and defaults of the program and of the commands named (another command's
  // help is not shown by this run; building all of them costs a few milliseconds at every start).
  {
    CLI::App* at = &app;
    show_types_and_defaults(*at, false);
    for (int i = 1; i < argc; ++i) {
      const std::string word = argv[i];
      if (word.empty() || word[0] == '-') break;
      CLI::App* next = nullptr;
      for (CLI::App* sub : at->get_subcommands([](CLI::App*) { return true; }))
        if (sub->check_name(word)) next = sub;
      if (!next) break;
      at = next;
      show_types_and_defaults(*at, false);
    }
  }
  // --json -: the result on standard output, everything printed for people on standard error.
  struct Redirect {
    std::streambuf* saved = nullptr;
    std::ostream real{nullptr};
    ~Redirect() {
      if (saved) {
        std::cout.rdbuf(saved);
        std::cout.clear();  // a failure while it pointed at standard error is not standard output's
      }
      set_json_stdout(nullptr);
    }
  } redirect;
  if (json_to_stdout(argc, argv)) {
    redirect.saved = std::cout.rdbuf(std::cerr.rdbuf());
    redirect.real.rdbuf(redirect.saved);
    set_json_stdout(&redirect.real);
  }
  // --opt= with nothing after '=': the library would take the next word as its value.
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    if (word == "--") break;
    if (word.size() > 3 && word.compare(0, 2, "--") == 0 && word.find('=') == word.size() - 1) {
      const std::string name = shown_value(word.substr(0, word.size() - 1));
      std::cerr << "wormcast: "
                << one_line_message(fmt::format("{0}= has an empty value; allowed: {0}=VALUE or {0} VALUE (wormcast "
                                                "COMMAND --help)", name))
                << std::endl;
      return 2;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    if (redirect.saved) std::cout.rdbuf(redirect.saved);
    return app.exit(e);
  } catch (const CLI::RuntimeError& e) {  // a sub-command's callback reporting its exit code
    return e.get_exit_code();
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);
    std::cerr << "wormcast: " << parse_error_line(e.what(), "wormcast COMMAND") << std::endl;
    return 2;
  }
  return 0;
}

}  // namespace wormcast
