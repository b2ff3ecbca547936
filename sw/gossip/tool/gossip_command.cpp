// The gossip command: generation and verification of the named schedule, its step-by-step and
// closed-form cost per r, the (a, b) search, and the JSON result (options: gossip_options.cpp,
// closed forms: gossip_closed_forms.cpp, the paper's tables: gossip_tables.cpp).
#include "sw/gossip/tool/gossip_command.h"

#include <CLI/CLI.hpp>

#include "sw/schedule/cost.h"
#include "sw/gossip/tool/gossip_parts.h"

namespace wormcast::sw {

namespace gossip_tool {

std::optional<Built> build(const Topology& t, const GossipSpec& s, const GossipArgs& a, std::string& why) {
  if (t.num_nodes() > a.max_nodes) {
    why = "not materialized: " + std::to_string(t.num_nodes()) + " nodes > --max-nodes " + std::to_string(a.max_nodes);
    return std::nullopt;
  }
  try {
    Built b{generate_gossip(t, s), {}, s.ports};
    VerifyOptions o;
    o.one_port = s.ports == PortModel::OnePort;
    b.verdict = verify(b.g.schedule, o);
    return b;
  } catch (const GossipParamError& e) {
    why = std::string("not generated: ") + e.what();
    return std::nullopt;
  }
}

json schedule_json(const Schedule& s) {
  const Topology& t = s.topology;
  json j;
  std::vector<int> dims;
  for (int d = 0; d < t.dims(); ++d) dims.push_back(t.radix(d));
  j["dims"] = dims;
  j["topology"] = describe(t);
  j["algo"] = s.algo;
  j["steps"] = s.num_steps;
  j["chunks_per_node"] = s.chunks_per_node;
  json list = json::array();
  for (const Unicast& u : s.unicasts) {
    json e;
    e["src"] = node_coords(t, u.src);
    e["dst"] = node_coords(t, u.dst);
    e["step"] = u.step;
    e["order"] = u.order;
    if (u.tie_negative && t.has_tie(u.src, u.dst)) e["tie"] = "negative";
    e["chunks"] = u.chunks.ids();
    json path = json::array({node_coords(t, u.src)});
    for (const Arc& arc : unicast_path(t, u)) path.push_back(node_coords(t, t.neighbor(arc.node, arc.port)));
    e["path"] = path;
    list.push_back(std::move(e));
  }
  j["unicasts"] = std::move(list);
  return j;
}

json step_json(const Built& b, double r, const GossipArgs& a, bool per_step) {
  CostParams p;
  p.r = r;
  p.hop_term = a.hop >= 0;
  p.hop = a.hop >= 0 ? a.hop : 0;
  p.ports = b.ports;
  const ScheduleCost c = schedule_cost(b.g.schedule, p);
  json j;
  j["ports"] = b.ports == PortModel::OnePort ? "one" : "all";
  j["total"] = c.total;
  j["steps"] = b.g.schedule.num_steps;
  j["busy_steps"] = c.busy_steps;
  j["unicasts"] = b.g.schedule.unicasts.size();
  j["verified"] = b.verdict.ok();
  for (const PhaseSpan& ph : b.g.phases) {
    double t = 0;
    for (int s = ph.first_step; s <= ph.last_step; ++s) t += c.steps[size_t(s - 1)].time;
    j["phases"].push_back({{"name", ph.name}, {"first_step", ph.first_step}, {"last_step", ph.last_step}, {"time", t}});
  }
  if (per_step)
    for (const StepCost& s : c.steps)
      j["per_step"].push_back({{"step", s.step}, {"unicasts", s.unicasts}, {"max_size", s.max_size}, {"max_hops", s.max_hops}, {"time", s.time}});
  return j;
}

}  // namespace gossip_tool

using namespace gossip_tool;

json gossip_command_json(const GossipArgs& a, std::ostream& out, int& code) {
  {
    const Topology t = parse_gossip_net(a.net);
    const std::vector<double> rs = parse_r(a.r);
    check_parameters(a);
    if (a.max_nodes < 1) throw GossipParamError("--max-nodes: must be >= 1");
    const HalfRule half = a.half ? HalfRule::Half : HalfRule::Floor;
    json j;
    j["net"] = describe(t);
    j["nodes"] = t.num_nodes();
    code = 0;
    if (!t.torus(0) && (a.table || a.search))
      throw GossipParamError(std::string(a.table ? "--table" : "--search") + ": rings and tori only (the paper gives no mesh "
                             "closed forms); allowed on " + describe(t) + ": a fixed --algo with its parameters");
    if (port_model(a) == PortModel::OnePort && (a.table || a.search))
      throw GossipParamError(std::string(a.table ? "--table" : "--search") +
                             ": all-port only (the paper gives no one-port closed forms for CIRCGOS/TORGOS; use --port all)");
    if (a.table) {
      for (double r : rs) j["rows"].push_back(table_row(t, r, a));
      out << j.dump(2) << "\n";
    } else {
      GossipSpec spec = make_spec(a, t);
      j["algo"] = a.algo;
      const int n = t.radix(0);
      if (a.search) {
        SearchOptions o;
        o.half = half;
        o.divisors_only = a.divisors_only;
        if (spec.algo != GossipAlgo::Circgos && spec.algo != GossipAlgo::Torgos && spec.algo != GossipAlgo::Cubgos)
          throw GossipParamError("--search: only for circgos, torgos, cubgos (got " + a.algo + ")");
        if (spec.algo == GossipAlgo::Circgos && t.dims() != 1)  // as the generator refuses it without --search
          throw GossipParamError("circgos --search: --net must be a ring (got " + describe(t) + "; use high-dim-gos)");
        if (spec.algo != GossipAlgo::Circgos) {  // the network checks of a fixed (a, b) = (2, 1) at r = 1
          GossipArgs probe;
          probe.net = a.net;
          probe.algo = a.algo;
          probe.r = "1";
          probe.a = 2;
          probe.b = 1;
          make_spec(probe, t);
        }
        for (double r : rs) {
          const SearchResult w = spec.algo == GossipAlgo::Circgos
                                     ? search_circgos(n, r, o)
                                     : search_diagonal(n, t.dims(), r, spec.coloured ? t.dims() : 1, o);
          json e{{"r", r}, {"closed_form", w.time}, {"params", ab_json(w)}};
          out << "r=" << str(r) << "  best (a, b) = (" << w.a << ", " << (w.approach1 ? std::string("-") : std::to_string(w.b))
              << ")  closed form " << str(w.time);
          if (rs.size() == 1 || a.confirm) {
            GossipSpec s = spec;
            s.circ = w.approach1 ? CircParams{n, n, 1} : CircParams::from_ab(w.a, w.b);
            std::string why;
            if (auto b = build(t, s, a, why)) {
              e["step_by_step"] = step_json(*b, r, a, false);
              out << "  step by step " << str(e["step_by_step"]["total"].get<double>()) << " ("
                  << b->g.schedule.num_steps << " steps, " << (b->verdict.ok() ? "verified" : "VERIFY FAILED") << ")";
            } else {
              e["step_by_step_note"] = why;
              out << "  step by step: " << why;
            }
          }
          out << "\n";
          j["search"].push_back(e);
        }
      } else {
        std::string why;
        const std::optional<Built> b = build(t, spec, a, why);
        if (!b) throw GossipParamError(why.rfind("not generated: ", 0) == 0 ? why.substr(15) : "--max-nodes: " + why);
        out << "net " << describe(t) << "  algo " << spec_label(spec) << "  steps " << b->g.schedule.num_steps
            << "  unicasts " << b->g.schedule.unicasts.size() << "\n";
        if (!a.quiet)
          for (const PhaseSpan& p : b->g.phases)
            out << "  phase " << p.name << ": steps " << p.first_step << ".." << p.last_step << "\n";
        for (double r : rs) {
          json e{{"r", r}, {"step_by_step", step_json(*b, r, a, !a.quiet && rs.size() == 1)},
                 {"closed_form", closed_form_json(spec, t, r, half)}, {"lower_bounds", lower_bounds_json(t, r)}};
          out << "r=" << str(r) << "  step by step " << str(e["step_by_step"]["total"].get<double>()) << " (l t_f)";
          if (!e["closed_form"].is_null())
            out << "  closed form " << str(e["closed_form"]["total"].get<double>()) << " (" << e["closed_form"]["source"].get<std::string>() << ")";
          out << "  lower bound eq. 2 " << str(e["lower_bounds"]["eq2"].get<double>()) << "\n";
          j["results"].push_back(e);
        }
        j["label"] = spec_label(spec);
        j["steps"] = b->g.schedule.num_steps;
        // Only for --json: a large schedule's JSON takes far more memory than the schedule (a ring of
        // 4,096 nodes: 16.8 million unicasts).
        if (!a.json_file.empty()) j["schedule"] = schedule_json(b->g.schedule);
        if (a.check) {
          out << format_verdict(b->g.schedule, b->verdict);
          j["check"] = {{"ok", b->verdict.ok()}, {"complete", b->verdict.complete}, {"chunk_causal", b->verdict.chunk_causal},
                        {"overlap_free", b->verdict.stepwise_contention_free}, {"repeated_chunks", b->verdict.repeated_chunks},
                        {"errors", b->verdict.errors}};
          if (b->verdict.one_port_checked) j["check"]["one_port"] = b->verdict.one_port;
          if (!b->verdict.ok()) code = 1;
        }
      }
    }
    return j;
  }
}

GossipSchedule gossip_schedule(const GossipArgs& a, double r) {
  if (a.table) throw GossipParamError("--table: names several schedules; give one --algo instead");
  const Topology t = parse_gossip_net(a.net);
  check_parameters(a);
  GossipSpec spec = make_spec(a, t);
  if (!t.torus(0) && a.search)
    throw GossipParamError("--search: rings and tori only (the paper gives no mesh closed forms); allowed on " + describe(t) +
                           ": a fixed --algo with its parameters");
  if (spec.ports == PortModel::OnePort && a.search)
    throw GossipParamError("--search: all-port only (the paper gives no one-port closed forms for CIRCGOS/TORGOS; use --port all)");
  if (a.search) {
    if (spec.algo != GossipAlgo::Circgos && spec.algo != GossipAlgo::Torgos && spec.algo != GossipAlgo::Cubgos)
      throw GossipParamError("--search: only for circgos, torgos, cubgos (got " + a.algo + ")");
    SearchOptions o;
    o.half = a.half ? HalfRule::Half : HalfRule::Floor;
    o.divisors_only = a.divisors_only;
    const int n = t.radix(0);
    const SearchResult w = spec.algo == GossipAlgo::Circgos
                               ? search_circgos(n, r, o)
                               : search_diagonal(n, t.dims(), r, spec.coloured ? t.dims() : 1, o);
    spec.circ = w.approach1 ? CircParams{n, n, 1} : CircParams::from_ab(w.a, w.b);
  }
  if (t.num_nodes() > a.max_nodes)
    throw GossipParamError("--max-nodes: " + std::to_string(t.num_nodes()) + " nodes > --max-nodes " + std::to_string(a.max_nodes));
  try {
    return generate_gossip(t, spec);
  } catch (const GossipParamError& e) {
    // The torus generators take only a dividing n; the paper's search does not restrict a.
    if (a.search && spec.algo != GossipAlgo::Circgos && !a.divisors_only)
      throw GossipParamError(std::string(e.what()) + " (the search winner; add --divisors-only)");
    throw;
  }
}

}  // namespace wormcast::sw
