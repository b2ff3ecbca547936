// `wormcast schedule`: generate a broadcast schedule, print it, check it, write it as JSON and SVG.
#include <cstdio>
#include <iostream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <CLI/CLI.hpp>

#include "sw/broadcast/broadcast.h"
#include "sw/schedule/verify.h"
#include "sw/topology/path.h"
#include "tb/cli/commands.h"
#include "tb/out/output_plan.h"
#include "tb/cli/schedule_svg.h"
#include "tb/out/files.h"
#include "tb/run/dry_run.h"

namespace wormcast {

namespace {

using sw::Schedule;
using Json = nlohmann::ordered_json;  // keys in the documented order
using sw::Topology;

// What `--check` may cost (sw::verify_cost's units; measured: about 1.3e7 a second, `sequential`
// on 64x64 4.5e7 units in 3.4 s).
constexpr double kCheckUnitsPerSecond = 1.2e7;
constexpr double kCheckMaxUnits = 7.2e8;
constexpr double kCheckMaxBytes = 4e9;

struct ScheduleArgs {
  std::string net;
  ScheduleChoice choice;
  std::string json_file;
  std::string svg_file;
  bool check = false;
  bool quiet = false;
};

Json coords_json(const Topology& t, int node) { return sw::node_coords(t, node); }

Json verdict_json(const Schedule& s, const sw::Verdict& v) {
  Json j;
  j["ok"] = v.ok();
  j["steps"] = v.steps;
  j["lower_bound"] = v.lower_bound;
  j["definition1"] = v.definition1();
  j["source_only_first_step"] = v.source_only_first_step;
  j["causal"] = v.causal;
  j["distinct_first_channels"] = v.distinct_first_channels;
  j["exactly_once"] = v.exactly_once;
  j["missing"] = v.missing;
  j["duplicates"] = v.duplicates;
  j["stepwise_contention_free"] = v.stepwise_contention_free;
  j["stepwise_conflicts"] = v.stepwise_conflicts;
  j["depth_contention_free"] = v.depth_contention_free;
  j["sharing_pairs"] = v.sharing_pairs;
  j["uncovered_pairs"] = v.uncovered_pairs;
  if (v.first_stepwise_conflict.valid())
    j["first_stepwise_conflict"] = sw::describe_pair(s, v.first_stepwise_conflict);
  if (v.first_uncovered.valid()) j["first_uncovered"] = sw::describe_pair(s, v.first_uncovered);
  return j;
}

std::string schedule_json(const Schedule& s, const sw::Verdict* verdict) {
  const Topology& t = s.topology;
  Json j;
  std::vector<int> dims;
  for (int d = 0; d < t.dims(); ++d) dims.push_back(t.radix(d));
  j["dims"] = dims;
  j["topology"] = sw::describe(t);
  j["source"] = coords_json(t, s.source);
  j["algo"] = s.algo;
  j["steps"] = s.num_steps;
  Json list = Json::array();
  for (const sw::Unicast& u : s.unicasts) {
    Json e;
    e["src"] = coords_json(t, u.src);
    e["dst"] = coords_json(t, u.dst);
    e["step"] = u.step;
    e["order"] = u.order;
    if (u.tie_negative) e["tie"] = "negative";
    list.push_back(e);
  }
  if (verdict) j["check"] = verdict_json(s, *verdict);
  // One key per line and one unicast per line: diff-friendly and still easy to read.
  std::string o = "{\n";
  for (auto it = j.begin(); it != j.end(); ++it) o += " " + Json(it.key()).dump() + ": " + it.value().dump() + ",\n";
  o += " \"unicasts\": [";
  for (size_t i = 0; i < list.size(); ++i) o += (i ? ",\n  " : "\n  ") + list[i].dump();
  o += list.empty() ? "]\n}\n" : "\n ]\n}\n";
  return o;
}

void print_schedule(std::ostream& out, const Schedule& s, bool quiet) {
  const Topology& t = s.topology;
  out << fmt::format("{} broadcast on {} from {}: {} steps, {} unicasts\n", s.algo, sw::describe(t),
                     sw::format_node(t, s.source), s.num_steps, s.unicasts.size());
  size_t i = 0;
  for (int step = 1; step <= s.num_steps; ++step) {
    size_t j = i;
    while (j < s.unicasts.size() && s.unicasts[j].step == step) ++j;
    out << fmt::format("step {}: {} unicasts\n", step, j - i);
    if (!quiet)
      for (size_t k = i; k < j; ++k) {
        const sw::Unicast& u = s.unicasts[k];
        const int hops = t.hops(u.src, u.dst, u.tie_negative);
        out << fmt::format("  {} -> {}  order {}  first {}  {} hop{}{}\n", sw::format_node(t, u.src),
                           sw::format_node(t, u.dst), u.order, sw::format_port(sw::first_port(t, u)),
                           hops, hops == 1 ? "" : "s", u.tie_negative ? "  tie negative" : "");
      }
    i = j;
  }
}

int run_schedule(const ScheduleArgs& a) {
  if (a.net.empty()) throw ConfigError("--net: required; allowed: a torus or mesh, e.g. --net torus:16x16");
  Topology t;
  try {
    t = sw::parse_net(a.net);
  } catch (const std::invalid_argument& e) {
    throw ConfigError(std::string("--net: ") + e.what());
  }
  dry_run_limit(t.num_nodes());
  // Both outputs planned before the (possibly long) generation; renamed into place together.
  OutputPlan plan;
  if (!a.svg_file.empty()) plan.add("--svg", a.svg_file);
  if (!a.json_file.empty()) plan.add("--json", a.json_file);
  int source = 0;
  const Schedule s = make_schedule(a.choice, t, source);
  std::string why;
  if (!a.svg_file.empty() && !schedule_svg_drawable(s, why)) throw ConfigError("--svg: " + why);
  sw::Verdict verdict;
  if (a.check) {
    // The check visits every pair of unicasts that share a channel: refused up front when that
    // is more than a minute's work or more memory than a workstation has to spare.
    const sw::VerifyCost cost = sw::verify_cost(s);
    if (cost.partial)
      throw ConfigError(fmt::format(
          "--check: this schedule's unicasts cross {:.3g} channels in all; allowed: at most {:.3g} (past that the "
          "check takes more than a minute and several GB): check a smaller network or another --algo",
          cost.arc_uses, sw::VerifyCost::kMaxArcUses));
    const double seconds = cost.work() / kCheckUnitsPerSecond;
    if (cost.work() > kCheckMaxUnits || cost.bytes() > kCheckMaxBytes)
      throw ConfigError(fmt::format(
          "--check: this schedule has {:.3g} pairs of unicasts sharing a channel to verify (about {:.0f} s and {:.3g} "
          "GB); allowed: at most {:.3g} pairs' work (about {:.0f} s, {:.0f} GB): check a smaller network or another "
          "--algo",
          cost.sharing_pairs, seconds, cost.bytes() / 1e9, kCheckMaxUnits, kCheckMaxUnits / kCheckUnitsPerSecond,
          kCheckMaxBytes / 1e9));
    verdict = sw::verify(s);
  }

  dry_run_point();
  if (!a.svg_file.empty()) plan.write(a.svg_file, schedule_svg(s));
  if (!a.json_file.empty()) plan.write(a.json_file, schedule_json(s, a.check ? &verdict : nullptr));
  // The printed schedule is a result too: printed before the files are put in place, so that
  // one that cannot be printed leaves no new file.
  std::ostringstream text;
  print_schedule(text, s, a.quiet);
  if (a.check) text << sw::format_verdict(s, verdict);
  plan.commit(text.str());
  if (a.check) return verdict.ok() ? 0 : 1;
  return 0;
}

}  // namespace

void register_schedule_command(CLI::App& app) {
  auto args = std::make_shared<ScheduleArgs>();
  CLI::App* cmd = app.add_subcommand(
      "schedule", "Generate a one-to-all broadcast schedule; print, check and draw it");
  cmd->add_option("--net", args->net, "Network, e.g. torus:16x16 or torus:8x8x8");
  add_schedule_options(cmd, args->choice);
  cmd->add_flag("--check", args->check,
                "Verify Definition 1, stepwise and depth contention-freedom and the step bound; "
                "exit 1 unless Definition 1 and stepwise contention-freedom hold");
  cmd->add_option("--json", args->json_file, "Write the schedule as JSON")->check(file_path(true));
  cmd->add_option("--svg", args->svg_file, "Draw each step on the 1-D or 2-D torus as SVG (at most 400,000 marks: nodes x steps + unicasts)")->check(file_path());
  cmd->add_flag("--quiet", args->quiet, "Print per-step counts only, not every unicast");
  set_command_action(cmd, [args] { return run_schedule(*args); });
}

}  // namespace wormcast
