// The paper's closed-form gossip times (Lemmas and Sec. 7.2's one-port forms), the lower bounds
// and the schedule labels the command prints.
#include <cmath>

#include "sw/gossip/closed_form.h"
#include "sw/gossip/tool/gossip_parts.h"

namespace wormcast::sw::gossip_tool {

namespace {

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
    // An Approach 2 phase: the sum before the paper's approximation where it is exact (n = 2^k),
    // else the approximation, and the label says so.
    const bool power_of_two = (n & (n - 1)) == 0;
    bool approximate = false;
    for (int p = 0; p < d; ++p) {
      const LineSpec& l = s.phases[size_t(p)];
      if (l.algo == LineAlgo::Circgos) return json();
      const double unit = std::pow(double(n), p);
      const bool sum = l.algo == LineAlgo::Approach2 && power_of_two;
      approximate |= l.algo == LineAlgo::Approach2 && !power_of_two;
      f.add("phase " + std::to_string(p), unit * (sum ? approach2_one_port_sum(n, r / unit) : line(l.algo, r / unit)));
    }
    source = approximate ? "Sec. 7.2 per phase (Sec. 4.3; approximate)" : "Sec. 7.2 per phase (Sec. 4.3)";
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

}  // namespace

/// Meshes: the paper prints no mesh closed form; Lemma 4 carried over to a linear array
/// (Approach 1: (n - 1)(1 + r), INTERPRETATION; Approach 2 unchanged, it uses no wrap-around
/// link), per phase for HIGH-DIM-GOS with Approach phases on n^d; null otherwise.
json closed_form_mesh_json(const GossipSpec& s, const Topology& t, double r) {
  const int n = t.radix(0), d = t.dims();
  for (int i = 1; i < d; ++i)
    if (t.radix(i) != n) return json();
  auto line = [&](LineAlgo a, double rr) { return a == LineAlgo::Approach1 ? approach1_line_time(n, rr) : approach2_time(n, rr); };
  ClosedForm f;
  if (s.algo == GossipAlgo::Approach1 || s.algo == GossipAlgo::Approach2) {
    f.add(gossip_algo_name(s.algo), line(s.algo == GossipAlgo::Approach1 ? LineAlgo::Approach1 : LineAlgo::Approach2, r));
  } else if (s.algo == GossipAlgo::HighDimGos) {
    const int colours = s.coloured ? d : 1;
    for (int p = 0; p < d; ++p) {
      if (s.phases[size_t(p)].algo == LineAlgo::Circgos) return json();
      const double unit = std::pow(double(n), p) / colours;
      f.add("phase " + std::to_string(p), unit * line(s.phases[size_t(p)].algo, r / unit));
    }
  } else {
    return json();
  }
  json j;
  j["source"] = "Lemma 4 on a linear array (INTERPRETATION)";
  j["total"] = f.total;
  for (const auto& [name, v] : f.phases) j["phases"][name] = v;
  return j;
}

json closed_form_json(const GossipSpec& s, const Topology& t, double r, HalfRule half) {
  if (!t.torus(0)) return closed_form_mesh_json(s, t, r);
  // The paper's forms are for n x ... x n tori; on unequal radices only the step-by-step cost
  // (each line with its own radix) is given: null, as on a mesh.
  for (int i = 1; i < t.dims(); ++i)
    if (t.radix(i) != t.radix(0)) return json();
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
  // A linear array's schedule runs on the ring too, so Theorem 1 bounds it as well.
  if (!t.torus(0)) j["mesh_corner"] = lower_bound_mesh_corner(nodes, t.dims());
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

}  // namespace wormcast::sw::gossip_tool
