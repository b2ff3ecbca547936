// The model's limit constants equal the RTL package's parameters (one source of truth each side,
// compared here so they cannot drift apart).
#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>

#include "systemc/common/limits.h"

namespace {
std::map<std::string, long> package_params() {
  std::ifstream in(std::string(WORMCAST_SOURCE_DIR) + "/rtl/wc_pkg.sv");
  REQUIRE(in.good());
  std::stringstream text;
  text << in.rdbuf();
  std::map<std::string, long> p;
  const std::string s = text.str();
  const std::regex re(R"(localparam\s+int\s+unsigned\s+(\w+)\s*=\s*(\d+)\s*;)");
  for (auto it = std::sregex_iterator(s.begin(), s.end(), re); it != std::sregex_iterator(); ++it)
    p[(*it)[1]] = std::stol((*it)[2]);
  return p;
}
}  // namespace

TEST_CASE("limits: the model's limits equal rtl/wc_pkg.sv (dims, ports, VCs, radix, nodes)", "[sw]") {
  auto p = package_params();
  using namespace wormcast::limits;
  REQUIRE(p.at("MaxDims") == kMaxDims);
  REQUIRE(p.at("MaxPorts") == kMaxPorts);
  REQUIRE(p.at("MaxVcs") == kMaxVcs);
  REQUIRE((1L << p.at("CoordW")) == kMaxRtlRadix);
  REQUIRE((1L << p.at("FlitDstW")) == kMaxRtlNodes);
  REQUIRE((1L << p.at("FlitVcW")) == kMaxVcs);
  REQUIRE(2 * kMaxVcsPerClass == kMaxVcs);
  REQUIRE(4 * kMaxDims == kMaxPorts);  // 2n network + 2n local ports (all-port)
}
