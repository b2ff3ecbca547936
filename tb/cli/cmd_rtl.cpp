// wormcast rtl list|build|clean: the cache of Verilated models built on demand (tb/rtl/rtl_cache.h).
#include <iostream>
#include <memory>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "systemc/mway/network.h"
#include "systemc/torus/router_models.h"
#include "tb/cli/commands.h"
#include "tb/rtl/mway/mw_models.h"
#include "tb/rtl/param_set_options.h"
#include "tb/rtl/rtl_cache.h"
#include "tb/rtl/rtl_models.h"

namespace wormcast {

void register_rtl_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand(
      "rtl", "the Verilated models of the Verilog routers: each parameter set a run asks for is built on first use "
             "and cached (WORMCAST_RTL_CACHE, else the user's cache directory)");
  cmd->require_subcommand(1);

  CLI::App* list = cmd->add_subcommand("list", "the cache directory and its models: description, size, build time");
  set_command_action(list, [] {
    const auto entries = rtl_cache_entries();
    std::cout << "cache: " << rtl_cache_dir() << " (" << entries.size() << " entr" << (entries.size() == 1 ? "y" : "ies")
              << ")\n";
    for (const RtlCacheEntry& e : entries)
      std::cout << fmt::format("{:<28} {:>7.1f} MiB {:>5.0f} s  {}\n", e.name, double(e.bytes) / (1 << 20),
                               e.build_seconds,
                               e.valid && e.stale.empty() ? e.description
                               : e.valid ? fmt::format("{} ({}: never loaded by this program; `wormcast rtl clean "
                                                       "--unusable` removes it)", e.description, e.stale)
                               : e.other_format ? e.description + " (another cache format: never loaded, rebuilt "
                                                                  "if a run asks for it; `wormcast rtl clean` removes it)"
                                                : "(incomplete or corrupt: rebuilt on use)");
    return 0;
  });

  auto set = std::make_shared<ParamSetOptions>();
  auto trace = std::make_shared<bool>(false);
  CLI::App* build = cmd->add_subcommand(
      "build", "build the model of one parameter set now (the keys of wormcast traffic, e.g. --net torus:6x6 --vcs 3 "
               "--buf 5, or --net mway:8x8 --set mway.algo=mst-replica): a batch job then starts without compiling");
  set->add_to(*build);
  build->add_flag("--trace", *trace, "the variant that can dump its internal signals (--rtl-vcd)");
  set_command_action(build, [set, trace, build] {
    check_set_conflicts(set->given(*build), set->sets);  // as wormcast traffic
    const Config cfg = set->config(*build);
    RtlBuildSpec spec;
    if (cfg.net.family == "mway") {
      if (*trace)
        throw ConfigError("--trace is invalid for an m-way parameter set: its routers have no internal signals to "
                          "dump (no traced variant); allowed: --trace with a torus or ibt parameter set");
      spec = mway_rtl_model_of(mway_params(cfg)).build_spec();
    } else {
      // What a run on this model would refuse (SystemC-only rules), refused before a build too.
      check_as_rtl(cfg);
      spec = rtl_model_of(cfg).build_spec(*trace);
    }
    load_rtl_plugin(spec);
    std::cout << "ready: " << spec.description << "\n";
    return 0;
  });

  CLI::App* clean = cmd->add_subcommand(
      "clean", "remove every cached model that no running build holds (only the cache's own entries: other files "
               "in the directory stay)");
  auto unusable = std::make_shared<bool>(false);
  clean->add_flag("--unusable", *unusable,
                  "only the entries this program cannot load as they are (built from other sources, by another "
                  "Verilator, of another cache format, incomplete or corrupt: `wormcast rtl list` marks them) and "
                  "what failed builds left; the models it loads stay");
  set_command_action(clean, [unusable] {
    const RtlCacheClean c = rtl_cache_clean(*unusable);
    auto entries = [](int n) { return fmt::format("{} entr{}", n, n == 1 ? "y" : "ies"); };
    std::cout << "removed " << entries(c.removed) << " from " << rtl_cache_dir();
    if (*unusable) std::cout << "; kept " << entries(c.kept) << " that this program loads";
    if (c.busy) std::cout << "; left " << entries(c.busy) << " that a running build holds";
    if (c.foreign) std::cout << "; left " << c.foreign << " other file" << (c.foreign == 1 ? "" : "s") << " alone";
    if (c.failed_builds)
      std::cout << "; removed what " << c.failed_builds << " failed build" << (c.failed_builds == 1 ? "" : "s") << " left";
    std::cout << "\n";
    for (const std::string& f : c.failed) std::cerr << "wormcast rtl clean: cannot remove " << f << "\n";
    return c.failed.empty() ? 0 : 1;
  });
}

}  // namespace wormcast
