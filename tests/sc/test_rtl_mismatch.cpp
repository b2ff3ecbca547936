// router.model = rtl on a configuration no Verilated build implements: the error is one short line
// naming the key that differs from the nearest build and the values the builds allow for it.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "systemc/common/config.h"
#include "systemc/torus/router_models.h"

using namespace wormcast;

namespace {

/// A library of builds that serves no configuration (find), listing the given builds.
void install_builds(std::vector<RtlBuild> builds) {
  RtlRouterLibrary lib;
  lib.find = [](const Config&) { return RouterMaker{}; };
  lib.builds = [builds] { return builds; };
  install_rtl_library(std::move(lib));
}

/// Eight builds, as many as rtl/configs.txt lists (their list made the old message 1,518 characters).
std::vector<RtlBuild> eight_builds() {
  std::vector<RtlBuild> v;
  const int depths[] = {4, 8, 2, 3, 4, 8, 4, 3};
  for (int i = 0; i < 8; ++i) {
    Config c = load_config_text("build", "net:\n  radix: 8x8\n");
    c.part<RouterConfig>().buffer_depth = depths[i];
    c.part<RouterConfig>().vcs_per_class = 1 + i % 2;
    v.push_back(RtlBuild{"build_" + std::to_string(i), c});
  }
  return v;
}

std::string refusal(const Overrides& ov) {
  try {
    rtl_router_maker(load_config_text("cfg", "", ov));
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("rtl mismatch: one key away names that key and the values the builds allow", "[sc]") {
  install_builds(eight_builds());
  const std::string m = refusal({{"router.buffer_depth", "6"}});
  INFO(m);
  REQUIRE(m.size() < 200);
  REQUIRE(m.find('\n') == std::string::npos);
  REQUIRE_THAT(m, Catch::StartsWith("config: router.buffer_depth = 6 has no Verilated build"));
  REQUIRE_THAT(m, Catch::Contains("allowed with the other keys as given: 4, 2 (rtl/configs.txt)"));
  REQUIRE_THAT(m, Catch::Contains("router.model = sc"));
}

TEST_CASE("rtl mismatch: several keys away names the nearest build and its values", "[sc]") {
  install_builds(eight_builds());
  const std::string m = refusal({{"net.radix", "6x6"}, {"router.link_delay", "2"}});
  INFO(m);
  REQUIRE(m.size() < 250);
  REQUIRE_THAT(m, Catch::StartsWith("config: router.model = rtl has no Verilated build for net.radix = 6x6 and 1 more key;"));
  REQUIRE_THAT(m, Catch::Contains("the nearest, build_0, has net.radix 8x8, router.link_delay 0"));
}

TEST_CASE("rtl mismatch: a program without builds allows sc only", "[sc]") {
  install_builds({});
  REQUIRE(refusal({{"router.model", "mixed"}}) ==
          "config: router.model = mixed has no Verilated build in this program; allowed: sc");
}

TEST_CASE("rtl mismatch: an ibt routing without a build names ibt.routing and the routings the builds have", "[sc]") {
  std::vector<RtlBuild> builds = eight_builds();
  for (const char* routing : {"bypass", "dor"})
    builds.push_back(RtlBuild{std::string("ibt_") + routing,
                              load_config_text("build", "", {{"net.family", "ibt"}, {"net.radix", "16x16"},
                                                             {"ibt.bypass", "4"}, {"ibt.routing", routing}})});
  install_builds(builds);
  const std::string m = refusal({{"net.family", "ibt"}, {"net.radix", "16x16"}, {"ibt.routing", "shortest"}});
  INFO(m);
  REQUIRE(m == "config: ibt.routing = shortest has no Verilated build (router.model = rtl); allowed with the other "
               "keys as given: bypass, dor (rtl/configs.txt), or router.model = sc");
  // A torus network never matches an ibt build of the same radix: the family is a build key.
  const Config ibt = builds.back().config;
  const Config torus = load_config_text("cfg", "", {{"net.radix", "16x16"}});
  REQUIRE(rtl_build_diff(ibt, torus) == std::vector<std::string>{"net.family", "net.topology", "ibt.bypass", "ibt.routing"});
  REQUIRE(rtl_build_diff(ibt, ibt).empty());
}
