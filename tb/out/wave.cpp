// GTKWave save files from a dump's declarations (tb/out/wave.h; the declarations are read by
// tb/out/vcd_info.cpp): the overview of a whole dump and the view that follows one packet.
#include "tb/out/wave.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "systemc/common/config.h"
#include "tb/out/gtkw.h"
#include "tb/out/wave_parts.h"

namespace wormcast {

namespace {

// Torus routers r_<x>_<y>..., m-way routers r_d<dim>_<x>_..., channels ch_<x>_..., node
// interfaces ni_<x>_...; channels and node interfaces have no port sub-groups. Compiled when first
// used (a run that writes no waveform does not pay for them).
const std::regex& unit_re() {
  static const std::regex re(R"(^(r|r_d\d+|ch|ni)(_\d+)+$)");
  return re;
}
const std::regex& port_re() {
  static const std::regex re(R"(^(in|out|credit_in|credit_out)_(\d+)$)");
  return re;
}
const std::regex& torus_router_re() {
  static const std::regex re(R"(^r((_\d+)+)$)");
  return re;
}
}  // namespace

namespace wave_detail {

namespace {
const char* const kFlitOrder[] = {"valid", "head", "tail", "tie", "vc",  "dst", "payload", "packet",
                                   "flit",  "drv",  "tag",  "buf", "ways", "ack"};

int flit_rank(const std::string& name) {
  int i = 0;
  for (const char* n : kFlitOrder) {
    if (name == n) return i;
    ++i;
  }
  return i;
}
}  // namespace

std::vector<const VcdVar*> by_field_order(std::vector<const VcdVar*> vars) {
  std::stable_sort(vars.begin(), vars.end(),
                   [](const VcdVar* x, const VcdVar* y) { return flit_rank(x->name) < flit_rank(y->name); });
  return vars;
}

std::string join(const std::vector<std::string>& parts, size_t n) {
  std::string s;
  for (size_t i = 0; i < n && i < parts.size(); ++i) s += (i ? "." : "") + parts[i];
  return s;
}

std::string signal_ref(const VcdVar& v) {
  std::string full = join(v.scopes, v.scopes.size());
  full += (full.empty() ? "" : ".") + v.name;
  if (v.width > 1) full += !v.range.empty() && v.range[0] == '[' ? v.range : fmt::format("[{}:0]", v.width - 1);
  return full;
}

void add_signal(GtkwWriter& w, const VcdVar& v) {
  if (v.width == 1)
    w.bit(signal_ref(v));
  else if (v.name == "ways" || v.name == "pc")  // a bit mask of the ways a channel drives; a core's program counter
    w.hex(signal_ref(v));
  else
    w.decimal(signal_ref(v));
}

const VcdVar* add_clock(GtkwWriter& w, const VcdInfo& info) {
  const VcdVar* clk = nullptr;
  for (const VcdVar& v : info.vars)
    if (v.name == "clk" && v.width == 1 && (!clk || v.scopes.size() < clk->scopes.size())) clk = &v;
  if (!clk) return nullptr;
  w.comment("clk: routers act at the rising edge, NICs at the falling edge");
  w.bit(signal_ref(*clk));
  return clk;
}

void set_view(GtkwWriter& w, const VcdInfo& info, uint64_t from, uint64_t to) {
  from = std::max(from, info.first);
  to = std::min(to, info.last);
  w.view(from * info.scale, to > from ? (to - from) * info.scale : 0);
}

void set_hop_view(GtkwWriter& w, const VcdInfo& info, uint64_t first_cycle, uint64_t last_cycle) {
  if (info.period == 0) return set_view(w, info, info.first, info.last);
  // Cycle c is at c periods of simulated time, whichever cycle the dump starts at (a --vcd-window
  // cuts the dump, not the time axis), plus the phase of the dump's first time stamp.
  const uint64_t phase = info.first % info.period;
  const uint64_t from = first_cycle > 2 ? first_cycle - 2 : 0;
  set_view(w, info, from * info.period + phase, (last_cycle + 8) * info.period + phase);
}

}  // namespace wave_detail

namespace {
using namespace wave_detail;

/// A port's name in the numbering of docs/router.md section 2 (port = 2*dim + dir, then an iBT's
/// bypass+ and bypass-, then the local ports): x+, x-, y+, y-, z+, ..., b+, b-, local.
/// `ports`: the router's port count, which tells whether it has the two bypass ports (an
/// all-port router has 2n network and 2n local ports, 4n, a one-port router 2n + 1; with the
/// bypass ports 2n + 2 network ports, so 4n + 4 all-port and 2n + 3 one-port).
std::string port_name(int p, int dims, int ports) {
  const int bypass = (ports == 4 * dims + 4 || ports == 2 * dims + 3) ? 2 : 0;
  if (p < 2 * dims) return (p / 2 < 4 ? std::string(1, "xyzw"[p / 2]) : "d" + std::to_string(p / 2)) + "+-"[p % 2];
  if (p < 2 * dims + bypass) return std::string("b") + "+-"[p - 2 * dims];
  const int locals = ports - 2 * dims - bypass;
  return locals == 1 ? "local" : fmt::format("local {}", p - 2 * dims - bypass);
}

/// A port wire's group label: its direction and port name, then the dump's name, e.g.
/// "in x+ (in_0)", "credit_out local (credit_out_4)".
std::string port_label(const std::string& kind, int p, int dims, int ports) {
  return fmt::format("{} {} ({}_{})", kind, port_name(p, dims, ports), kind, p);
}

/// The clock edge at which a router's port wire changes (docs/router.md section 3): the router
/// writes out_* and credit_out_* at the rising edge; in_* and credit_in_* are written by the
/// other end, a neighbour router at the rising edge or, on a local port, the NIC at the falling
/// edge.
const char* changes_at(const std::string& kind, bool local) {
  const bool by_nic = local && (kind == "in" || kind == "credit_in");
  return by_nic ? "changes at the falling edge (written by the NIC)"
                : "changes at the rising edge (written by a router)";
}

/// The payload's fields as their own rows (systemc/torus/flit.h: packet id in bits 31..8, flit
/// index in 7..0), next to the payload word.
void add_payload_fields(GtkwWriter& w, const VcdVar& v) {
  if (v.name != "payload" || v.width != 32) return;
  const std::string owner = v.scopes.empty() ? "" : v.scopes.back() + ".";
  w.bits_decimal(owner + "packet", signal_ref(v), 31, 8);
  w.bits_decimal(owner + "flit", signal_ref(v), 7, 0);
}

}  // namespace


std::string overview_save_file(const std::string& dump, const VcdInfo& info, const std::set<std::string>& only,
                               uint64_t cycles, int* groups) {
  struct Unit {
    std::string key, name;
    std::map<std::string, std::vector<const VcdVar*>> subs;  // "" holds a channel's own lines
  };
  std::vector<Unit> units;
  std::map<std::string, size_t> unit_of;
  std::vector<std::pair<std::string, std::vector<const VcdVar*>>> others;
  std::map<std::string, size_t> other_of;
  std::map<std::string, bool> unit_scope;  // scope name -> is a router, channel or node interface
  auto is_unit = [&](const std::string& scope) {
    auto it = unit_scope.find(scope);
    if (it == unit_scope.end()) it = unit_scope.emplace(scope, std::regex_match(scope, unit_re())).first;
    return it->second;
  };
  for (const VcdVar& v : info.vars) {
    size_t ri = v.scopes.size();
    for (size_t i = 0; i < v.scopes.size(); ++i)
      if (is_unit(v.scopes[i])) {
        ri = i;
        break;
      }
    if (ri == v.scopes.size()) {
      const std::string path = join(v.scopes, v.scopes.size());
      if (!other_of.count(path)) {
        other_of[path] = others.size();
        others.push_back({path, {}});
      }
      others[other_of[path]].second.push_back(&v);
      continue;
    }
    const std::string& name = v.scopes[ri];
    if (!only.empty() && !only.count(name)) continue;
    const std::string key = join(v.scopes, ri + 1);
    if (!unit_of.count(key)) {
      unit_of[key] = units.size();
      units.push_back({key, name, {}});
    }
    // A port wire (in_0 ...) or, inside a Verilated router, a module path; a channel's lines flat.
    std::string sub;
    if (v.scopes.size() > ri + 1) {
      for (size_t i = ri + 1; i < v.scopes.size(); ++i) sub += (i > ri + 1 ? "." : "") + v.scopes[i];
    } else if (name.compare(0, 3, "ch_") != 0 && name.compare(0, 3, "ni_") != 0) {  // a channel's lines stay flat
      sub = v.name;
    }
    units[unit_of[key]].subs[sub].push_back(&v);
  }
  GtkwWriter w(dump);
  const uint64_t span = info.period > 0 ? cycles * info.period : info.last - info.first;
  set_view(w, info, info.first, info.first + span);
  const VcdVar* clk = add_clock(w, info);
  for (const Unit& u : units) {
    const int dims = int(std::count(u.name.begin(), u.name.end(), '_'));
    int ports = 0;
    for (auto& [sub, vars] : u.subs) {
      std::smatch m;
      if (std::regex_match(sub, m, port_re()) && m[1].str() == "in") ports = std::max(ports, std::stoi(m[2].str()) + 1);
    }
    w.begin_group(u.name);
    // Ports in order (port number, then in, out, credit_in, credit_out), then the rest by name.
    std::vector<std::pair<std::tuple<int, int, int, std::string>, std::string>> order;
    for (auto& [sub, vars] : u.subs) {
      std::smatch m;
      if (std::regex_match(sub, m, port_re())) {
        const std::string kinds[] = {"in", "out", "credit_in", "credit_out"};
        const int kind = int(std::find(std::begin(kinds), std::end(kinds), m[1].str()) - std::begin(kinds));
        order.push_back({{0, std::stoi(m[2].str()), kind, ""}, sub});
      } else {
        order.push_back({{1, 0, 0, sub}, sub});
      }
    }
    std::sort(order.begin(), order.end());
    for (auto& [rank, sub] : order) {
      const auto vars = by_field_order(u.subs.at(sub));
      if (sub.empty()) {
        // An m-way channel's lines: all driven by the fabric's process at the rising edge.
        if (u.name.compare(0, 3, "ch_") == 0)
          w.comment("changes at the rising edge; tag 0 I (idle), 1 H, 2 B, 3 T; drv the driving device; packet, "
                    "flit: its flit's packet id and index (0 = header); drv, ways: " + mway_numbering(dims));
        for (const VcdVar* v : vars) add_signal(w, *v);
        continue;
      }
      std::string label = sub;
      std::smatch m;
      const bool port = std::regex_match(sub, m, port_re());
      if (port) label = port_label(m[1].str(), std::stoi(m[2].str()), dims, ports);
      w.begin_group(label);
      if (port)
        w.comment(changes_at(m[1].str(), port_name(std::stoi(m[2].str()), dims, ports).compare(0, 5, "local") == 0));
      for (const VcdVar* v : vars) {
        add_signal(w, *v);
        add_payload_fields(w, *v);
      }
      w.end_group(label);
    }
    w.end_group(u.name);
  }
  for (auto& [path, vars] : others) {
    const std::string name = path.empty() ? "top" : path;
    if (vars.size() == 1 && vars.front() == clk) continue;  // shown first already
    w.begin_group(name);
    for (const VcdVar* v : vars)
      if (v != clk) add_signal(w, *v);
    w.end_group(name);
  }
  if (groups) *groups = int(units.size());
  return w.text();
}

std::vector<HopRow> read_packet_hops(const std::string& path, uint64_t packet, int* max_router) {
  std::error_code ec;
  if (std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec))
    throw ConfigError(fmt::format("--trace '{}': not a regular file; allowed: the --trace CSV of a run", path));
  std::ifstream in(path);
  if (!in) throw ConfigError(fmt::format("--trace '{}': cannot read: {}; allowed: the --trace CSV of a run", path, std::strerror(errno)));
  std::string line;
  if (!std::getline(in, line)) throw ConfigError(fmt::format("--trace '{}': empty; allowed: the --trace CSV of a run", path));
  const auto head = split_list(line, ',');
  auto col = [&](const char* name) {
    const auto it = std::find(head.begin(), head.end(), name);
    if (it == head.end()) throw ConfigError(fmt::format("--trace '{}': no column '{}'; allowed: a --trace CSV", path, name));
    return size_t(it - head.begin());
  };
  const size_t c_cycle = col("cycle"), c_router = col("router"), c_in = col("in_port"), c_out = col("out_port"),
               c_vc = col("vc"), c_packet = col("packet"), c_head = col("head");
  std::vector<HopRow> hops;
  // Every row is checked, not only the packet's: a row cut short or a field that is not a number
  // means another file or a damaged one, whose hops (this packet's among them) cannot be trusted.
  std::vector<size_t> numbers = {c_cycle, c_router, c_in, c_out, c_vc, c_packet};
  for (const char* extra : {"flit"})
    if (const auto it = std::find(head.begin(), head.end(), extra); it != head.end()) numbers.push_back(size_t(it - head.begin()));
  std::vector<size_t> bits = {c_head};
  if (const auto it = std::find(head.begin(), head.end(), "tail"); it != head.end()) bits.push_back(size_t(it - head.begin()));
  size_t no = 1;
  while (std::getline(in, line)) {
    ++no;
    const auto f = split_list(line, ',');
    if (f.size() != head.size())
      throw ConfigError(fmt::format("--trace '{}' line {}: {} fields; allowed: {}, as the header names (the --trace "
                                    "CSV of a run)",
                                    path, no, f.size(), head.size()));
    // A number of the row: every character a decimal digit (a value the trace cannot hold is refused,
    // not read as 0).
    auto number = [&](size_t c) {
      uint64_t v = 0;
      const std::string& t = f[c];
      const auto [end, err] = std::from_chars(t.data(), t.data() + t.size(), v);
      if (t.empty() || err != std::errc() || end != t.data() + t.size() || v > uint64_t(1) << 40)
        throw ConfigError(fmt::format("--trace '{}' line {}: {} = '{}' is not a number of a hop; allowed: the --trace "
                                      "CSV of a run",
                                      path, no, head[c], t));
      return v;
    };
    for (size_t c : numbers) number(c);
    for (size_t c : bits)
      if (f[c] != "0" && f[c] != "1")
        throw ConfigError(fmt::format("--trace '{}' line {}: {} = '{}'; allowed: 0 or 1 (the --trace CSV of a run)",
                                      path, no, head[c], f[c]));
    if (max_router) *max_router = std::max(*max_router, int(number(c_router)));
    if (number(c_packet) != packet || f[c_head] != "1") continue;
    HopRow h;
    h.cycle = number(c_cycle);
    h.router = int(number(c_router));
    h.in_port = int(number(c_in));
    h.out_port = int(number(c_out));
    h.vc = int(number(c_vc));
    hops.push_back(h);
  }
  if (hops.empty()) throw ConfigError(fmt::format("--packet {}: no head flit of that packet in '{}'; allowed: a packet id of that trace", packet, path));
  std::stable_sort(hops.begin(), hops.end(), [](const HopRow& a, const HopRow& b) { return a.cycle < b.cycle; });
  return hops;
}

