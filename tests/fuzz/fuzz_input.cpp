// Fuzz target of the input layer: the first byte picks a YAML configuration (load_config_text) or
// a command line (one argument per line) parsed by the real sub-commands with their actions
// skipped (set_parse_only): every option check and strict number runs, and each --set override is
// loaded against the schema, without simulating.
// A user error must be a ConfigError or a CLI11 parse error; anything else escaping is a crash.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "systemc/common/config.h"
#include "tb/cli/commands.h"

namespace {

void fuzz_yaml(const std::string& text) {
  try {
    wormcast::load_config_text("fuzz.yaml", text);
  } catch (const wormcast::ConfigError&) {
  }
}

void fuzz_cli(const std::string& text) {
  std::vector<std::string> args{"wormcast"};
  std::string cur;
  for (char c : text) {
    if (c == '\n') {
      args.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  args.push_back(cur);
  if (args.size() > 40) return;
  CLI::App app{"fuzz"};
  app.require_subcommand(1);
  wormcast::register_run_commands(app);
  wormcast::register_schedule_command(app);
  wormcast::register_broadcast_command(app);
  wormcast::register_mway_command(app);
  wormcast::register_gossip_command(app);
  wormcast::register_ibt_command(app);
  wormcast::register_wave_command(app);
  // The parse only: no simulation, but every --set override is checked against the schema below.
  wormcast::set_parse_only(true);
  std::vector<const char*> argv;
  for (auto& a : args) argv.push_back(a.c_str());
  try {
    app.parse(int(argv.size()), argv.data());
  } catch (const CLI::Error&) {
    return;
  }
  for (size_t i = 1; i + 1 < args.size(); ++i) {
    if (args[i] != "--set") continue;
    try {
      wormcast::Overrides ov{wormcast::parse_override(args[i + 1])};
      wormcast::load_config_text("fuzz", "", ov);
    } catch (const wormcast::ConfigError&) {
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (data[0] & 1)
    fuzz_cli(text);
  else
    fuzz_yaml(text);
  return 0;
}

// libsystemc refers to sc_main; the fuzzer's own main runs instead.
int sc_main(int, char**) { return 0; }
