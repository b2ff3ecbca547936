// Traffic patterns and the trace reader.
#include "tb/run/patterns.h"

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <fstream>

#include <fmt/format.h>

namespace wormcast {

int pattern_destination(const sw::Topology& t, const TrafficConfig& cfg, int src, SourceRng& rng,
                        const std::vector<int>& perm) {
  const int n = t.num_nodes();
  auto uniform = [&]() {
    if (n == 1) return src;
    int d = int(std::uniform_int_distribution<int>(0, n - 2)(rng));
    return d >= src ? d + 1 : d;  // never the source itself
  };
  sw::Coord c = t.coord(src), o = c;
  switch (cfg.pattern) {
    case Pattern::Uniform:
      return uniform();
    case Pattern::UniformAll:  // the source too (it goes through its own router, 0 hops)
      return int(std::uniform_int_distribution<int>(0, n - 1)(rng));
    case Pattern::Hotspot:
      if (rng.uniform01() < cfg.hotspot_fraction) {
        const size_t i = std::uniform_int_distribution<size_t>(0, cfg.hotspots.size() - 1)(rng);
        return cfg.hotspots[i];
      }
      return uniform();
    case Pattern::Transpose:  // reverse the coordinate order (needs equal radices; else wraps)
      for (int d = 0; d < t.dims(); ++d) o[d] = c[t.dims() - 1 - d] % t.radix(d);
      return t.node(o);
    case Pattern::BitComplement:
      for (int d = 0; d < t.dims(); ++d) o[d] = t.radix(d) - 1 - c[d];
      return t.node(o);
    case Pattern::Tornado:
      for (int d = 0; d < t.dims(); ++d) o[d] = (c[d] + (t.radix(d) + 1) / 2 - 1) % t.radix(d);
      return t.node(o);
    case Pattern::Neighbor:
      o[0] = (c[0] + 1) % t.radix(0);
      return t.node(o);
    case Pattern::BitReverse:
    case Pattern::Shuffle:
    case Pattern::Butterfly: {  // on the node id's b = log2 N bits
      int b = 0;
      while ((1 << b) < n) ++b;
      const unsigned x = unsigned(src);
      if (b == 0) return src;
      if (cfg.pattern == Pattern::Shuffle) return int(((x << 1) | (x >> (b - 1))) & unsigned(n - 1));
      if (cfg.pattern == Pattern::Butterfly) {  // swap the most and least significant bits
        const unsigned lo = x & 1u, hi = (x >> (b - 1)) & 1u;
        return int((x & ~(1u | (1u << (b - 1)))) | (lo << (b - 1)) | hi);
      }
      unsigned r = 0;
      for (int i = 0; i < b; ++i) r |= ((x >> i) & 1u) << (b - 1 - i);
      return int(r);
    }
    case Pattern::RandPerm:
      return perm[size_t(src)];
  }
  return src;
}

namespace {
/// The optional first line of a trace: the column names cycle,src,dst,len (any case, spaces
/// around them allowed); any other first line is read as data, and an invalid one is reported.
bool is_trace_header(const std::vector<std::string>& f) {
  static const char* const kNames[] = {"cycle", "src", "dst", "len"};
  if (f.size() != 4) return false;
  for (size_t i = 0; i < 4; ++i) {
    std::string x = f[i];
    x.erase(0, x.find_first_not_of(" \t"));
    x.erase(x.find_last_not_of(" \t") + 1);
    for (char& c : x) c = char(std::tolower(static_cast<unsigned char>(c)));
    if (x != kNames[i]) return false;
  }
  return true;
}
}  // namespace

std::vector<TraceEntry> read_traffic_trace(const std::string& path, int nodes) {
  struct stat st {};
  const bool exists = ::stat(path.c_str(), &st) == 0;
  if (exists && !S_ISREG(st.st_mode))
    throw ConfigError(fmt::format("config: traffic.trace = '{}' is not a regular file; allowed: a CSV file of "
                                  "cycle,src,dst,len lines",
                                  path));
  std::ifstream in(path);
  if (!exists || !in)
    throw ConfigError(fmt::format("config: traffic.trace = '{}' cannot be read; allowed: a readable CSV file of "
                                  "cycle,src,dst,len lines",
                                  path));
  std::vector<TraceEntry> v;
  std::string line;
  bool first = true;  // the first line that is not blank: it may be the header
  for (int no = 1; std::getline(in, line); ++no) {
    if (!line.empty() && line.back() == '\r') line.pop_back();  // a CRLF file
    if (line.empty() || line.find_first_not_of(" \t") == std::string::npos) continue;
    const auto f = split_list(line, ',');
    const bool header_place = first;
    first = false;
    if (header_place && is_trace_header(f)) continue;  // the optional header
    // Each number read as a configuration integer is (parse_int): decimal, no sign but a minus,
    // no leading zero or space, so that 010, +5, -0 and ' 5' are errors here too.
    auto field = [&](size_t i, long long lo, long long hi, const char* what) {
      try {
        return parse_int(what, f.at(i), lo, hi);
      } catch (...) {
        throw ConfigError(fmt::format("config: traffic.trace '{}' line {}: {} = '{}' is invalid; allowed: a decimal "
                                      "integer {}..{}, no spaces (a line is cycle,src,dst,len)",
                                      path, no, what, i < f.size() ? f[i] : "", lo, hi));
      }
    };
    if (f.size() != 4)
      throw ConfigError(fmt::format("config: traffic.trace '{}' line {}: expected cycle,src,dst,len", path, no));
    v.push_back(TraceEntry{uint64_t(field(0, 0, 1000000000000LL, "cycle")), int(field(1, 0, nodes - 1, "src")),
                           int(field(2, 0, nodes - 1, "dst")), uint32_t(field(3, 1, 1000000, "len"))});
  }
  std::stable_sort(v.begin(), v.end(), [](auto& a, auto& b) { return a.cycle < b.cycle; });
  return v;
}

}  // namespace wormcast
