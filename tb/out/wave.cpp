// GTKWave save files from a dump's declarations (tb/out/wave.h).
#include "tb/out/wave.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include <fmt/format.h>

#include "systemc/common/config.h"
#include "tb/out/gtkw.h"

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
const char* const kFlitOrder[] = {"valid", "head", "tail", "tie", "vc", "dst", "payload", "drv", "tag", "buf", "ways", "ack"};

int flit_rank(const std::string& name) {
  int i = 0;
  for (const char* n : kFlitOrder) {
    if (name == n) return i;
    ++i;
  }
  return i;
}

/// `vars` in the order of a flit's fields (valid, head, tail, ...), the others after them.
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

/// Lines of a dump: a VCD file, or the VCD that fst2vcd writes for an FST. The converter runs
/// without a shell (any character may be in the path), its output read through a pipe and its
/// messages kept in an unnamed temporary file for the error that names its failure.
class DumpReader {
 public:
  DumpReader(const std::string& option, const std::string& path) : m_option(option), m_path(path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
      throw ConfigError(fmt::format("{} '{}': cannot read: {}; allowed: a readable VCD or FST file", option, path, std::strerror(errno)));
    if (!S_ISREG(st.st_mode)) throw ConfigError(fmt::format("{} '{}': not a regular file; allowed: a VCD or FST file", option, path));
    m_size = uint64_t(st.st_size);
    if (path.size() > 4 && path.compare(path.size() - 4, 4, ".fst") == 0) {
      start_converter();
    } else {
      m_file = std::fopen(path.c_str(), "r");
      if (!m_file) throw ConfigError(fmt::format("{} '{}': cannot read: {}; allowed: a readable VCD or FST file", option, path, std::strerror(errno)));
    }
  }
  ~DumpReader() {
    std::free(m_buf);
    if (m_file) std::fclose(m_file);
    if (m_pid > 0) ::waitpid(m_pid, nullptr, 0);  // stopped early, it ends on a broken pipe
    if (m_errors) std::fclose(m_errors);
  }
  /// For a converted FST: waits for the converter and throws ConfigError naming its failure
  /// (its exit status and first message line); nothing for a VCD or a converter that succeeded.
  void check_converter() {
    if (m_pid <= 0) return;
    std::fclose(m_file);
    m_file = nullptr;
    int status = 0;
    const pid_t pid = m_pid;
    m_pid = 0;
    if (::waitpid(pid, &status, 0) < 0 || (WIFEXITED(status) && WEXITSTATUS(status) == 0)) return;
    std::string message;
    if (m_errors) {
      std::rewind(m_errors);
      char line[240];
      if (std::fgets(line, sizeof line, m_errors)) message = line;
      while (!message.empty() && (message.back() == '\n' || message.back() == '\r')) message.pop_back();
    }
    const std::string how = WIFEXITED(status) ? fmt::format("exit status {}", WEXITSTATUS(status))
                                              : fmt::format("signal {}", WTERMSIG(status));
    throw ConfigError(fmt::format("{} '{}': fst2vcd could not convert it ({}{}); allowed: an FST file fst2vcd reads, "
                                  "or a VCD",
                                  m_option, m_path, how, message.empty() ? "" : ": " + message));
  }
  bool line(std::string& out) {
    const ssize_t n = ::getline(&m_buf, &m_cap, m_file);
    if (n < 0) return false;
    out.assign(m_buf, size_t(n) - (n > 0 && m_buf[n - 1] == '\n' ? 1 : 0));
    return true;
  }
  /// The last time stamp: a VCD file is read from its last 64 KiB, a pipe to its end.
  uint64_t last_time(uint64_t fallback) {
    std::string l;
    uint64_t last = fallback;
    if (m_pid <= 0 && m_size > 65536) std::fseek(m_file, long(m_size - 65536), SEEK_SET);
    while (line(l))
      if (l.size() > 1 && l[0] == '#') last = std::strtoull(l.c_str() + 1, nullptr, 10);
    return last;
  }
  const std::string& path() const { return m_path; }
  const std::string& option() const { return m_option; }

