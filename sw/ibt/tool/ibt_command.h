// The iBT command's options and work (topology metrics, broadcasts on the step simulator) for
// `wormcast ibt` (tb/cli/cmd_ibt.cpp, which writes the result through the output plan).
#pragma once

#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "sw/cli_fwd.h"
#include "sw/ibt/ibt_broadcast.h"
#include "sw/topology/ibt.h"

namespace wormcast::sw {

struct IbtArgs {
  std::string command;           ///< "topo" or "bcast" (set by the subcommand parsed)
  std::string net;               ///< ibt:64x64 or torus:16x16x16
  std::string bypass;            ///< b1,b2,...
  bool allow_half = false;       ///< accept b_j = n/2 (parallel bypass links)
  std::string compare;           ///< topo: "torus" adds Torus(n^d), Torus(m^(d+1)), alpha, beta
  std::string algo = "line";     ///< bcast: line, rect, global, trees
  std::string source = "0";      ///< node id, or coordinates "x,y,..."
  // The options one algorithm reads hold "not given" (-1, 0 or empty) unless given: an option the
  // algorithm does not read is refused, not ignored; plan_ibt_broadcast applies the defaults.
  int dim = 0;                   ///< line: dimension; rect/trees: first of (dim, dim2)
  int dim2 = -1;                 ///< rect/trees; not given: 1, or 0 with dim 1
  int packets = 32;
  std::string pn;                ///< Int(pn) 0..15, or best (line: 0..7; rect/global: 1,3,5,7); not given: best
  int split_range = -1;          ///< rect: |k1 - k2| <= this (the paper's d_k); not given: 4
  int global_split = 0;          ///< global: colour counts differ by at most this; not given: 1 (the even split)
  bool staged = false;           ///< rect: choose pn by line broadcasts, then search the split
  bool per_step = false;         ///< bcast: print sends and utilization per step
  std::string json_file;
};

/// Adds the subcommands `topo` and `bcast` to `app`, bound to `args`.
void register_ibt_options(CLI::App& app, IbtArgs& args);

/// The network of --net / --bypass / --allow-half; throws IbtConfigError.
IbtTopology make_ibt_topology(const IbtArgs& args);
/// The broadcast of a parsed `bcast` (algorithm, source, k, pn search); its choices go into `j`.
/// Throws IbtConfigError.
IbtBroadcast plan_ibt_broadcast(const IbtArgs& args, const IbtTopology& t, nlohmann::json& j);

/// Runs the parsed command: its text on `out`, its result as JSON (`wormcast ibt` writes it through
/// the output plan). Throws IbtConfigError (one line naming the option and the allowed range).
nlohmann::json ibt_command_json(const IbtArgs& args, std::ostream& out);

}  // namespace wormcast::sw
