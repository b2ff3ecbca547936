// wormcast wave: a GTKWave save file for a waveform, grouped per router and port, or following one
// packet hop by hop (tb/out/wave.h: the same generator as the save file --vcd writes).
#include <charconv>
#include <filesystem>
#include <iostream>
#include <memory>
#include <set>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "systemc/common/config.h"
#include "systemc/common/limits.h"
#include "sw/topology/topology.h"
#include "tb/cli/commands.h"
#include "tb/out/files.h"
#include "tb/out/output_plan.h"
#include "tb/out/wave.h"
#include "tb/run/dry_run.h"

namespace wormcast {

namespace {

struct WaveArgs {
  std::string dump, save, routers, trace, net;
  int64_t packet = -1;
  int64_t cycles = 200;
  bool cycles_given = false;  ///< --cycles on the command line
};

int run_wave(const WaveArgs& a) {
  if (a.dump.empty()) throw ConfigError("dump: required; allowed: a waveform file (.vcd or .fst)");
  if ((a.packet >= 0) != !a.trace.empty()) throw ConfigError("--packet and --trace go together; allowed: both or neither");
  std::string save = a.save;
  if (save.empty()) save = strip_suffix(strip_suffix(a.dump, ".vcd"), ".fst") + ".gtkw";
  OutputPlan plan;
  plan.add_input(a.dump);
  if (!a.trace.empty()) plan.add_input(a.trace);
  plan.add("--save", save);
  const VcdInfo info = read_vcd_info("wave", a.dump);
  std::string text;
  int count = 0;
  const std::string shown = std::filesystem::absolute(a.dump).lexically_normal().string();
  if (a.packet >= 0 && (!a.routers.empty() || a.cycles_given))
    throw ConfigError(fmt::format("{} with --packet: the packet's view shows its hops; allowed: --routers and --cycles "
                                  "without --packet",
                                  a.routers.empty() ? "--cycles" : "--routers"));
  if (!a.net.empty() && a.packet < 0) throw ConfigError("--net without --packet: only a packet's view places router ids; allowed: --net with --packet");
  if (a.packet >= 0) {
    // --net SHAPE or FAMILY:SHAPE, as a run's --net: the radix per dimension.
    std::vector<int> shape;
    if (!a.net.empty()) {
      const std::string dims = a.net.substr(a.net.find(':') + 1);
      for (const auto& k : split_list(dims, 'x')) {
        int v = 0;
        const auto [end, err] = std::from_chars(k.data(), k.data() + k.size(), v);
        if (k.empty() || err != std::errc() || end != k.data() + k.size() || v < 2 || v > limits::kMaxRadix ||
            shape.size() >= size_t(sw::kMaxDims))
          throw ConfigError(fmt::format("--net '{}' is invalid; allowed: the run's network, e.g. torus:4x4 (1..{} "
                                        "dimensions, each radix 2..{})",
                                        a.net, sw::kMaxDims, limits::kMaxRadix));
        shape.push_back(v);
      }
    }
    int max_router = -1;
    const auto hops = read_packet_hops(a.trace, uint64_t(a.packet), &max_router);
    text = packet_save_file(shown, info, hops, uint64_t(a.packet), &count, shape, max_router);
  } else {
    std::set<std::string> only;
    if (!a.routers.empty())
      for (const auto& r : split_list(a.routers, ',')) {
        // Every name a group of the dump (a misspelt one is refused, not left out).
        int one = 0;
        if (!r.empty()) overview_save_file(shown, info, {r}, uint64_t(a.cycles), &one);
        if (one == 0)
          throw ConfigError(fmt::format("--routers: '{}' is not a router scope of '{}'; allowed: router scopes of the "
                                        "dump, comma-separated, e.g. r_0_0",
                                        r, a.dump));
        if (!only.insert(r).second)
          throw ConfigError(fmt::format("--routers: '{}' is named twice; allowed: each router once", r));
      }
    text = overview_save_file(shown, info, only, uint64_t(a.cycles), &count);
  }
  dry_run_point();
  plan.write(save, text);
  const char* what = a.packet >= 0 ? (count == 1 ? "hop" : "hops") : (count == 1 ? "router / channel" : "routers / channels");
  plan.commit(fmt::format("{}: {} {} grouped\nopen with: gtkwave {} {}\n", save, count, what, a.dump, save));
  return 0;
}

}  // namespace

void register_wave_command(CLI::App& app) {
  auto a = std::make_shared<WaveArgs>();
  CLI::App* cmd = app.add_subcommand(
      "wave", "write a GTKWave save file for a waveform (.vcd, or .fst through fst2vcd): one collapsed group per "
              "router, channel and node interface with a sub-group per port; or, with --packet and --trace, one "
              "group per hop of a packet (per channel crossing on an m-way fabric); the view opens zoomed on the "
              "dump's start (or on the packet's hops)");
  // Checked in run_wave, not by the parser: its requirement check comes before its check of unknown
  // options, so `wave --bogus` would report a missing dump instead of the option.
  cmd->add_option("dump", a->dump, "the waveform (--vcd or --fst of a run, or any VCD; required)");
  cmd->add_option("--save", a->save, "the save file to write (default: the dump's name with .gtkw)")->check(file_path());
  cmd->add_option("--routers", a->routers, "only these routers, comma-separated scope names (e.g. r_0_0,r_1_0)");
  cmd->add_option("--packet", a->packet, "follow this packet hop by hop (needs --trace)")
      ->check(decimal_int(0, 4000000000000000000LL));
  cmd->add_option("--trace", a->trace, "the run's per-hop CSV (--trace of the same run)");
  cmd->add_option("--net", a->net,
                  "with --packet: the run's network (e.g. torus:4x4), which places the trace's router ids on a dump "
                  "of some routers (--vcd-routers)");
  cmd->add_option("--cycles", a->cycles, "clock cycles across the opening view (default 200)")
      ->check(decimal_int(1, 1000000000));
  set_command_action(cmd, [a, cmd] {
    a->cycles_given = cmd->count("--cycles") > 0;
    return run_wave(*a);
  });
}

}  // namespace wormcast