 private:
  /// fst2vcd PATH with its standard output on a pipe read as m_file.
  void start_converter() {
    const std::string unavailable = fmt::format(
        "{} '{}': reading an FST needs fst2vcd (package gtkwave); allowed without it: a VCD", m_option, m_path);
    m_errors = std::tmpfile();
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) throw ConfigError(unavailable);
    // A path starting with '-' would read as an option of the converter.
    const std::string arg = m_path[0] == '-' ? "./" + m_path : m_path;
    std::vector<char*> argv{const_cast<char*>("fst2vcd"), const_cast<char*>(arg.c_str()), nullptr};
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
    if (m_errors)
      posix_spawn_file_actions_adddup2(&fa, fileno(m_errors), 2);
    else
      posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    const int err = ::posix_spawnp(&m_pid, argv[0], &fa, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    ::close(fds[1]);
    if (err != 0) {
      m_pid = 0;
      ::close(fds[0]);
      throw ConfigError(unavailable);
    }
    m_file = ::fdopen(fds[0], "r");
    if (!m_file) {
      ::close(fds[0]);
      throw ConfigError(unavailable);
    }
  }

  std::string m_option, m_path;
  uint64_t m_size = 0;
  FILE* m_file = nullptr;
  pid_t m_pid = 0;            ///< the converter, while it runs
  FILE* m_errors = nullptr;   ///< the converter's messages
  char* m_buf = nullptr;  ///< getline's buffer
  size_t m_cap = 0;
};

std::vector<std::string> words(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> w;
  for (std::string x; in >> x;) w.push_back(x);
  return w;
}

/// The view of cycles [from, to) of `info`'s clock (or of the whole dump without a clock).
void set_view(GtkwWriter& w, const VcdInfo& info, uint64_t from, uint64_t to) {
  from = std::max(from, info.first);
  to = std::min(to, info.last);
  w.view(from * info.scale, to > from ? (to - from) * info.scale : 0);
}

}  // namespace

VcdInfo read_vcd_info(const std::string& option, const std::string& path) {
  DumpReader in(option, path);
  VcdInfo info;
  std::vector<std::string> scopes;
  std::string l, decl;
  bool ended = false;
  // Declarations: $scope, $upscope, $var and $timescale, each possibly over several lines.
  while (!ended && in.line(l)) {
    decl += " " + l;
    if (decl.find("$end") == std::string::npos) continue;
    auto w = words(decl);
    decl.clear();
    for (size_t i = 0; i < w.size(); ++i) {
      if (w[i] == "$enddefinitions") {
        ended = true;
        break;
      }
      if (w[i] == "$scope" && i + 2 < w.size()) {
        // A scope name may hold dots (a Verilated model's top): each part is one level.
        std::vector<std::string> parts;
        std::stringstream ss(w[i + 2]);
        for (std::string p; std::getline(ss, p, '.');) parts.push_back(p);
        scopes.insert(scopes.end(), parts.begin(), parts.end());
        i += 2;
      } else if (w[i] == "$upscope") {
        if (!scopes.empty()) scopes.pop_back();
      } else if (w[i] == "$timescale") {
        std::string t;
        for (size_t k = i + 1; k < w.size() && w[k] != "$end"; ++k) t += w[k];
        info.scale = std::max<uint64_t>(1, std::strtoull(t.c_str(), nullptr, 10));
      } else if (w[i] == "$var" && i + 4 < w.size()) {
        VcdVar v;
        v.scopes = scopes;
        v.width = std::atoi(w[i + 2].c_str());
        v.id = w[i + 3];
        v.name = w[i + 4];
        if (i + 5 < w.size() && w[i + 5] != "$end") v.range = w[i + 5];
        info.vars.push_back(v);
        i += 4;
      }
    }
  }
  if (!ended) in.check_converter();  // a failed conversion is named as such, not as a bad VCD
  if (!ended) throw ConfigError(fmt::format("{} '{}': not a VCD (no $enddefinitions); allowed: a VCD or FST file", option, path));
  if (info.vars.empty()) throw ConfigError(fmt::format("{} '{}': no signals declared; allowed: a waveform with signals", option, path));
  // The first time stamps: the start and the clock's period (its first two rising edges).
  std::string clk_id;
  for (auto& v : info.vars)
    if (v.name == "clk" && v.width == 1) {
      clk_id = v.id;
      break;
    }
  bool have_first = false;
  uint64_t now = 0, rise1 = 0;
  int rises = 0;
  for (int n = 0; n < 200000 && in.line(l) && rises < 2; ++n) {
    if (l.size() > 1 && l[0] == '#') {
      now = std::strtoull(l.c_str() + 1, nullptr, 10);
      if (!have_first) info.first = now;
      have_first = true;
    } else if (!clk_id.empty() && l.size() == clk_id.size() + 1 && l[0] == '1' && l.compare(1, std::string::npos, clk_id) == 0) {
      if (rises++ == 0)
        rise1 = now;
      else
        info.period = now - rise1;
    }
  }
  info.last = in.last_time(now);
  in.check_converter();
  return info;
}

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
  for (const Unit& u : units) {
    const int dims = int(std::count(u.name.begin(), u.name.end(), '_'));
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
        for (const VcdVar* v : vars) add_signal(w, *v);
        continue;
      }
      std::string label = sub;
      std::smatch m;
      if (std::regex_match(sub, m, port_re())) {
        const int p = std::stoi(m[2].str());
        if (p < 2 * dims) {
          const int d = p / 2;
          label += fmt::format(" ({}{})", d < 4 ? std::string(1, "xyzw"[d]) : "d" + std::to_string(d), "+-"[p % 2]);
        } else {
          label += fmt::format(" (local {})", p - 2 * dims);
        }
      }
      w.begin_group(label);
      for (const VcdVar* v : vars) add_signal(w, *v);
      w.end_group(label);
    }
    w.end_group(u.name);
  }
  for (auto& [path, vars] : others) {
    const std::string name = path.empty() ? "top" : path;
    w.begin_group(name);
    for (const VcdVar* v : vars) add_signal(w, *v);
    w.end_group(name);
  }
  if (groups) *groups = int(units.size());
  return w.text();
}

