// The iBT command: options, validation (one line naming the option), exact metrics, torus
// comparison (alpha, beta of eqs. 2-3) and broadcasts on the step simulator, as text and JSON.
#include "sw/ibt/tool/ibt_command.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>

#include <nlohmann/json.hpp>
#include <CLI/CLI.hpp>

#include "sw/ibt/ibt_broadcast.h"
#include "sw/topology/ibt.h"

namespace wormcast::sw {

using nlohmann::json;

IbtTopology make_ibt_topology(const IbtArgs& a) {
  if (a.net.empty()) throw IbtConfigError("--net: required (ibt:NxN[xN..] or torus:NxN[xN..])");
  const IbtNetSpec spec = parse_ibt_net(a.net);
  if (spec.torus) {
    if (!a.bypass.empty()) throw IbtConfigError("--bypass: not allowed with a torus:... network");
    return IbtTopology::torus(spec.n, spec.d);
  }
  if (!a.bypass.empty()) return IbtTopology(spec.n, spec.d, parse_bypass(a.bypass), a.allow_half);
  try {  // the default, as the ibt.bypass key's
    return IbtTopology(spec.n, spec.d, parse_bypass(kDefaultBypass), a.allow_half);
  } catch (const IbtConfigError& e) {
    throw IbtConfigError(std::string(e.what()) + ", the default; give --bypass for " + a.net);
  }
}

namespace {

json metrics_json(const DistanceMetrics& m, int degree) {
  return json{{"degree", degree},
              {"diameter", m.diameter},
              {"average_distance", m.average.str()},
              {"average_distance_value", m.average.value()}};
}

void print_metrics(std::ostream& out, const std::string& name, const DistanceMetrics& m, int degree) {
  char buf[256];
  std::snprintf(buf, sizeof buf, "%-28s degree %2d  lambda %4d  mu %s = %.6f (%.3f)\n", name.c_str(), degree,
                m.diameter, m.average.str().c_str(), m.average.value(), m.average.value());
  out << buf;
}

int64_t parse_source(const IbtTopology& t, const std::string& text) {
  try {
    // Plain decimal numbers: digits only, no sign, space or leading zero (010 is not a node).
    const auto number = [](const std::string& s) {
      if (s.empty() || s.size() > 18 || s.find_first_not_of("0123456789") != std::string::npos ||
          (s.size() > 1 && s[0] == '0'))
        throw std::invalid_argument("number");
      return std::stoll(s);
    };
    if (text.find(',') == std::string::npos) {
      const long long v = number(text);
      if (v >= t.num_nodes()) throw std::invalid_argument("range");
      return v;
    }
    std::vector<int> c;
    size_t pos = 0;
    while (true) {
      const size_t comma = text.find(',', pos);
      const long long x = number(text.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos));
      if (x >= t.n()) throw std::invalid_argument("range");
      c.push_back(int(x));
      if (comma == std::string::npos) break;
      pos = comma + 1;
    }
    if (static_cast<int>(c.size()) != t.dims()) throw std::invalid_argument("dims");
    return t.node(c);
  } catch (const std::exception&) {
    throw IbtConfigError("--source: a node id in 0.." + std::to_string(t.num_nodes() - 1) +
                         " or d coordinates x1,...,xd in 0.." + std::to_string(t.n() - 1) + " (got '" + text + "')");
  }
}

std::vector<int> pn_list(const std::string& text, const std::vector<int>& best_set) {
  if (text == "best") return best_set;
  try {
    size_t used = 0;
    const int v = std::stoi(text, &used);
    if (used == text.size() && v >= 0 && v <= 15) return {v};
  } catch (const std::exception&) {
  }
  throw IbtConfigError("--pn: Int(pn) in 0..15 or 'best' (got '" + text + "')");
}

json run_topo(const IbtArgs& a, std::ostream& out) {
  const IbtTopology t = make_ibt_topology(a);
  if (!a.compare.empty() && a.compare != "torus") throw IbtConfigError("--compare: only 'torus' is allowed");
  // m = n^(d/(d+1)): Torus(m^(d+1)) has the same N and degree 2(d+1); checked before any output.
  const int mm = static_cast<int>(
      std::lround(std::pow(static_cast<double>(t.n()), static_cast<double>(t.dims()) / (t.dims() + 1))));
  if (a.compare == "torus" && (mm < 3 || t.dims() + 1 > 8))
    throw IbtConfigError("--compare torus: the torus of the same degree, Torus(m^(d+1)) with m = n^(d/(d+1)), would "
                         "have m = " + std::to_string(mm) + " and d + 1 = " + std::to_string(t.dims() + 1) +
                         "; allowed: networks where m >= 3 and d + 1 <= 8");
  const auto t0 = std::chrono::steady_clock::now();
  const DistanceMetrics m = t.is_torus() ? torus_distance_metrics(t.n(), t.dims()) : distance_metrics(t);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  json j{{"network", t.name()}, {"nodes", t.num_nodes()}, {"metrics", metrics_json(m, t.num_ports())}, {"seconds", secs}};
  print_metrics(out, t.name(), m, t.num_ports());
  if (a.compare == "torus") {
    const int d = t.dims();
    const DistanceMetrics same = torus_distance_metrics(t.n(), d);
    const bool exact = std::pow(static_cast<double>(mm), d + 1) == static_cast<double>(t.num_nodes());
    const DistanceMetrics higher = torus_distance_metrics(mm, d + 1);
    print_metrics(out, IbtTopology::torus(t.n(), d).name(), same, 2 * d);
    print_metrics(out, IbtTopology::torus(mm, d + 1).name() + (exact ? "" : " (m rounded)"), higher, 2 * d + 2);
    auto ratio = [](double f, double g) { return 1.0 - f / g; };
    const double al = ratio(m.diameter, same.diameter), am = ratio(m.average.value(), same.average.value());
    const double bl = ratio(m.diameter, higher.diameter), bm = ratio(m.average.value(), higher.average.value());
    char buf[256];
    std::snprintf(buf, sizeof buf, "alpha(lambda) %.4f  alpha(mu) %.4f  beta(lambda) %.4f  beta(mu) %.4f\n", al, am, bl, bm);
    out << buf;
    j["torus_same_dims"] = metrics_json(same, 2 * d);
    j["torus_same_degree"] = metrics_json(higher, 2 * d + 2);
    j["torus_same_degree"]["m"] = mm;
    j["torus_same_degree"]["m_exact"] = exact;
    j["alpha"] = {{"diameter", al}, {"average_distance", am}};
    j["beta"] = {{"diameter", bl}, {"average_distance", bm}};
  }
  return j;
}

}  // namespace