std::string packet_save_file(const std::string& dump, const VcdInfo& info, const std::vector<HopRow>& hops,
                             uint64_t packet, int* groups, const std::vector<int>& shape, int max_router) {
  // Router scopes r_<x>_<y>... name each router by its coordinates; the CSV's router ids are node
  // ids, mixed radix with dimension 0 fastest. The radix is the network's shape when given, else
  // that of a dump of every router (the largest coordinates + 1, with every router of that grid
  // present): a dump of some routers does not tell it.
  std::map<std::vector<int>, std::string> scope_of;
  std::vector<int> radix;
  std::map<std::string, std::vector<const VcdVar*>> wires;
  for (const VcdVar& v : info.vars) {
    wires[join(v.scopes, v.scopes.size())].push_back(&v);
    for (size_t i = 0; i < v.scopes.size(); ++i) {
      std::smatch m;
      if (!std::regex_match(v.scopes[i], m, torus_router_re())) continue;
      std::vector<int> coords;
      for (const auto& c : split_list(m[1].str().substr(1), '_')) coords.push_back(std::stoi(c));
      scope_of[coords] = join(v.scopes, i + 1);
      if (radix.empty()) radix.assign(coords.size(), 0);
      for (size_t k = 0; k < coords.size() && k < radix.size(); ++k) radix[k] = std::max(radix[k], coords[k] + 1);
    }
  }
  // The hops in the dump's cycles, where it has a clock: a packet the dump does not cover has no
  // view (a torus, ibt or m-way dump alike); a dump of declarations alone covers none.
  if (!info.timed)
    throw ConfigError(fmt::format("--packet {}: the dump holds no time stamp (its declarations only: a cut or "
                                  "unfinished file?); allowed: a dump whose cycles cover the packet's hops ({}..{})",
                                  packet, hops.front().cycle, hops.back().cycle));
  if (info.period > 0) {
    const uint64_t phase = info.first % info.period;
    const uint64_t first = (info.first - phase) / info.period, last = (info.last - phase) / info.period;
    if (hops.back().cycle < first || hops.front().cycle > last)
      throw ConfigError(fmt::format("--packet {}: its hops (cycles {}..{}) are outside the dump (cycles {}..{}); "
                                    "allowed: a packet the dump covers",
                                    packet, hops.front().cycle, hops.back().cycle, first, last));
  }
  if (scope_of.empty() && has_mway_channels(info)) {
    if (!shape.empty())
      throw ConfigError("--net: an m-way dump names its channels by coordinates, which place the trace's channel ids; "
                        "allowed: --net with a dump of torus or ibt routers");
    return mway_packet_save_file(dump, info, hops, packet, groups);
  }
  if (groups) *groups = int(hops.size());
  if (scope_of.empty())
    throw ConfigError(fmt::format("--packet {}: the dump has no torus router scopes (r_<x>_<y>...) or m-way channel "
                                  "scopes (ch_<x>_<y>...) to follow a packet through; allowed: a waveform of torus, "
                                  "ibt or mway routers", packet));
  int64_t nodes = 1;
  if (!shape.empty()) {
    for (const auto& [coords, name] : scope_of) {
      bool inside = coords.size() == shape.size();
      for (size_t k = 0; inside && k < coords.size(); ++k) inside = coords[k] < shape[k];
      if (!inside)
        throw ConfigError(fmt::format("--net: the dump's router {} is not a router of a {} network; allowed: the "
                                      "shape of the dump's network",
                                      name.substr(name.rfind('.') + 1), fmt::join(shape, "x")));
    }
    radix = shape;
  }
  for (int r : radix) nodes *= r;
  if (shape.empty() && int64_t(scope_of.size()) != nodes)
    throw ConfigError(fmt::format("--packet {}: the dump holds {} routers, not every router of a network (recorded "
                                  "with --vcd-routers?), so its shape, which places the trace's router ids, is "
                                  "unknown; allowed: --net SHAPE (e.g. torus:4x4) with a dump of some routers",
                                  packet, scope_of.size()));
  if (shape.empty() && max_router >= nodes)
    throw ConfigError(fmt::format("--packet {}: the trace names router {}, beyond the dump's {} routers (a {} grid): "
                                  "the dump holds some routers only (--vcd-routers), or the trace is another run's; "
                                  "allowed: the trace of the dump's run, with --net SHAPE (e.g. torus:4x4) for a dump "
                                  "of some routers",
                                  packet, max_router, scope_of.size(), fmt::join(radix, "x")));
  GtkwWriter w(dump);
  set_hop_view(w, info, hops.front().cycle, hops.back().cycle);
  add_clock(w, info);
  const int dims = int(radix.size());
  int k = 0;
  for (const HopRow& h : hops) {
    ++k;
    if (h.router >= nodes)
      throw ConfigError(fmt::format("--packet {}: router {} of hop {} is not a router of the {} network (0..{}); "
                                    "allowed: the trace of the dump's run",
                                    packet, h.router, k, fmt::join(radix, "x"), nodes - 1));
    std::vector<int> where;
    int node = h.router;
    for (int r : radix) {
      where.push_back(node % r);
      node /= r;
    }
    const auto it = scope_of.find(where);
    if (it == scope_of.end())
      throw ConfigError(fmt::format("--packet {}: router {} of hop {} is not in the dump (recorded with --vcd-routers?); allowed: a dump holding every router on the packet's path",
                                    packet, h.router, k));
    const std::string& base = it->second;
    const std::string router = base.substr(base.rfind('.') + 1);
    int ports = 0;
    while (wires.count(fmt::format("{}.in_{}", base, ports))) ++ports;
    for (const auto& [name, p] : {std::pair<const char*, int>{"in_port", h.in_port}, {"out_port", h.out_port}})
      if (p >= ports)
        throw ConfigError(fmt::format("--packet {}: {} {} of hop {} is not a port of {} (0..{}); allowed: the trace "
                                      "of the dump's run",
                                      packet, name, p, k, router, ports - 1));
    const std::string label = fmt::format("hop {}: cycle {} {} in {} -> out {}, vc {}", k, h.cycle, router,
                                          port_name(h.in_port, dims, ports), port_name(h.out_port, dims, ports), h.vc);
    w.begin_group(label, true);
    // The input wire the head arrived on and the output it left by, each a group of its own with
    // the edge it changes at, the flit's fields and the payload's packet id and flit index.
    for (const auto& [kind, p] : {std::pair<std::string, int>{"in", h.in_port}, {"out", h.out_port}}) {
      auto found = wires.find(fmt::format("{}.{}_{}", base, kind, p));
      if (found == wires.end()) continue;
      const std::string name = port_name(p, dims, ports);
      const std::string group = port_label(kind, p, dims, ports);
      w.begin_group(group, true);
      w.comment(changes_at(kind, name.compare(0, 5, "local") == 0));
      for (const VcdVar* v : by_field_order(found->second)) {
        add_signal(w, *v);
        add_payload_fields(w, *v);
      }
      w.end_group(group, true);
    }
    w.end_group(label, true);
  }
  return w.text();
}

}  // namespace wormcast
