// The m-way packet view (tb/out/wave.h, docs/mway.md section 12): the save file that follows one
// packet across the multiway channels of an m-way dump, made of the shared pieces of
// tb/out/wave_parts.h. A hop of the m-way --trace is one receiver of one channel crossing:
// router = the channel id, in_port = the driver number, out_port = the way, vc = the row of the
// receiving buffer set that wrote the flit.
#include <algorithm>
#include <map>
#include <regex>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "systemc/common/config.h"
#include "tb/out/gtkw.h"
#include "tb/out/wave.h"
#include "tb/out/wave_parts.h"

namespace wormcast {

using namespace wave_detail;

namespace {

const std::regex& channel_re() {
  static const std::regex re(R"(^ch((_\d+)+)$)");
  return re;
}

/// Number p on a channel of an n-dimensional fabric (docs/mway.md section 2.1): x+, x-, y+, y-,
/// z+, ..., node (p = 2n).
std::string way_name(int p, int dims) {
  if (p >= 2 * dims) return "node";
  return (p / 2 < 4 ? std::string(1, "xyzw"[p / 2]) : "d" + std::to_string(p / 2)) + "+-"[p % 2];
}

std::string suffix(const std::vector<int>& c) {
  std::string s;
  for (int x : c) s += "_" + std::to_string(x);
  return s;
}

/// The buffer set that is number p on channel c (section 2.1): as a receiver (way p) or as a
/// driver (Drv = p). Empty when no such set is wired (a border channel).
std::string set_name(const std::vector<int>& c, const std::vector<int>& radix, int p, bool driver) {
  const int dims = int(c.size());
  if (p == 2 * dims) return "ni" + suffix(c) + (driver ? ".inj" : ".ej");
  const int d = p / 2;
  const bool plus = p % 2 == 0;
  // The router's low channel: c itself when the set receives plus or drives minus, else c - e_d.
  std::vector<int> low = c;
  if (plus == driver) --low[size_t(d)];
  if (low[size_t(d)] < 0 || low[size_t(d)] + 1 >= radix[size_t(d)]) return "";
  return fmt::format("r_d{}{}.{}", d, suffix(low), plus ? "plus" : "minus");
}

}  // namespace

std::string wave_detail::mway_numbering(int dims) {
  std::string s;
  for (int p = 0; p <= 2 * dims; ++p) s += fmt::format("{}{} {}", p ? ", " : "", p, way_name(p, dims));
  return s;
}

bool has_mway_channels(const VcdInfo& info) {
  for (const VcdVar& v : info.vars)
    if (v.name == "tag" && !v.scopes.empty() && std::regex_match(v.scopes.back(), channel_re())) return true;
  return false;
}

std::string mway_packet_save_file(const std::string& dump, const VcdInfo& info, const std::vector<HopRow>& hops,
                                  uint64_t packet, int* groups) {
  // Channel scopes ch_<x>_<y>... give the radix of each dimension (channel ids are mixed radix,
  // dimension 0 fastest) and the fabric's scope, under which the buffer sets are.
  std::map<std::string, std::vector<const VcdVar*>> wires;
  std::vector<int> radix;
  std::string fabric;
  for (const VcdVar& v : info.vars) {
    wires[join(v.scopes, v.scopes.size())].push_back(&v);
    std::smatch m;
    if (v.scopes.empty() || !std::regex_match(v.scopes.back(), m, channel_re())) continue;
    std::vector<int> coords;
    for (const auto& c : split_list(m[1].str().substr(1), '_')) coords.push_back(std::stoi(c));
    if (radix.empty()) radix.assign(coords.size(), 0);
    for (size_t k = 0; k < coords.size() && k < radix.size(); ++k) radix[k] = std::max(radix[k], coords[k] + 1);
    fabric = join(v.scopes, v.scopes.size() - 1);
  }
  const std::string at = fabric.empty() ? "" : fabric + ".";
  const int dims = int(radix.size());
  // A dump of the RTL fabric holds the channels' lines only: its buffer tables are inside the
  // Verilated units (docs/rtl-mway.md). Its hops then show the lines and name the rows.
  static const std::regex row_re(R"(.*\.b[0-9]+$)");
  const bool tables = std::any_of(wires.begin(), wires.end(), [&](const auto& kv) {
    return kv.first.compare(0, at.size(), at) == 0 && std::regex_match(kv.first, row_re);
  });
  // One crossing: a cycle, a channel and its driver; its receivers (way, row) in the trace's order.
  using Crossing = std::tuple<uint64_t, int, int>;
  std::vector<std::pair<Crossing, std::vector<std::pair<int, int>>>> crossings;
  std::map<Crossing, size_t> index;
  for (const HopRow& h : hops) {
    const Crossing key{h.cycle, h.router, h.in_port};
    auto it = index.find(key);
    if (it == index.end()) {
      it = index.emplace(key, crossings.size()).first;
      crossings.push_back({key, {}});
    }
    crossings[it->second].second.emplace_back(h.out_port, h.vc);
  }
  auto coords_of = [&](int ch) {
    std::vector<int> c;
    for (int r : radix) {
      c.push_back(r > 0 ? ch % r : 0);
      ch = r > 0 ? ch / r : 0;
    }
    return c;
  };
  auto id_of = [&](const std::vector<int>& c) {
    int id = 0;
    for (size_t d = c.size(); d-- > 0;) id = id * radix[d] + c[d];
    return id;
  };
  auto driving_row = [&](const Crossing& x) {
    const auto& [cycle, ch, drv] = x;
    if (drv >= 2 * dims) return -1;
    int drives = 0;
    for (const auto& [other, r] : crossings) drives += std::get<1>(other) == ch && std::get<2>(other) == drv;
    // Driver 2d on c is the plus set fed by way 2d of c - e_d; driver 2d+1 the minus set fed by c + e_d.
    std::vector<int> up = coords_of(ch);
    up[size_t(drv / 2)] += drv % 2 ? 1 : -1;
    if (up[size_t(drv / 2)] < 0 || up[size_t(drv / 2)] >= radix[size_t(drv / 2)]) return -1;
    std::set<int> rows;
    for (const HopRow& h : hops)
      if (h.router == id_of(up) && h.out_port == drv && h.cycle < cycle) rows.insert(h.vc);
    return drives == 1 && rows.size() == 1 ? *rows.begin() : -1;
  };
  GtkwWriter w(dump);
  set_hop_view(w, info, hops.front().cycle, hops.back().cycle);
  add_clock(w, info);
  const std::string numbers = mway_numbering(dims);
  auto rows_of = [&](const std::string& path, int k, int ch) -> const std::vector<const VcdVar*>& {
    const auto it = wires.find(path);
    if (it == wires.end())
      throw ConfigError(fmt::format("--packet {}: '{}' of hop {} (channel {}) is not in the dump; allowed: a dump of "
                                    "the m-way run that wrote the trace",
                                    packet, path, k, ch));
    return it->second;
  };
  int k = 0;
  for (const auto& [key, receivers] : crossings) {
    ++k;
    const auto& [cycle, ch, drv] = key;
    std::vector<int> c;
    int rest = ch;
    for (int r : radix) {
      c.push_back(r > 0 ? rest % r : 0);
      rest = r > 0 ? rest / r : 0;
    }
    const std::string channel = "ch" + suffix(c);
    const std::string driver = set_name(c, radix, drv, true);
    if (radix.empty() || rest != 0 || driver.empty())
      throw ConfigError(fmt::format("--packet {}: channel {} driver {} of hop {} is not in the dump; allowed: the "
                                    "dump of the m-way run that wrote the trace",
                                    packet, ch, drv, k));
    std::string to;
    for (const auto& [way, row] : receivers)
      to += fmt::format("{}{} b{}", to.empty() ? "" : ", ", way_name(way, dims), row);
    const std::string label =
        fmt::format("hop {}: cycle {} {} drv {} ({}) -> {}", k, cycle, channel, way_name(drv, dims), driver, to);
    w.begin_group(label, true);
    // The channel's lines of this cycle, decoded: the packet id and flit index beside Drv and Tag.
    const std::string lines = "channel " + channel;
    w.begin_group(lines, true);
    w.comment(fmt::format("changes at the rising edge t (the lines of cycle t); tag 0 I, 1 H, 2 B, 3 T; drv, ways: {}",
                          numbers));
    for (const VcdVar* v : by_field_order(rows_of(at + channel, k, ch))) add_signal(w, *v);
    w.end_group(lines, true);
    if (!tables) {
      w.comment("the dump holds no buffer rows (the RTL fabric's tables are inside its units): the label names them");
      w.end_group(label, true);
      continue;
    }
    // The driving row: the one row of the driving set that received the header (way drv on the
    // upstream channel), when the set drives the packet once; otherwise (the injection set, a
    // replica or a header retried over several crossings) every row of the set, the one on the
    // channel's buf line driving.
    const int row = driving_row(key);
    const std::string out = row >= 0 ? fmt::format("out {} {}.b{}", way_name(drv, dims), driver, row)
                                     : fmt::format("out {} {}", way_name(drv, dims), driver);
    w.begin_group(out, true);
    w.comment(row >= 0 ? "drives on buf; Fptr advances at the rising edge t+1 that commits the crossing"
                       : "the row on buf drives; rows change at the rising edge (Fptr at the edge after the crossing)");
    for (int r = row >= 0 ? row : 0; row >= 0 ? r == row : wires.count(fmt::format("{}{}.b{}", at, driver, r)) > 0; ++r)
      for (const VcdVar* v : rows_of(fmt::format("{}{}.b{}", at, driver, r), k, ch)) add_signal(w, *v);
    w.end_group(out, true);
    for (const auto& [way, row] : receivers) {
      const std::string set = set_name(c, radix, way, false);
      if (set.empty())
        throw ConfigError(fmt::format("--packet {}: way {} of hop {} is not wired on channel {}; allowed: the trace "
                                      "of the m-way run that wrote the dump",
                                      packet, way, k, ch));
      const std::string in = fmt::format("in {} {}.b{}", way_name(way, dims), set, row);
      w.begin_group(in, true);
      w.comment("written at the rising edge t+1 that commits the crossing of cycle t");
      for (const VcdVar* v : rows_of(fmt::format("{}{}.b{}", at, set, row), k, ch)) add_signal(w, *v);
      w.end_group(in, true);
    }
    w.end_group(label, true);
  }
  if (groups) *groups = k;
  return w.text();
}

}  // namespace wormcast
