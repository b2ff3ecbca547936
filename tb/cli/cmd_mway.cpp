// `wormcast mway`: synthetic unicast / region-broadcast traffic on the k-ary m-way family, the
// measurements of the m-way paper's Sec. 4 (latency from generation, traffic, injection and
// ejection rates), with the same run driver, JSON and recordings as every other family.
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "sw/topology/mway.h"
#include "tb/cli/commands.h"

namespace wormcast {

namespace {

struct MwayArgs {
  std::string net = "mesh:8x8", algo, region, config_file, router;
  CommonOptions common;
  /// Kept as text: the configuration's strict parser reads them.
  std::string rate = "0.01", fraction = "1", buffers, buffer_length, len = "5";
  RunLength length;
};

/// "mesh:8x8x8" or "mway:8x8x8" -> radix; "cube:9" -> a 9-cube (2x2x...x2).
std::string shape_of(const std::string& spec) {
  const auto colon = spec.find(':');
  const std::string kind = colon == std::string::npos ? "" : spec.substr(0, colon);
  const std::string rest = colon == std::string::npos ? "" : spec.substr(colon + 1);
  if (kind == "mesh" || kind == "mway") return rest;
  if (kind == "cube") {
    int d = 0;
    try {
      d = std::stoi(rest);
    } catch (...) {
    }
    if (d >= 1 && d <= sw::kMwayMaxDims && std::to_string(d) == rest) {
      std::string r = "2";
      for (int i = 1; i < d; ++i) r += "x2";
      return r;
    }
  }
  throw ConfigError(fmt::format("--net '{}' is invalid; allowed: mesh:K0xK1x... (1..{} dimensions) or cube:D (a "
                                "D-cube, D = 1..{})",
                                spec, sw::kMwayMaxDims, sw::kMwayMaxDims));
}

}  // namespace

void register_mway_command(CLI::App& app) {
  auto a = std::make_shared<MwayArgs>();
  CLI::App* cmd = app.add_subcommand("mway", "traffic on the k-ary m-way router family: unicasts and region broadcasts "
                                             "(MST, MST-safe, MST-replica, MST-unicast, recursive doubling)");
  cmd->add_option("--net", a->net, "mesh:8x8x8 or cube:9 (default mesh:8x8)");
  cmd->add_option("--algo", a->algo, "unicast, mst, mst-safe, mst-replica, mst-unicast, rd (default mst-safe)");
  cmd->add_option("--rate", a->rate, "offered load, flits/node/cycle (default 0.01)")->check(config_value("traffic.rate"));
  cmd->add_option("--broadcast-fraction", a->fraction, "share of messages that are region broadcasts (default 1)")
      ->check(config_value("traffic.broadcast_fraction"));
  cmd->add_option("--region", a->region, "all (the whole network) or random (a random rectangle)");
  cmd->add_option("--buffers", a->buffers, "buffers per router buffer set (default 4)")->check(config_value("mway.buffers"));
  cmd->add_option("--buffer-length", a->buffer_length,
                  "flits per buffer (default: the packet length, or a --config file's mway.buffer_length when it "
                  "gives one)")
      ->check(config_value("mway.buffer_length"));
  cmd->add_option("--len", a->len,
                  "message length in flits, header included, 2..4096 (default 5: the paper's 1 + 4); one message is "
                  "one packet in buffers of a whole message: it sets traffic.packet_len, nic.max_packet and, unless "
                  "--buffer-length is given, mway.buffer_length, over a --config file's values too")
      ->check(decimal_int(2, 4096));
  add_run_length_options(cmd, a->length);
  cmd->add_option("--router", a->router, "fabric model: sc, or rtl (the Verilated Verilog twin, mway.model)")
      ->check(config_value("mway.model"));
  cmd->add_option("--config", a->config_file,
                  "start from this YAML configuration: the defaults above then do not apply (the file's values and "
                  "the keys' own defaults stand, as under `run`, e.g. traffic.rate 0.1 and no broadcasts unless the "
                  "file sets them); the options given replace its values");
  add_common(cmd, a->common);
  // The fabric records its whole network and has no router insides to dump: these two are left out
  // of the help, and refused with their reason when given.
  for (const char* o : {"--vcd-routers", "--router-vcd"}) cmd->get_option(o)->group("");
  set_command_action(cmd, [a, cmd] {
    // The command's own defaults (mesh:8x8, rate 0.01, every message a region broadcast, buffers
    // of a whole message) stand where no configuration file is given; with --config the file's
    // values stand, as under `run`, and only the options on the command line replace them.
    const bool file = !a->config_file.empty();
    Overrides sets;  // --set, after everything else
    for (auto& s : a->common.sets) sets.push_back(parse_override(s));
    // A key's value from --set: the last one given, which the configuration takes.
    auto set_value = [&](const char* key) -> const std::string* {
      for (auto kv = sets.rbegin(); kv != sets.rend(); ++kv)
        if (kv->first == key) return &kv->second;
      return nullptr;
    };
    // The command runs the mway family: a file or --set naming another is refused under its key.
    if (const auto f = config_file_value(a->config_file, "net.family"); f && *f != "mway")
      throw ConfigError(fmt::format("config: net.family = '{}' (in '{}') is invalid under `wormcast mway`; allowed: "
                                    "mway, or none (`wormcast run` runs a file of another family)",
                                    *f, a->config_file));
    if (const std::string* f = set_value("net.family"); f && *f != "mway")
      throw ConfigError(fmt::format("--set net.family = '{}' is invalid under `wormcast mway`; allowed: mway", *f));
    Overrides ov{{"net.family", "mway"}};
    Overrides given;  // the options actually on the command line (the others are defaults --set may change)
    // An option given on the command line, or the command's default where no file is given.
    auto option = [&](const char* flag, const char* key, const std::string& value) {
      const bool on_line = cmd->count(flag) > 0;
      if (on_line) given.emplace_back(key, value);
      if (!file || on_line) ov.emplace_back(key, value);
    };
    option("--net", "net.radix", shape_of(a->net));
    option("--len", "traffic.packet_len", a->len);
    // One message, one packet (the paper's messages): nic.max_packet follows traffic.packet_len
    // (the family's default) unless --len sets both.
    if (cmd->count("--len")) ov.emplace_back("nic.max_packet", a->len);
    // A buffer holds a whole message unless --buffer-length says otherwise: the packet length
    // the run will have (--set traffic.packet_len included; a value that is not a number is
    // refused by the configuration under its own key).
    // (A file's traffic.packet_len too, when --len does not replace it; a file that gives its own
    // mway.buffer_length keeps it unless --len is given.)
    auto number = [](const std::string* v) { return v && !v->empty() && v->find_first_not_of("0123456789") == std::string::npos; };
    std::string len = a->len;
    if (file && !cmd->count("--len"))
      if (const auto f = config_file_value(a->config_file, "traffic.packet_len"); f && number(&*f)) len = *f;
    if (const std::string* v = set_value("traffic.packet_len"); number(v)) len = *v;
    if (cmd->count("--buffer-length"))
      option("--buffer-length", "mway.buffer_length", a->buffer_length);
    else if (!file || cmd->count("--len") || !config_file_value(a->config_file, "mway.buffer_length"))
      ov.emplace_back("mway.buffer_length", len);
    option("--rate", "traffic.rate", a->rate);
    // A trace's messages are unicasts: without --broadcast-fraction, a trace run has none.
    if (set_value("traffic.trace") && !cmd->count("--broadcast-fraction"))
      ov.emplace_back("traffic.broadcast_fraction", "0");
    else
      option("--broadcast-fraction", "traffic.broadcast_fraction", a->fraction);
    // (No default of the command's own: the configuration's.)
    for (const auto& [flag, key, value] : {std::tuple<const char*, const char*, const std::string&>{"--algo", "mway.algo", a->algo},
                                           {"--region", "traffic.region", a->region},
                                           {"--router", "mway.model", a->router},
                                           {"--buffers", "mway.buffers", a->buffers}})
      if (cmd->count(flag)) option(flag, key, value);
    run_length_overrides(cmd, a->length, ov);
    run_length_overrides(cmd, a->length, given);
    check_set_conflicts(given, a->common.sets);
    // The command's own defaults must agree with --algo: unicast sends no region broadcast, and
    // --broadcast-fraction defaults to 1 (the configuration refuses the pair too, naming its keys).
    if (a->algo == "unicast" && !set_value("traffic.broadcast_fraction") && (!file || cmd->count("--broadcast-fraction")) &&
        parse_real("--broadcast-fraction", a->fraction, 0.0, 1.0) > 0)
      throw ConfigError(fmt::format("--algo unicast sends no region broadcast, but --broadcast-fraction is {}{}; allowed "
                                    "with --algo unicast: --broadcast-fraction 0 (or a broadcast --algo: mst, "
                                    "mst-safe, mst-replica, mst-unicast, rd)",
                                    a->fraction, cmd->count("--broadcast-fraction") ? "" : " (its default)"));
    ov.insert(ov.end(), sets.begin(), sets.end());
    const Config cfg = load_config(a->config_file, ov);
    given.insert(given.end(), sets.begin(), sets.end());
    refuse_unused_with_trace(cfg, given, true);  // --len also sets nic.max_packet and the buffers
    return run_traffic_command(cfg, a->common.json, a->common.rec, "mway", a->config_file);
  });
}

}  // namespace wormcast
