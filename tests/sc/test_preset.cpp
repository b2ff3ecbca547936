// router.preset: booksim-iq supplies the keys it names unless the configuration gives them, and
// runs on the Verilog router too (its allocator, pipeline and dateline class rule).
#include <catch2/catch.hpp>

#include "systemc/common/config.h"
#include "systemc/torus/config.h"

using namespace wormcast;

TEST_CASE("preset: booksim-iq sets its keys unless given", "[sc]") {
  const Config c = load_config_text("p.yaml", "router:\n  preset: booksim-iq\n  link_delay: 3\n");
  REQUIRE(c.part<RouterConfig>().preset == RouterPreset::BooksimIq);
  REQUIRE(c.part<RouterConfig>().router_delay == 4);
  REQUIRE(c.part<RouterConfig>().link_delay == 3);  // given: the preset does not touch it
  REQUIRE(c.part<RouterConfig>().credit_delay == 1);
  REQUIRE(c.part<RouterConfig>().injection_credit_delay == 0);
  REQUIRE(c.part<RouterConfig>().injection_delay == 1);
  REQUIRE(c.part<RouterConfig>().ejection_delay == 1);
  REQUIRE(c.part<RouterConfig>().vc_realloc == VcRealloc::Tail);
  REQUIRE(c.part<RouterConfig>().allocator == RouterAllocator::Islip);
  REQUIRE(c.part<RouterConfig>().islip_iterations == 1);
  REQUIRE(c.traffic.tie == TiePolicy::Random);
  REQUIRE(c.part<RouterConfig>().pipeline == RouterPipeline::Staged);
  REQUIRE(c.part<RouterConfig>().vc_class == VcClassRule::Entry);
  REQUIRE(c.part<RouterConfig>().injection_vc == InjectionVc::Free);
  REQUIRE(c.part<RouterConfig>().switch_accept == SwitchAccept::Port);
  REQUIRE(c.part<RouterConfig>().ejection_credit_delay == 3);
  REQUIRE(c.echo()["router"]["preset"] == "booksim-iq");
  REQUIRE(c.echo()["router"]["pipeline"] == "staged");
  // Without the preset the defaults stand.
  const Config d = load_config_text("d.yaml", "");
  REQUIRE(d.part<RouterConfig>().router_delay == 1);
  REQUIRE(d.part<RouterConfig>().injection_delay == 0);
  REQUIRE(d.part<RouterConfig>().injection_credit_delay == -1);  // same: the NIC counts its credits as a router
  REQUIRE(d.part<RouterConfig>().allocator == RouterAllocator::InputFirst);
  REQUIRE(d.part<RouterConfig>().pipeline == RouterPipeline::Lumped);
  REQUIRE(d.part<RouterConfig>().vc_class == VcClassRule::Hop);
  REQUIRE(d.part<RouterConfig>().injection_vc == InjectionVc::Turn);
  REQUIRE(d.part<RouterConfig>().switch_accept == SwitchAccept::Vc);
  REQUIRE(d.part<RouterConfig>().ejection_credit_delay == 0);
  // An override on top of a preset given in the file wins too.
  const Config o = load_config_text("o.yaml", "router:\n  preset: booksim-iq\n", {{"router.allocator", "input-first"}});
  REQUIRE(o.part<RouterConfig>().allocator == RouterAllocator::InputFirst);
  REQUIRE(o.part<RouterConfig>().router_delay == 4);
}

TEST_CASE("preset: booksim-iq with RTL routers is not refused as SystemC only; not on the mway family", "[sc]") {
  // Every rule of the preset runs on the Verilog router; this program installs no RTL library, so
  // what it refuses is the library.
  try {
    load_config_text("p.yaml", "router:\n  preset: booksim-iq\n  model: rtl\n");
    FAIL("no error");
  } catch (const ConfigError& e) {
    REQUIRE(std::string(e.what()).find("SystemC only") == std::string::npos);
    REQUIRE(std::string(e.what()).find("unavailable in this program") != std::string::npos);
  }
  REQUIRE_THROWS_AS(load_config_text("m.yaml", "net:\n  family: mway\nrouter:\n  preset: booksim-iq\n"), ConfigError);
}

TEST_CASE("preset: the staged pipeline needs R >= 3; the entry class rule is not SystemC only", "[sc]") {
  REQUIRE_THROWS_AS(load_config_text("s.yaml", "router:\n  pipeline: staged\n  router_delay: 2\n"), ConfigError);
  REQUIRE(load_config_text("s.yaml", "router:\n  pipeline: staged\n  router_delay: 3\n").part<RouterConfig>().pipeline ==
          RouterPipeline::Staged);
  // The Verilog router has the entry rule (VcClassEntry); this program installs no RTL library, so
  // what it refuses is the library, not the rule.
  try {
    load_config_text("r.yaml", "router:\n  vc_class: entry\n  model: rtl\n");
    FAIL("no error");
  } catch (const ConfigError& e) {
    REQUIRE(std::string(e.what()).find("SystemC only") == std::string::npos);
    REQUIRE(std::string(e.what()).find("unavailable in this program") != std::string::npos);
  }
}