IbtBroadcast plan_ibt_broadcast(const IbtArgs& a, const IbtTopology& t, json& j) {
  if (a.packets < 1 || a.packets > 64) throw IbtConfigError("--packets: k must be in 1..64");
  if (a.dim < 0 || a.dim >= t.dims()) throw IbtConfigError("--dim: must be in 0.." + std::to_string(t.dims() - 1));
  if (a.algo != "line" && a.algo != "rect" && a.algo != "global" && a.algo != "trees")
    throw IbtConfigError("--algo: line, rect, global or trees (got '" + a.algo + "')");
  // An option the algorithm does not read is refused (the run would not be the one asked for).
  const bool two_dims = a.algo == "rect" || a.algo == "trees";
  const auto only = [&](bool given, bool reads, const char* option, const char* algos) {
    if (given && !reads) throw IbtConfigError(std::string(option) + ": only with --algo " + algos + " (got " + a.algo + ")");
  };
  only(a.dim2 >= 0, two_dims, "--dim2", "rect or trees");
  only(a.split_range >= 0, a.algo == "rect", "--split-range", "rect");
  only(a.global_split > 0, a.algo == "global", "--global-split", "global");
  only(!a.pn.empty(), a.algo != "trees", "--pn", "line, rect or global");
  only(a.staged, a.algo == "rect", "--staged", "rect");
  // --dim2: the algorithms of two dimensions (on a network of d >= 2, which they check); not given,
  // 1, or 0 with --dim 1.
  const int dim2 = a.dim2 >= 0 ? a.dim2 : (a.dim == 1 ? 0 : 1);
  if (two_dims && t.dims() >= 2 && (dim2 >= t.dims() || dim2 == a.dim))
    throw IbtConfigError("--dim2: must be in 0.." + std::to_string(t.dims() - 1) + " and differ from --dim");
  const int split_range = a.split_range >= 0 ? a.split_range : 4;
  const int global_split = a.global_split > 0 ? a.global_split : 1;
  const std::string pn = a.pn.empty() ? "best" : a.pn;
  const int64_t s = parse_source(t, a.source);
  const int k = a.packets;
  if (global_split > k) throw IbtConfigError("--global-split: must be in 1..k = " + std::to_string(k));
  IbtBroadcast b;
  j = json{{"network", t.name()}, {"source", s}, {"packets", k}, {"algo", a.algo}};
  if (a.algo == "line") {
    const auto pns = pn_list(pn, {0, 1, 2, 3, 4, 5, 6, 7});
    const LineBest best = best_line(t, s, a.dim, k, pns);
    b = ibt_line(s, a.dim, k, best.pn);
    j["pn"] = best.pn;
  } else if (a.algo == "rect") {
    if (t.dims() < 2) throw IbtConfigError("--algo rect: needs d >= 2");
    const auto pns = pn_list(pn, {1, 3, 5, 7});
    const RectBest best = best_rectangular(t, s, a.dim, dim2, k, split_range, pns, a.staged);
    b = ibt_rectangular(s, a.dim, dim2, best.k1, best.k2, best.pn1, best.pn2);
    j["k1"] = best.k1;
    j["k2"] = best.k2;
    j["pn1"] = best.pn1;
    j["pn2"] = best.pn2;
  } else if (a.algo == "global") {
    if (t.dims() < 2) throw IbtConfigError("--algo global: needs d >= 2");
    b = global_plan(t, s, k, pn_list(pn, {1, 3, 5, 7}), global_split);
    std::vector<int> counts, pns;
    for (const auto& c : b.colours) {
      counts.push_back(c.count);
      pns.push_back(c.pn);
    }
    j["counts"] = counts;
    j["pns"] = pns;
  } else {  // trees (the algorithm was checked above)
    if (!t.is_torus() || t.dims() < 2) throw IbtConfigError("--algo trees: needs a torus:... network with d >= 2");
    b = torus_trees(s, a.dim, dim2, k);
  }
  return b;
}

