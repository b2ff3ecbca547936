// Host-side naming of topologies ("torus:8x8", "mesh:4x4", "torus,mesh:8x4") and its parser.
#include "sw/topology/path.h"

#include <stdexcept>

namespace wormcast::sw {

std::string describe(const Topology& t) {
  bool all_torus = true, all_mesh = true;
  for (int d = 0; d < t.dims(); ++d) (t.torus(d) ? all_mesh : all_torus) = false;
  std::string s;
  if (all_torus || all_mesh) {
    s = all_torus ? "torus" : "mesh";
  } else {
    for (int d = 0; d < t.dims(); ++d) s += std::string(d ? "," : "") + (t.torus(d) ? "torus" : "mesh");
  }
  s += ":";
  for (int d = 0; d < t.dims(); ++d) s += (d ? "x" : "") + std::to_string(t.radix(d));
  return s;
}

namespace {

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  for (;;) {
    const size_t p = s.find(sep, start);
    out.push_back(s.substr(start, p == std::string::npos ? std::string::npos : p - start));
    if (p == std::string::npos) return out;
    start = p + 1;
  }
}

}  // namespace

Topology parse_net(const std::string& text) {
  const std::string usage = "network '" + text +
                            "': expected torus:<k>x<k>[x...] or mesh:<k>x... (or torus,mesh:<k>x<k> "
                            "per dimension), 1-4 dimensions, each radix 2-4096 (no leading zero)";
  const size_t colon = text.find(':');
  if (colon == std::string::npos) throw std::invalid_argument(usage);
  const std::vector<std::string> kinds = split(text.substr(0, colon), ',');
  const std::vector<std::string> sizes = split(text.substr(colon + 1), 'x');
  const int dims = int(sizes.size());
  if (dims < 1 || dims > kMaxTorusDims) throw std::invalid_argument(usage);
  if (kinds.size() != 1 && int(kinds.size()) != dims) throw std::invalid_argument(usage);
  int radix[kMaxDims] = {1, 1, 1, 1};
  bool torus[kMaxDims] = {false, false, false, false};
  long long nodes = 1;
  for (int d = 0; d < dims; ++d) {
    const std::string& kind = kinds.size() == 1 ? kinds[0] : kinds[size_t(d)];
    if (kind == "torus") {
      torus[d] = true;
    } else if (kind != "mesh") {
      throw std::invalid_argument(usage);
    }
    const std::string& num = sizes[size_t(d)];
    // Digits only, no leading zero (as the configuration's integers: "08" is refused there too).
    if (num.empty() || num.size() > 4 || num.find_first_not_of("0123456789") != std::string::npos || num[0] == '0')
      throw std::invalid_argument(usage);
    radix[d] = std::stoi(num);
    if (radix[d] < 2 || radix[d] > 4096) throw std::invalid_argument(usage);
    nodes *= radix[d];
  }
  if (nodes > (1LL << 24)) throw std::invalid_argument("network '" + text + "': more than 2^24 nodes");
  return Topology(dims, radix, torus);
}

}  // namespace wormcast::sw
