// The gossip command's options and their validation (one line naming the option, exit 2):
// --net, --r, --phases, --port and the algorithm with its parameters.
#include <algorithm>
#include <cmath>
#include <regex>

#include <CLI/CLI.hpp>

#include "sw/gossip/tool/gossip_parts.h"

namespace wormcast::sw {

namespace gossip_tool {

namespace {
LineSpec parse_phase(const std::string& text, int n);
}  // namespace

std::string str(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

std::vector<double> parse_r(const std::string& text) {
  std::vector<double> out;
  std::smatch m;
  try {
    if (std::regex_match(text, m, std::regex(R"((0|[1-9]\d*)\.\.(0|[1-9]\d*))"))) {
      const int lo = std::stoi(m[1]), hi = std::stoi(m[2]);
      if (lo > hi) throw GossipParamError("--r: range lo..hi needs lo <= hi (got " + text + ")");
      if (hi > kMaxRatio) throw std::invalid_argument("too large");
      for (int v = lo; v <= hi; ++v) out.push_back(v);
      return out;
    }
    size_t pos = 0;
    while (pos <= text.size()) {
      const size_t comma = text.find(',', pos);
      const std::string item = text.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
      // Decimal notation only: no sign, hex, spaces or leading zeros (010 is not octal 8).
      static const std::regex decimal(R"(((0|[1-9]\d*)(\.\d*)?|\.\d+)([eE][-+]?\d+)?)");
      if (!std::regex_match(item, decimal)) throw std::invalid_argument("bad");
      size_t used = 0;
      const double v = std::stod(item, &used);
      if (used != item.size() || !(v >= 0 && v <= kMaxRatio)) throw std::invalid_argument("bad");
      out.push_back(v);
      if (comma == std::string::npos) break;
      pos = comma + 1;
    }
  } catch (const GossipParamError&) {
    throw;
  } catch (const std::exception&) {
    throw GossipParamError("--r '" + text + "' is invalid; allowed: a finite decimal number r in 0.." + str(kMaxRatio) +
                           ", a list r1,r2,... of them or an integer range lo..hi within it");
  }
  return out;
}

Topology parse_gossip_net(const std::string& text) {
  if (text.empty()) throw GossipParamError("--net: required (ring:N, torus:NxN, torus:NxNxN, mesh:N, mesh:NxM, mesh:NxNxN)");
  std::string t = text;
  const bool ring = t.rfind("ring:", 0) == 0;
  if (ring) t = "torus:" + t.substr(5);
  try {
    const Topology topo = parse_net(t);
    if (ring && topo.dims() != 1) throw std::invalid_argument("");
    return topo;
  } catch (const std::invalid_argument& e) {
    // A ring is named as it was typed (it is read as a 1-D torus).
    if (ring) throw GossipParamError("--net: network '" + text + "': expected ring:<n> with n in 2..4096");
    throw GossipParamError(std::string("--net: ") + e.what() + "; or ring:<n> with n in 2..4096");
  }
}

namespace {
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
}  // namespace

PortModel port_model(const GossipArgs& a) {
  if (a.port == "one") return PortModel::OnePort;
  if (a.port == "all") return PortModel::AllPort;
  if (!a.port.empty()) throw GossipParamError("--port: must be all or one (got '" + a.port + "')");
  return a.algo == "approach1-1-bw" ? PortModel::OnePort : PortModel::AllPort;
}

void check_parameters(const GossipArgs& a) {
  if (std::isnan(a.hop) || a.hop > kMaxRatio)
    throw GossipParamError("--hop '" + str(a.hop) + "' is invalid; allowed: a finite decimal number 0.." + str(kMaxRatio));
  // The circulation's parameters: given for an algorithm that has none, or where they are chosen.
  const std::pair<const char*, bool> circ[] = {{"--a", a.a != 0}, {"--b", a.b >= 0}, {"--a2", a.a2 != 0}, {"--k", a.k != 0}};
  const bool circ_algo = a.algo == "circgos" || a.algo == "torgos" || a.algo == "cubgos";
  for (const auto& [option, given] : circ) {
    if (!given) continue;
    const std::string o = option;
    if (a.table)
      throw GossipParamError(o + ": not with --table; allowed: --table alone (it covers every algorithm with its own "
                                 "parameters), or " + o + " with one --algo circgos, torgos or cubgos");
    if (!circ_algo)
      throw GossipParamError(o + ": does not apply to --algo " + a.algo + "; allowed: " + o +
                             " only with --algo circgos, torgos or cubgos");
    if (a.search)
      throw GossipParamError(o + ": not with --search (the search chooses a and b); allowed: either --search or --a "
                                 "with --b or --k");
    if (o != "--a" && a.a == 0)
      throw GossipParamError(o + ": needs --a; allowed: " + o + " only together with --a");
  }
  if (a.b >= 0 && a.k != 0)
    throw GossipParamError("--k: given with --b (k = 2b - a + 2); allowed: either --b or --k");
  if (!a.phases.empty() && a.algo != "high-dim-gos")
    throw GossipParamError("--phases: does not apply to --algo " + a.algo +
                           "; allowed: --phases only with --algo high-dim-gos (approachI-J[-K] names its phases)");
  if (a.confirm && !a.search)
    throw GossipParamError("--confirm needs --search; allowed: --confirm only together with --search");
  if (a.divisors_only && !a.search)
    throw GossipParamError("--divisors-only needs --search; allowed: --divisors-only only together with --search");
  // The colours split a multi-dimensional algorithm's data by axis: the others have none to drop.
  const bool colours = a.algo == "torgos" || a.algo == "cubgos" || a.algo == "high-dim-gos" ||
                       std::regex_match(a.algo, std::regex(R"(approach[12](-[12])+)"));
  if (a.uncoloured && (a.table || !colours))
    throw GossipParamError("--uncoloured: does not apply to " + (a.table ? std::string("--table") : "--algo " + a.algo) +
                           "; allowed: --uncoloured only with --algo torgos, cubgos, high-dim-gos or approachI-J[-K]");
}

GossipSpec make_spec(const GossipArgs& a, const Topology& t) {
  GossipSpec s;
  s.ports = port_model(a);
  // One-port: uncoloured, as the paper's Fig. 6 implementations (a colour per axis would have a
  // PU send d messages in a step).
  s.coloured = !a.uncoloured && s.ports == PortModel::AllPort;
  std::smatch m;
  const int n = t.radix(0);
  // A phase's circulation is checked here against the radix of the axis it runs on (uncoloured:
  // phase f on axis f) or, coloured (every colour takes the phases along other axes), against the
  // largest; the generator then checks it on every axis it meets (gossip.cpp, check_circ).
  int largest = 0;
  for (int i = 0; i < t.dims(); ++i) largest = std::max(largest, t.radix(i));
  const auto phase_radix = [&](size_t f) { return s.coloured || int(f) >= t.dims() ? largest : t.radix(int(f)); };
  if (std::regex_match(a.algo, m, std::regex(R"(approach([12])((-[12])+))"))) {
    s.algo = GossipAlgo::HighDimGos;
    const std::string digits = m[1].str() + m[2].str();
    for (char c : digits)
      if (c != '-') s.phases.push_back(parse_phase(std::string(1, c), phase_radix(s.phases.size())));
    if (int(s.phases.size()) != t.dims())
      throw GossipParamError("--algo: " + a.algo + " names " + std::to_string(s.phases.size()) + " phases but --net has " + std::to_string(t.dims()) + " dimensions");
    return s;
  }
  s.algo = parse_gossip_algo(a.algo);
  if (s.algo == GossipAlgo::HighDimGos) {
    if (int(a.phases.size()) != t.dims())
      throw GossipParamError("--phases: high-dim-gos needs one of 1, 2, circgos:A:B per dimension (" + std::to_string(t.dims()) + ")");
    for (const std::string& p : a.phases) s.phases.push_back(parse_phase(p, phase_radix(s.phases.size())));
  }
  check_diagonal_net(t, s.algo);  // the network's shape first: no parameter fits a network that does not
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
      if (t.radix(i) != n) throw GossipParamError("--net: " + a.algo + " needs an n x ... x n torus or mesh (got " + describe(t) + ")");
    if (s.algo == GossipAlgo::Torgos && t.dims() != 2) throw GossipParamError("--net: torgos needs a 2-D torus or mesh n x n (got " + describe(t) + ")");
    if (s.algo == GossipAlgo::Cubgos && t.dims() < 2) throw GossipParamError("--net: cubgos needs a torus or mesh n^d, d >= 2 (got " + describe(t) + ")");
  }
  return s;
}

}  // namespace gossip_tool

using namespace gossip_tool;

void register_gossip_options(CLI::App& app, GossipArgs& a) {
  app.add_option("--net", a.net,
                 "ring:N, torus:NxN, torus:NxNxN, or a mesh: mesh:N (linear array), mesh:NxM, mesh:NxNxN (required). "
                 "On a mesh every line is a linear array; INTERPRETATION (the paper only says its ring results carry "
                 "over with minor modifications): Approach 1 takes n - 1 steps, the bridgeheads circulate in blocks "
                 "in a - 1 steps, the end pieces beyond the first and last bridgehead are filled from one side, and "
                 "TORGOS/CUBGOS concentrate aligned blocks and move them onto the diagonal in one more step "
                 "(docs/schedules.md); all-port only, no --search or --table");
  app.add_option("--algo", a.algo,
                 "approach1, approach2, circgos (rings, 1-D meshes); high-dim-gos (--phases) or approachI-J[-K] "
                 "(HIGH-DIM-GOS' with Approach I, J, K per phase); torgos (2-D n x n); cubgos (d-D n^d); "
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
  app.add_option("--r", a.r, "r = t_s / (l t_f), 0..1000000: a value, a list 2,10,50 or a range 2..250 (default 10)");
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
  app.add_option("--hop", a.hop, "t_d / (l t_f), 0..1000000: include the hop term of eq. 1 in the step-by-step cost");
  app.add_option("--max-nodes", a.max_nodes, "largest network whose schedule is materialized (default 4096)");
  app.add_flag("--check", a.check, "verify the schedule (exit 1 when it fails)");
  app.add_flag("--quiet", a.quiet, "no per-step lines");
  app.add_option("--json", a.json_file, "write the result as JSON");
}

std::vector<double> gossip_r_values(const GossipArgs& a) { return parse_r(a.r); }

void gossip_check_parameters(const GossipArgs& a) { check_parameters(a); }

PortModel gossip_port_model(const GossipArgs& a) { return port_model(a); }

}  // namespace wormcast::sw