namespace {

json run_bcast(const IbtArgs& a, std::ostream& out) {
  const IbtTopology t = make_ibt_topology(a);
  json j;
  const IbtBroadcast b = plan_ibt_broadcast(a, t, j);
  const int64_t s = b.source;
  const int k = b.packets;
  const auto t0 = std::chrono::steady_clock::now();
  const IbtSimResult r = simulate_broadcast(t, b);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  j["complete"] = r.complete;
  j["steps"] = r.steps;
  j["group_size"] = r.group_size;
  j["group_links"] = r.group_links;
  j["sends"] = r.sends;
  j["sends_per_step"] = r.sends_per_step;
  j["seconds_last_run"] = secs;
  out << t.name() << " " << a.algo << " k=" << k << " source " << s << ": T = " << r.steps
      << (r.complete ? "" : " (INCOMPLETE)") << ", " << r.sends << " sends";
  if (j.contains("pn")) out << ", pn " << j["pn"];
  if (j.contains("k1")) out << ", k1/k2 " << j["k1"] << "/" << j["k2"] << ", pn " << j["pn1"] << "/" << j["pn2"];
  if (j.contains("pns")) out << ", counts " << j["counts"].dump() << ", pn " << j["pns"].dump();
  out << "\n";
  if (a.algo == "line" && t.dims() >= 1)
    out << "eq. (4) torus line for n = " << t.n() << ": " << torus_line_steps(t.n(), k)
        << (t.n() % 2 ? " (the paper's form, stated for even n; T above is what this odd ring takes)" : "")
        << "\n";
  if (a.per_step) {
    for (int step = 1; step <= static_cast<int>(r.sends_per_step.size()); ++step) {
      char buf[96];
      std::snprintf(buf, sizeof buf, "step %4d  sends %10lld  utilization %.4f\n", step,
                    static_cast<long long>(r.sends_per_step[step - 1]), r.utilization(step));
      out << buf;
    }
  }
  return j;
}

}  // namespace

