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

#include "sw/broadcast/broadcast.h"
#include "sw/schedule/verify.h"
#include "sw/topology/path.h"
#include "tb/cli/commands.h"
#include "tb/out/output_plan.h"

namespace wormcast {

namespace {

using sw::Schedule;
using Json = nlohmann::ordered_json;  // keys in the documented order
using sw::Topology;

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

/// One panel per step on the 2-D grid (y grows upward, as in the papers' figures): nodes that
/// already hold the message are dark, this step's receivers take the step's colour, and each
/// unicast is drawn along its dimension-ordered path with an arrowhead at the receiver.
std::string schedule_svg(const Schedule& s) {
  static const char* const kColours[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                                         "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f"};
  const Topology& t = s.topology;
  const int nx = t.radix(0), ny = t.dims() > 1 ? t.radix(1) : 1;
  const int cell = std::max(8, std::min(40, 480 / std::max(nx, ny)));
  const int margin = cell, title = 24;
  const int pw = nx * cell + 2 * margin, ph = ny * cell + 2 * margin + title;
  const int steps = std::max(1, s.num_steps);
  const int cols = std::min(steps, 4), rows = (steps + cols - 1) / cols;
  const double r = cell * 0.28;
  std::string o = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" "
      "viewBox=\"0 0 {0} {1}\" font-family=\"sans-serif\" font-size=\"13\">\n"
      "<rect x=\"0\" y=\"0\" width=\"{0}\" height=\"{1}\" fill=\"white\"/>\n",
      cols * pw, rows * ph);

  std::vector<int> informed_step(size_t(t.num_nodes()), -1);  // step at whose end it holds it
  informed_step[size_t(s.source)] = 0;
  for (const sw::Unicast& u : s.unicasts)
    if (informed_step[size_t(u.dst)] < 0 || u.step < informed_step[size_t(u.dst)])
      informed_step[size_t(u.dst)] = u.step;

  for (int step = 1; step <= steps; ++step) {
    const int px = ((step - 1) % cols) * pw, py = ((step - 1) / cols) * ph;
    const int ci = (step - 1) % 10;
    const char* colour = kColours[ci];
    auto cx = [&](int x) { return px + margin + x * cell + cell / 2.0; };
    auto cy = [&](int y) { return py + title + margin + (ny - 1 - y) * cell + cell / 2.0; };
    int count = 0;
    for (const sw::Unicast& u : s.unicasts) count += u.step == step;
    o += fmt::format("<g>\n<text x=\"{}\" y=\"{}\">step {}: {} unicast{}</text>\n", px + margin,
                     py + 17, step, count, count == 1 ? "" : "s");
    o += fmt::format(
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#ddd\"/>\n",
        px + margin / 2, py + title + margin / 2, nx * cell + margin, ny * cell + margin);
    for (const sw::Unicast& u : s.unicasts) {
      if (u.step != step) continue;
      const std::vector<sw::Arc> path = sw::unicast_path(t, u);
      for (size_t j = 0; j < path.size(); ++j) {
        const sw::Arc& a = path[j];
        const int next = t.neighbor(a.node, a.port);
        const int x0 = t.coord_of(a.node, 0), y0 = t.dims() > 1 ? t.coord_of(a.node, 1) : 0;
        const int x1 = t.coord_of(next, 0), y1 = t.dims() > 1 ? t.coord_of(next, 1) : 0;
        const int dim = a.port / 2, sign = (a.port & 1) ? -1 : 1;
        const bool last = j + 1 == path.size();
        const bool wraps = (dim == 0 ? x1 - x0 : y1 - y0) != sign;
        auto line = [&](double ax, double ay, double bx, double by) {
          o += fmt::format(
              "<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"{}\" "
              "stroke-width=\"1.6\"/>\n",
              ax, ay, bx, by, colour);
        };
        const double dx = dim == 0 ? sign : 0, dy = dim == 0 ? 0 : -sign;  // screen direction
        if (!wraps) {
          line(cx(x0), cy(y0), cx(x1), cy(y1));
        } else {
          // Wraparound link: leave through the panel edge, re-enter from the opposite one.
          const double half = cell / 2.0 + margin / 2.0;
          line(cx(x0), cy(y0), cx(x0) + dx * half, cy(y0) + dy * half);
          line(cx(x1) - dx * half, cy(y1) - dy * half, cx(x1), cy(y1));
        }
        if (last) {
          // Arrowhead with its tip on the receiver's circle (drawn as a polygon: markers are
          // not rendered by every SVG tool).
          const double tipx = cx(x1) - dx * r, tipy = cy(y1) - dy * r;
          const double len = std::max(4.0, cell * 0.22), wid = len * 0.5;
          o += fmt::format(
              "<polygon points=\"{:.1f},{:.1f} {:.1f},{:.1f} {:.1f},{:.1f}\" fill=\"{}\"/>\n", tipx,
              tipy, tipx - dx * len - dy * wid, tipy - dy * len + dx * wid, tipx - dx * len + dy * wid,
              tipy - dy * len - dx * wid, colour);
        }
      }
    }
    for (int node = 0; node < t.num_nodes(); ++node) {
      const int x = t.coord_of(node, 0), y = t.dims() > 1 ? t.coord_of(node, 1) : 0;
      const int when = informed_step[size_t(node)];
      std::string fill = "white";
      if (when >= 0 && when < step) fill = "#444";
      if (when == step) fill = colour;
      o += fmt::format(
          "<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"{:.1f}\" fill=\"{}\" stroke=\"{}\" "
          "stroke-width=\"{}\"/>\n",
          cx(x), cy(y), r, fill, node == s.source ? "black" : "#888", node == s.source ? 2 : 1);
    }
    o += "</g>\n";
  }
  o += "</svg>\n";
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
  if (a.net.empty()) throw ConfigError("--net: required, e.g. --net torus:16x16");
  Topology t;
  try {
    t = sw::parse_net(a.net);
  } catch (const std::invalid_argument& e) {
    throw ConfigError(std::string("--net: ") + e.what());
  }
  // Both outputs planned before the (possibly long) generation; renamed into place together.
  OutputPlan plan;
  if (!a.svg_file.empty()) plan.add("--svg", a.svg_file);
  if (!a.json_file.empty()) plan.add("--json", a.json_file);
  int source = 0;
  const Schedule s = make_schedule(a.choice, t, source);
  if (!a.svg_file.empty() && t.dims() > 2)
    throw ConfigError("--svg: only 1-D and 2-D networks can be drawn; got " + sw::describe(t));
  sw::Verdict verdict;
  if (a.check) verdict = sw::verify(s);

  if (!a.svg_file.empty()) plan.write(a.svg_file, schedule_svg(s));
  if (!a.json_file.empty()) plan.write(a.json_file, schedule_json(s, a.check ? &verdict : nullptr));
  plan.commit();
  print_schedule(std::cout, s, a.quiet);
  if (a.check) {
    std::cout << sw::format_verdict(s, verdict);
    return verdict.ok() ? 0 : 1;
  }
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
  cmd->add_option("--json", args->json_file, "Write the schedule as JSON")->check(file_path());
  cmd->add_option("--svg", args->svg_file, "Draw each step on the 2-D torus as SVG")->check(file_path());
  cmd->add_flag("--quiet", args->quiet, "Print per-step counts only, not every unicast");
  set_command_action(cmd, [args] { return run_schedule(*args); });
}

}  // namespace wormcast
