// The gossip command: options, validation (one line, exit 2), generation, verification,
// step-by-step and closed-form cost, (a, b) search and the paper's table comparisons as JSON.
#include "sw/gossip/tool/gossip_command.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <optional>
#include <regex>

#include <nlohmann/json.hpp>

#include "sw/gossip/closed_form.h"
#include "sw/gossip/gossip.h"
#include "sw/gossip/search.h"
#include "sw/schedule/cost.h"
#include "sw/schedule/verify.h"

namespace wormcast::sw {

using nlohmann::json;

namespace {

std::string str(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

std::vector<double> parse_r(const std::string& text) {
  std::vector<double> out;
  std::smatch m;
  try {
    if (std::regex_match(text, m, std::regex(R"((\d+)\.\.(\d+))"))) {
      const int lo = std::stoi(m[1]), hi = std::stoi(m[2]);
      if (lo > hi) throw GossipParamError("--r: range lo..hi needs lo <= hi (got " + text + ")");
      for (int v = lo; v <= hi; ++v) out.push_back(v);
      return out;
    }
    size_t pos = 0;
    while (pos <= text.size()) {
      const size_t comma = text.find(',', pos);
      const std::string item = text.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
      size_t used = 0;
      const double v = std::stod(item, &used);
      if (used != item.size() || !(v >= 0)) throw std::invalid_argument("bad");
      out.push_back(v);
      if (comma == std::string::npos) break;
      pos = comma + 1;
    }
  } catch (const GossipParamError&) {
    throw;
  } catch (const std::exception&) {
    throw GossipParamError("--r: expected r >= 0, a list r1,r2,... or an integer range lo..hi (got '" + text + "')");
  }
  return out;
}

Topology parse_gossip_net(const std::string& text) {
  if (text.empty()) throw GossipParamError("--net: required (ring:N, torus:NxN, torus:NxNxN)");
  std::string t = text;
  if (t.rfind("ring:", 0) == 0) t = "torus:" + t.substr(5);
  try {
    return parse_net(t);
  } catch (const std::invalid_argument& e) {
    throw GossipParamError(std::string("--net: ") + e.what());
  }
}

LineSpec parse_phase(const std::string& text, int n) {
  LineSpec s;
  std::smatch m;
  if (text == "1") {
    s.algo = LineAlgo::Approach1;
  } else if (text == "2") {
    s.algo = LineAlgo::Approach2;
  } else if (std::regex_match(text, m, std::regex(R"(circgos:(\d+):(\d+))"))) {
    s.algo = LineAlgo::Circgos;
    const int a = std::stoi(m[1]), b = std::stoi(m[2]);
    if (a < 2 || a > n) throw GossipParamError("--phases: circgos a must be in 2.." + std::to_string(n) + " (got " + text + ")");
    if (b < a / 2) throw GossipParamError("--phases: circgos b must be >= floor(a/2) = " + std::to_string(a / 2) + " (got " + text + ")");
    s.circ = CircParams::from_ab(a, b);
  } else {
    throw GossipParamError("--phases: each phase is 1, 2 or circgos:A:B (got '" + text + "')");
  }
  return s;
}

PortModel port_model(const GossipArgs& a) {
  if (a.port == "one") return PortModel::OnePort;
  if (a.port == "all") return PortModel::AllPort;
  if (!a.port.empty()) throw GossipParamError("--port: must be all or one (got '" + a.port + "')");
  return a.algo == "approach1-1-bw" ? PortModel::OnePort : PortModel::AllPort;
}

/// --algo names plus the "approachI-J[-K]" shorthand for HIGH-DIM-GOS' with approaches per phase.
GossipSpec make_spec(const GossipArgs& a, const Topology& t) {
  GossipSpec s;
  s.ports = port_model(a);
  // One-port: uncoloured, as the paper's Fig. 6 implementations (a colour per axis would have a
  // PU send d messages in a step).
  s.coloured = !a.uncoloured && s.ports == PortModel::AllPort;
  std::smatch m;
  const int n = t.radix(0);
  if (std::regex_match(a.algo, m, std::regex(R"(approach([12])((-[12])+))"))) {
    s.algo = GossipAlgo::HighDimGos;
    const std::string digits = m[1].str() + m[2].str();
    for (char c : digits)
      if (c != '-') s.phases.push_back(parse_phase(std::string(1, c), n));
    if (int(s.phases.size()) != t.dims())
      throw GossipParamError("--algo: " + a.algo + " names " + std::to_string(s.phases.size()) + " phases but --net has " + std::to_string(t.dims()) + " dimensions");
    return s;
  }
  s.algo = parse_gossip_algo(a.algo);
  if (s.algo == GossipAlgo::HighDimGos) {
    if (int(a.phases.size()) != t.dims())
      throw GossipParamError("--phases: high-dim-gos needs one of 1, 2, circgos:A:B per dimension (" + std::to_string(t.dims()) + ")");
    for (const std::string& p : a.phases) s.phases.push_back(parse_phase(p, n));
  }
  if (s.algo == GossipAlgo::Circgos || s.algo == GossipAlgo::Torgos || s.algo == GossipAlgo::Cubgos) {
    if (a.a == 0 && !a.search && !a.table) throw GossipParamError("--a: required for " + a.algo + " (2.." + std::to_string(n) + "), or use --search");
    if (a.a != 0) {
      if (a.a < 2 || a.a > n) throw GossipParamError("--a: must be in 2.." + std::to_string(n) + " (got " + std::to_string(a.a) + ")");
      const int a2 = a.a2 ? a.a2 : a.a;
      if (a2 < 2 || a2 > n) throw GossipParamError("--a2: must be in 2.." + std::to_string(n) + " (got " + std::to_string(a2) + ")");
      int k = a.k;
      if (k == 0) {
        if (a.b < 0) throw GossipParamError("--b: required with --a (b >= floor(a/2) = " + std::to_string(a.a / 2) + "), or give --k");
        if (a.b < a.a / 2) throw GossipParamError("--b: must be >= floor(a/2) = " + std::to_string(a.a / 2) + " (got " + std::to_string(a.b) + ")");
        k = 2 * a.b - a.a + 2;
      }
      if (k < 1) throw GossipParamError("--k: must be >= 1 (got " + std::to_string(k) + ")");
      s.circ = CircParams{a.a, a2, k};
    }
  }
  if ((s.algo == GossipAlgo::Torgos || s.algo == GossipAlgo::Cubgos) && a.a != 0) {
    for (int i = 0; i < t.dims(); ++i)
      if (t.radix(i) != n) throw GossipParamError("--net: " + a.algo + " needs an n x ... x n torus (got " + describe(t) + ")");
    if (s.algo == GossipAlgo::Torgos && t.dims() != 2) throw GossipParamError("--net: torgos needs a 2-D torus n x n (got " + describe(t) + ")");
    if (s.algo == GossipAlgo::Cubgos && t.dims() < 2) throw GossipParamError("--net: cubgos needs a torus n^d, d >= 2 (got " + describe(t) + ")");
  }
  return s;
}

double line_closed(const LineSpec& l, int n, double r, HalfRule half) {
  switch (l.algo) {
    case LineAlgo::Approach1: return approach1_time(n, r);
    case LineAlgo::Approach2: return approach2_time(n, r);
    case LineAlgo::Circgos:
      if (l.circ.a1 != l.circ.a2 || (l.circ.k + l.circ.a1) % 2) return NAN;  // not a Lemma 5 (a, b)
      if (l.circ.a1 == n) return approach1_time(n, r);
      return circgos_time(n, l.circ.a1, (l.circ.k + l.circ.a1 - 2) / 2, r, half).total;
  }
  return NAN;
}

/// The paper's closed form for `spec`, NaN when the paper gives none for it.
/// Sec. 7.2's one-port forms: Approach 1 and 2 on a ring, and per phase (scaled as in Sec. 4.3)
/// for HIGH-DIM-GOS with Approach 1/2 phases. The paper gives none for CIRCGOS, TORGOS and the
/// black/white Approach 1-1 ("a detailed analysis ... is omitted"): null.
json closed_form_one_port_json(const GossipSpec& s, const Topology& t, double r) {
  const int n = t.radix(0), d = t.dims();
  auto line = [&](LineAlgo a, double rr) {
    return a == LineAlgo::Approach1 ? approach1_one_port_time(n, rr) : approach2_one_port_time(n, rr);
  };
  ClosedForm f;
  std::string source;
  if (s.algo == GossipAlgo::Approach1 || s.algo == GossipAlgo::Approach2) {
    const LineAlgo a = s.algo == GossipAlgo::Approach1 ? LineAlgo::Approach1 : LineAlgo::Approach2;
    f.add(gossip_algo_name(s.algo), line(a, r));
    source = s.algo == GossipAlgo::Approach1 ? "Sec. 7.2" : "Sec. 7.2 (approximate)";
  } else if (s.algo == GossipAlgo::HighDimGos) {
    for (int p = 0; p < d; ++p) {
      const LineSpec& l = s.phases[size_t(p)];
      if (l.algo == LineAlgo::Circgos) return json();
      const double unit = std::pow(double(n), p);
      f.add("phase " + std::to_string(p), unit * line(l.algo, r / unit));
    }
    source = "Sec. 7.2 per phase (Sec. 4.3)";
  } else {
    return json();
  }
  json j;
  j["source"] = source;
  j["total"] = f.total;
  j["ports"] = "one";
  for (const auto& [name, v] : f.phases) j["phases"][name] = v;
  return j;
}

json closed_form_json(const GossipSpec& s, const Topology& t, double r, HalfRule half) {
  if (s.ports == PortModel::OnePort) return closed_form_one_port_json(s, t, r);
  const int n = t.radix(0), d = t.dims();
  const int colours = s.coloured ? d : 1;
  json j;
  ClosedForm f;
  std::string source;
  switch (s.algo) {
    case GossipAlgo::Approach1: f.add("approach1", approach1_time(n, r)); source = "Lemma 4"; break;
    case GossipAlgo::Approach2: f.add("approach2", approach2_time(n, r)); source = "Lemma 4"; break;
    case GossipAlgo::Circgos: {
      LineSpec l{LineAlgo::Circgos, s.circ};
      const double v = line_closed(l, n, r, half);
      if (std::isnan(v)) return json();
      if (s.circ.a1 == n) f.add("approach1", v);
      else f = circgos_time(n, s.circ.a1, (s.circ.k + s.circ.a1 - 2) / 2, r, half);
      source = "Lemma 5";
      break;
    }
    case GossipAlgo::HighDimGos: {
      bool all_approach = true;
      std::string digits;
      for (const LineSpec& l : s.phases) {
        all_approach = all_approach && l.algo != LineAlgo::Circgos;
        digits += l.algo == LineAlgo::Approach1 ? '1' : '2';
      }
      if (d == 2 && s.coloured && all_approach && digits != "12") {
        f.add("approach" + digits.substr(0, 1) + "-" + digits.substr(1), approach_ij_time(digits[0] - '0', digits[1] - '0', n, r));
        source = "Lemma 6";
        break;
      }
      // Sec. 4.3: phase f gossips packets of n^f (/ d coloured) along a ring: Lemmas 4 and 5 scaled.
      for (int p = 0; p < d; ++p) {
        const double unit = std::pow(double(n), p) / colours;
        const double v = unit * line_closed(s.phases[size_t(p)], n, r / unit, half);
        if (std::isnan(v)) return json();
        f.add("phase " + std::to_string(p), v);
      }
      source = "Lemmas 4/5 per phase (Sec. 4.3)";
      break;
    }
    case GossipAlgo::Torgos:
    case GossipAlgo::Cubgos: {
      if (s.circ.a1 != s.circ.a2 || (s.circ.k + s.circ.a1) % 2) return json();
      const int b = (s.circ.k + s.circ.a1 - 2) / 2;
      f = d == 2 ? torgos_time(n, s.circ.a1, b, r, half, colours) : cubgos_time(n, d, s.circ.a1, b, r, half, colours);
      source = d == 2 ? "Lemma 7" : "Lemma 9";
      if (d > 2 && s.coloured) j["theorem4"] = cubgos_theorem4(n, d, s.circ.a1, r);
      break;
    }
    case GossipAlgo::Approach11BlackWhite:
      return json();
  }
  j["source"] = source;
  j["total"] = f.total;
  j["half_rule"] = half == HalfRule::Half ? "a/2" : "floor(a/2)";
  for (const auto& [name, v] : f.phases) j["phases"][name] = v;
  return j;
}

json lower_bounds_json(const Topology& t, double r) {
  double nodes = t.num_nodes();
  json j;
  j["eq2"] = lower_bound_eq2(nodes, 2 * t.dims(), r);
  if (t.dims() == 1 && r > 0 && r <= (t.radix(0) - 1) / std::exp(1.0))
    j["theorem1_without_constant"] = lower_bound_theorem1(t.radix(0), r);
  return j;
}

std::string spec_label(const GossipSpec& s) {
  const std::string port = s.ports == PortModel::OnePort ? " one-port" : "";
  std::string out = gossip_algo_name(s.algo);
  if (s.algo == GossipAlgo::HighDimGos) {
    out += s.coloured ? "' [" : " [";
    for (size_t i = 0; i < s.phases.size(); ++i) {
      const LineSpec& l = s.phases[i];
      out += i ? " " : "";
      out += l.algo == LineAlgo::Approach1 ? "1" : l.algo == LineAlgo::Approach2 ? "2"
             : "circgos(" + std::to_string(l.circ.a1) + "," + std::to_string(l.circ.a2) + "," + std::to_string(l.circ.k) + ")";
    }
    return out + "]" + port;
  }
  if (s.algo == GossipAlgo::Torgos || s.algo == GossipAlgo::Cubgos) out += s.coloured ? "'" : "";
  if (s.algo == GossipAlgo::Circgos || s.algo == GossipAlgo::Torgos || s.algo == GossipAlgo::Cubgos)
    out += "(a1=" + std::to_string(s.circ.a1) + ", a2=" + std::to_string(s.circ.a2) + ", k=" + std::to_string(s.circ.k) + ")";
  return out + port;
}

/// Generated schedule with its verdict, reused for several r.
struct Built {
  GossipSchedule g;
  Verdict verdict;
  PortModel ports = PortModel::AllPort;  ///< the rule it was verified and is costed under
};

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

/// One comparison entry: closed form (searched or fixed parameters) plus the step-by-step cost of
/// the same parameters' schedule.
json entry(const std::string& name, const Topology& t, const GossipSpec& s, double r, double closed,
           const GossipArgs& a, const json& params) {
  json e;
  e["algo"] = name;
  e["params"] = params;
  e["closed_form"] = closed;
  e["label"] = spec_label(s);
  std::string why;
  if (auto b = build(t, s, a, why)) e["step_by_step"] = step_json(*b, r, a, false);
  else e["step_by_step_note"] = why;
  return e;
}

LineSpec circ_line(const SearchResult& w) {
  LineSpec l;
  if (w.approach1) l.algo = LineAlgo::Approach1;
  else {
    l.algo = LineAlgo::Circgos;
    l.circ = CircParams::from_ab(w.a, w.b);
  }
  return l;
}

json ab_json(const SearchResult& w) {
  if (w.approach1) return json{{"a", w.a}, {"b", nullptr}};
  return json{{"a", w.a}, {"b", w.b}};
}

/// A colour's share 1/d written with three decimals (0.333 for d = 3): the evaluation the paper's
/// Table 3 follows (docs/experiments.md).
double paper_share(int d) { return std::round(1000.0 / d) / 1000.0; }

/// Every algorithm of the paper's Table 1 (rings), 2 (2-D) or 3 (3-D) for one r.
json table_row(const Topology& t, double r, const GossipArgs& a) {
  const int n = t.radix(0), d = t.dims();
  json row;
  row["r"] = r;
  auto searched = [&](HalfRule h, bool div) {
    SearchOptions o;
    o.half = h;
    o.divisors_only = div;
    return o;
  };
  if (d == 1) {
    GossipSpec s1{GossipAlgo::Approach1, true, {}, {}};
    GossipSpec s2{GossipAlgo::Approach2, true, {}, {}};
    row["entries"].push_back(entry("approach1", t, s1, r, approach1_time(n, r), a, json::object()));
    row["entries"].push_back(entry("approach2", t, s2, r, approach2_time(n, r), a, json::object()));
    for (HalfRule h : {HalfRule::Half, HalfRule::Floor}) {
      const SearchResult w = search_circgos(n, r, searched(h, false));
      GossipSpec s{GossipAlgo::Circgos, true, {}, w.approach1 ? CircParams{n, n, 1} : CircParams::from_ab(w.a, w.b)};
      json e = entry(h == HalfRule::Half ? "circgos_search_half" : "circgos_search_floor", t, s, r, w.time, a, ab_json(w));
      row["entries"].push_back(e);
    }
    return row;
  }
  const bool cube = [&] {
    for (int i = 0; i < d; ++i)
      if (t.radix(i) != n) return false;
    return true;
  }();
  if (!cube) throw GossipParamError("--table: needs a ring or an n x ... x n torus (got " + describe(t) + ")");
  if (d == 2) {
    for (const char* ij : {"11", "21", "22"}) {
      GossipSpec s{GossipAlgo::HighDimGos, true, {}, {}};
      for (int p = 0; p < 2; ++p) s.phases.push_back(LineSpec{ij[p] == '1' ? LineAlgo::Approach1 : LineAlgo::Approach2, {}});
      row["entries"].push_back(entry(std::string("approach") + ij[0] + "-" + ij[1], t, s, r, approach_ij_time(ij[0] - '0', ij[1] - '0', n, r), a, json::object()));
    }
  } else {
    const HighDimResult hd = search_high_dim(n, d, r, false);
    GossipSpec s{GossipAlgo::HighDimGos, true, {}, {}};
    for (char c : hd.approaches) s.phases.push_back(LineSpec{c == '1' ? LineAlgo::Approach1 : LineAlgo::Approach2, {}});
    row["entries"].push_back(entry("high_dim_approaches", t, s, r, hd.time, a, json{{"approaches", hd.approaches}}));
    // The evaluation the paper's Table 3 follows (1/d written with three decimals, each phase
    // truncated to an integer); an explanation of its numbers, not our value.
    SearchOptions op;
    op.share = paper_share(d);
    op.floor_phases = true;
    const HighDimResult hp = search_high_dim(n, d, r, false, op);
    row["entries"].push_back(json{{"algo", "high_dim_approaches_share3_floor_phases"},
                                  {"params", json{{"approaches", hp.approaches}, {"share", op.share}}},
                                  {"closed_form", hp.time},
                                  {"step_by_step_note", "closed form only (evaluation variant)"}});
  }
  for (HalfRule h : {HalfRule::Half, HalfRule::Floor}) {
    const std::string tag = h == HalfRule::Half ? "half" : "floor";
    const HighDimResult hc = search_high_dim(n, d, r, true, searched(h, false));
    GossipSpec s{GossipAlgo::HighDimGos, true, {}, {}};
    json params = json::array();
    for (const SearchResult& w : hc.phases) {
      s.phases.push_back(circ_line(w));
      params.push_back(ab_json(w));
    }
    row["entries"].push_back(entry("high_dim_circgos_search_" + tag, t, s, r, hc.time, a, params));
    if (h == HalfRule::Half) {
      // The paper's evaluation of a = n in this column (see SearchOptions::lemma5_at_n).
      SearchOptions o5 = searched(h, false);
      o5.lemma5_at_n = true;
      const HighDimResult h5 = search_high_dim(n, d, r, true, o5);
      json p5 = json::array();
      for (const SearchResult& w : h5.phases) p5.push_back(ab_json(w));
      json e5{{"algo", "high_dim_circgos_search_half_lemma5_at_n"}, {"params", p5}, {"closed_form", h5.time},
              {"step_by_step_note", "closed form only (evaluation variant)"}};
      row["entries"].push_back(e5);
      if (d >= 3) {
        o5.share = paper_share(d);
        const HighDimResult hs = search_high_dim(n, d, r, true, o5);
        json ps = json::array();
        for (const SearchResult& w : hs.phases) ps.push_back(ab_json(w));
        row["entries"].push_back(json{{"algo", "high_dim_circgos_search_half_lemma5_at_n_share3"}, {"params", ps},
                                      {"share", o5.share}, {"closed_form", hs.time},
                                      {"step_by_step_note", "closed form only (evaluation variant)"}});
      }
    }
    for (bool div : {false, true}) {
      if (div && h == HalfRule::Half) continue;
      const SearchResult w = search_diagonal(n, d, r, d, searched(h, div));
      GossipSpec sd{d == 2 ? GossipAlgo::Torgos : GossipAlgo::Cubgos, true, {}, CircParams::from_ab(w.a, w.b)};
      row["entries"].push_back(entry(std::string(d == 2 ? "torgos'" : "cubgos'") + "_search_" + tag + (div ? "_divisors" : ""),
                                     t, sd, r, w.time, a, ab_json(w)));
    }
    if (d >= 3 && h == HalfRule::Half) {
      SearchOptions os = searched(h, false);
      os.share = paper_share(d);
      const SearchResult w = search_diagonal(n, d, r, d, os);
      row["entries"].push_back(json{{"algo", "cubgos'_search_half_share3"}, {"params", ab_json(w)},
                                    {"share", os.share}, {"closed_form", w.time},
                                    {"step_by_step_note", "closed form only (evaluation variant)"}});
    }
  }
  return row;
}

void write_json(const std::string& file, const json& j) {
  const std::string tmp = file + ".tmp";
  {
    std::ofstream f(tmp);
    if (!f) throw GossipParamError("--json: cannot write " + file);
    f << j.dump(2) << "\n";
  }
  if (std::rename(tmp.c_str(), file.c_str()) != 0) {
    std::remove(tmp.c_str());
    throw GossipParamError("--json: cannot write " + file);
  }
}

}  // namespace

void register_gossip_options(CLI::App& app, GossipArgs& a) {
  app.add_option("--net", a.net, "ring:N, torus:NxN or torus:NxNxN (required)");
  app.add_option("--algo", a.algo,
                 "approach1, approach2, circgos (rings); high-dim-gos (--phases) or approachI-J[-K] "
                 "(HIGH-DIM-GOS' with Approach I, J, K per phase); torgos (2-D); cubgos (d-D); "
                 "approach1-1-bw (n x n, n even: the black/white Approach 1-1 of Fig. 6, one-port)");
  app.add_option("--port", a.port,
                 "all (default) or one: Sec. 7.2's one-port variants (a PU sends one and receives one message "
                 "per step: binary concentration, Approach 1 in one direction for n - 1 steps, the Phase 3/4a "
                 "fill streamed rightwards only; uncoloured), verified under the one-port rule and costed with "
                 "a PU's sends and receipts of a step adding up (Approach 1: (n-1)(2+2r)); the default for "
                 "approach1-1-bw is one. INTERPRETATION: beyond Approach 1 and the binary concentration the "
                 "paper gives no details; the circulation, fill and black/white 2x2 scheme are ours "
                 "(docs/schedules.md)");
  app.add_option("--phases", a.phases, "high-dim-gos: one of 1, 2, circgos:A:B per dimension")->delimiter(',');
  app.add_option("--r", a.r, "r = t_s / (l t_f): a value, a list 2,10,50 or a range 2..250 (default 10)");
  app.add_option("--a", a.a, "CIRCGOS/TORGOS/CUBGOS: number of bridgeheads a (a1), 2..n");
  app.add_option("--b", a.b, "steps per round of Phase 3 (4a), b >= floor(a/2); k = 2b - a + 2");
  app.add_option("--a2", a.a2, "three-parameter form (Sec. 7.2): growth factor per round (default a)");
  app.add_option("--k", a.k, "three-parameter form: packets per round (instead of --b)");
  app.add_flag("--search", a.search, "find the best (a, b) from the closed forms (and cost the winner step by step)");
  app.add_flag("--table", a.table, "every algorithm of the paper's Table 1/2/3 for this network, per r (JSON)");
  app.add_flag("--confirm", a.confirm, "with --search and several r: cost every winner step by step too");
  app.add_flag("--uncoloured", a.uncoloured, "uniaxial TORGOS/CUBGOS/HIGH-DIM-GOS (no split of the data into d colours)");
  app.add_flag("--half", a.half, "evaluate floor(a/2) of Lemmas 5, 7, 9 as a/2 (how the paper's tables are computed)");
  app.add_flag("--divisors-only", a.divisors_only, "search only a dividing n (what the torus generators accept)");
  app.add_option("--hop", a.hop, "t_d / (l t_f): include the hop term of eq. 1 in the step-by-step cost");
  app.add_option("--max-nodes", a.max_nodes, "largest network whose schedule is materialized (default 4096)");
  app.add_flag("--check", a.check, "verify the schedule (exit 1 when it fails)");
  app.add_flag("--quiet", a.quiet, "no per-step lines");
  app.add_option("--json", a.json_file, "write the result as JSON");
}

json gossip_command_json(const GossipArgs& a, std::ostream& out, int& code) {
  {
    const Topology t = parse_gossip_net(a.net);
    const std::vector<double> rs = parse_r(a.r);
    if (a.max_nodes < 1) throw GossipParamError("--max-nodes: must be >= 1");
    const HalfRule half = a.half ? HalfRule::Half : HalfRule::Floor;
    json j;
    j["net"] = describe(t);
    j["nodes"] = t.num_nodes();
    code = 0;
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
        if (a.check) {
          out << format_verdict(b->g.schedule, b->verdict);
          j["check"] = {{"ok", b->verdict.ok()}, {"complete", b->verdict.complete}, {"chunk_causal", b->verdict.chunk_causal},
                        {"overlap_free", b->verdict.stepwise_contention_free}, {"errors", b->verdict.errors}};
          if (b->verdict.one_port_checked) j["check"]["one_port"] = b->verdict.one_port;
          if (!b->verdict.ok()) code = 1;
        }
      }
    }
    return j;
  }
}

int run_gossip_command(const GossipArgs& a, std::ostream& out, std::ostream& err, const std::string& program) {
  try {
    int code = 0;
    const json j = gossip_command_json(a, out, code);
    if (!a.json_file.empty()) write_json(a.json_file, j);
    return code;
  } catch (const GossipParamError& e) {
    err << program << ": " << e.what() << "\n";
    return 2;
  }
}

std::vector<double> gossip_r_values(const GossipArgs& a) { return parse_r(a.r); }

PortModel gossip_port_model(const GossipArgs& a) { return port_model(a); }

GossipSchedule gossip_schedule(const GossipArgs& a, double r) {
  if (a.table) throw GossipParamError("--table: names several schedules; give one --algo instead");
  const Topology t = parse_gossip_net(a.net);
  GossipSpec spec = make_spec(a, t);
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

void write_gossip_json(const std::string& file, const json& j) { write_json(file, j); }

}  // namespace wormcast::sw