void register_ibt_options(CLI::App& app, IbtArgs& args) {
  app.require_subcommand(1);
  auto common = [&](CLI::App* sub) {
    sub->add_option("--net", args.net, "ibt:NxN[xN..] or torus:NxN[xN..] (equal sides n >= 3, d in 1..8)")->required();
    sub->add_option("--bypass", args.bypass,
                    "bypass vector b1,...,bk: positive multiples of d*k, each below n/2; n must be a multiple of d*k (default " +
                        std::string(kDefaultBypass) + ", ibt.bypass's)");
    sub->add_option("--json", args.json_file, "write the result as JSON to this file");
    sub->add_flag("--allow-half", args.allow_half,
                  "accept b_j = n/2: a node's two bypass links then join the same two nodes (the paper's iBT(64^2; <8,32>))");
  };
  CLI::App* topo = app.add_subcommand("topo", "degree, diameter and average distance (exact, over all N^2 ordered pairs)");
  common(topo);
  topo->add_option("--compare", args.compare, "torus: also Torus(n^d), Torus(m^(d+1)) with m = n^(d/(d+1)), alpha and beta");
  topo->callback([&] { args.command = "topo"; });
  CLI::App* bc = app.add_subcommand(
      "bcast",
      "pipelined k-packet broadcast on the step simulator (one packet per directed link per step). "
      "INTERPRETATION: a link skips packets its far node already holds or gets over a lower-numbered "
      "port in the same step; each link is first-come first-served, same-step arrivals ordered by "
      "arrival port");
  common(bc);
  bc->add_option("--algo", args.algo, "line (Sec. 4.1), rect (Sec. 5.1), global (Sec. 6.1), trees (torus, eqs. 5-6)");
  bc->add_option("--source", args.source, "source node id or coordinates x1,...,xd");
  bc->add_option("--dim", args.dim, "line dimension / first rectangle dimension (0-based)");
  bc->add_option("--dim2", args.dim2, "rect, trees: second rectangle dimension (0-based; default 1, or 0 with --dim 1)");
  bc->add_option("--packets,-k", args.packets, "k, packets per message (1..64)");
  bc->add_option("--pn", args.pn, "line, rect, global: Int(pn) packet-sending order code 0..15 (Bin = rRLl), or best (default)");
  bc->add_option("--split-range", args.split_range, "rect: search k1 with |k1 - k2| <= this (default 4)");
  bc->add_option("--global-split", args.global_split,
                 "global: search every split of k over the d colours whose counts differ by at most this (default 1: "
                 "the even split; INTERPRETATION, the paper names no search)");
  bc->add_flag("--staged", args.staged, "rect: choose pn by line broadcasts first, then search the split only");
  bc->add_flag("--per-step", args.per_step, "print sends and link utilization per step");
  bc->callback([&] { args.command = "bcast"; });
}

json ibt_command_json(const IbtArgs& args, std::ostream& out) {
  return args.command == "topo" ? run_topo(args, out) : run_bcast(args, out);
}

}  // namespace wormcast::sw