std::vector<HopRow> read_packet_hops(const std::string& path, uint64_t packet) {
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
  const std::string want = std::to_string(packet);
  while (std::getline(in, line)) {
    const auto f = split_list(line, ',');
    if (f.size() < head.size() || f[c_packet] != want || f[c_head] != "1") continue;
    HopRow h;
    h.cycle = std::strtoull(f[c_cycle].c_str(), nullptr, 10);
    h.router = std::atoi(f[c_router].c_str());
    h.in_port = std::atoi(f[c_in].c_str());
    h.out_port = std::atoi(f[c_out].c_str());
    h.vc = std::atoi(f[c_vc].c_str());
    hops.push_back(h);
  }
  if (hops.empty()) throw ConfigError(fmt::format("--packet {}: no head flit of that packet in '{}'; allowed: a packet id of that trace", packet, path));
  std::stable_sort(hops.begin(), hops.end(), [](const HopRow& a, const HopRow& b) { return a.cycle < b.cycle; });
  return hops;
}

std::string packet_save_file(const std::string& dump, const VcdInfo& info, const std::vector<HopRow>& hops,
                             uint64_t packet) {
  // Router scopes r_<x>_<y>... give the radix of each dimension (node ids are mixed radix,
  // dimension 0 fastest), so the CSV's router ids map to scope names.
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
  if (scope_of.empty())
    throw ConfigError(fmt::format("--packet {}: the dump has no torus router scopes (r_<x>_<y>...) to follow a packet "
                                  "through; allowed: a waveform of torus or ibt routers", packet));
  GtkwWriter w(dump);
  if (info.period > 0) {
    const uint64_t from = hops.front().cycle > 2 ? hops.front().cycle - 2 : 0;
    set_view(w, info, info.first + from * info.period, info.first + (hops.back().cycle + 8) * info.period);
  } else {
    set_view(w, info, info.first, info.last);
  }
  int k = 0;
  for (const HopRow& h : hops) {
    ++k;
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
    const std::string label =
        fmt::format("hop {}: cycle {} {} in_{} -> out_{} vc {}", k, h.cycle, router, h.in_port, h.out_port, h.vc);
    w.begin_group(label, true);
    for (const std::string& port : {fmt::format("in_{}", h.in_port), fmt::format("out_{}", h.out_port)}) {
      auto found = wires.find(base + "." + port);
      if (found == wires.end()) continue;
      for (const VcdVar* v : by_field_order(found->second)) add_signal(w, *v);
    }
    w.end_group(label, true);
  }
  return w.text();
}

}  // namespace wormcast
