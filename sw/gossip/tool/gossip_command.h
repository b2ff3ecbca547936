// The gossip command's options and work (generate, verify, cost, search) for `wormcast gossip`
// (tb/cli/cmd_gossip.cpp, which writes the result through the output plan).
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sw/cli_fwd.h"
#include "sw/gossip/gossip.h"

namespace wormcast::sw {

/// The largest r = t_s / (l t_f) and hop term t_d / (l t_f) the command takes.
constexpr double kMaxRatio = 1000000;

struct GossipArgs {
  std::string net;
  std::string algo = "circgos";
  std::vector<std::string> phases;  ///< high-dim-gos: per dimension 1, 2 or circgos:A:B
  std::string r = "10";             ///< one value, a list "2,10,50" or an integer range "2..250"
  int a = 0, b = -1, a2 = 0, k = 0;  ///< 0 (b: -1): not given
  bool search = false;
  bool table = false;       ///< every algorithm of the paper's table for this network
  bool confirm = false;     ///< with --search over several r: also cost each winner step by step
  bool uncoloured = false;  ///< uniaxial TORGOS / CUBGOS / HIGH-DIM-GOS (no colour split)
  std::string port;         ///< "all", "one" or empty: all-port except approach1-1-bw
  bool half = false;        ///< closed forms and search with a/2 instead of floor(a/2)
  bool divisors_only = false;
  bool check = false;
  bool quiet = false;
  double hop = -1;          ///< t_d / (l t_f); negative: hop term off
  long max_nodes = 4096;    ///< largest network whose schedules are materialized
  std::string json_file;
};

/// Adds the options to `app` (a top-level app or a subcommand), bound to `args`.
void register_gossip_options(CLI::App& app, GossipArgs& args);

/// The command's work without writing --json: text on `out`, the JSON as result; `code` becomes
/// 1 when --check failed. Throws GossipParamError on bad input (one line naming the option; exit
/// code 2 at the command line).
nlohmann::json gossip_command_json(const GossipArgs& args, std::ostream& out, int& code);

/// Refuses (GossipParamError naming the option) a --hop outside 0..kMaxRatio and the parameters
/// that do not apply: --a, --b, --a2, --k other than with a fixed circgos, torgos or cubgos (not
/// with --search or --table, --b, --a2 and --k only with --a, --k instead of --b), --phases other
/// than with high-dim-gos, --confirm without --search.
void gossip_check_parameters(const GossipArgs& args);

/// The port model the arguments select (--port; empty: one-port for approach1-1-bw only).
/// Throws GossipParamError on a bad --port.
PortModel gossip_port_model(const GossipArgs& args);

/// The --r values of the arguments (throws GossipParamError).
std::vector<double> gossip_r_values(const GossipArgs& args);

/// The one schedule the arguments name at ratio r: the fixed parameters, or with --search the
/// closed-form winner at r. Throws GossipParamError (also for --table, which names several).
GossipSchedule gossip_schedule(const GossipArgs& args, double r);

}  // namespace wormcast::sw
