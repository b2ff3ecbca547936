// The strict input layer: decimal-only numbers and YAML loaded with one value per key, one
// document, and errors naming the key, line and column.
#include <catch2/catch.hpp>

#include <string>
#include <tuple>

#include "systemc/common/config.h"

using namespace wormcast;

namespace {
std::string load_error(const std::string& yaml) {
  try {
    load_config_text("c.yaml", yaml);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("strict input: integers are decimal, in range, never empty, octal, hex, signed '+' or padded", "[sc]") {
  const auto [text, ok, value] = GENERATE(table<std::string, bool, int64_t>({
      {"10", true, 10},
      {"0", true, 0},
      {"-3", true, -3},
      {"9223372036854775807", true, 9223372036854775807},
      {"010", false, 0},
      {"0x10", false, 0},
      {"+5", false, 0},
      {" 5", false, 0},
      {"5 ", false, 0},
      {"", false, 0},
      {"-", false, 0},
      {"5e2", false, 0},
      {"9223372036854775808", false, 0},
      {"99999999999999999999", false, 0},
  }));
  INFO("'" << text << "'");
  if (ok) {
    REQUIRE(parse_int("k", text, INT64_MIN, INT64_MAX) == value);
  } else {
    REQUIRE_THROWS_AS(parse_int("k", text, INT64_MIN, INT64_MAX), ConfigError);
  }
}

TEST_CASE("strict input: reals are finite decimal numbers in range", "[sc]") {
  const auto [text, ok] = GENERATE(table<std::string, bool>({
      {"0.1", true}, {"1e-100", true}, {"1", true}, {".5", true}, {"", false}, {"+0.1", false},
      {" 0.1", false}, {"0x1p-3", false}, {"nan", false}, {"inf", false}, {"1e999", false}, {"1.5", false},
      {"0.1.2", false}, {"e5", false},
  }));
  INFO("'" << text << "'");
  if (ok) {
    REQUIRE_NOTHROW(parse_real("k", text, 0.0, 1.0));
  } else {
    REQUIRE_THROWS_AS(parse_real("k", text, 0.0, 1.0), ConfigError);
  }
}

TEST_CASE("strict input: YAML shape errors name the key, the line and the column", "[sc]") {
  const auto [yaml, want] = GENERATE(table<std::string, std::string>({
      {"traffic:\n  rate: 0.1\n  rate: 0.2\n", "line 3 column 3: duplicate key 'traffic.rate'"},
      {"net:\n  radix: 4x4\nnet:\n  radix: 8x8\n", "line 3 column 1: duplicate section 'net'"},
      {"net:\n  radix: 4x4\n---\nnet:\n  radix: 8x8\n", "more than one YAML document"},
      {"net:\n  radix: [[8, 8]]\n", "line 2 column 11: net.radix must be a single value, not a list"},
      {"traffic:\n  rate: [0.1]\n", "traffic.rate must be a single value, not a list"},
      {"traffic:\n  rate:\n", "traffic.rate has an empty value"},
      {"traffic:\n  ? [a, b]\n  : 1\n", "line 2 column 5: a key of section 'traffic' must be a plain word"},
      {"- 1\n- 2\n", "expected a map of sections"},
      {"sim:\n  seed: 010\n", "sim.seed = '010' is invalid"},
      // A stray top-level ',' made the YAML library loop without end (found by the fuzz target).
      {",\n", "line 1 column 1: cannot be read as YAML here"},
      {"[a],\n", "cannot be read as YAML here"},
      {",,,,a: 1\n", "cannot be read as YAML here"},
  }));
  INFO(yaml);
  const std::string err = load_error(yaml);
  REQUIRE(err.find(want) != std::string::npos);
}

TEST_CASE("strict input: a list key still takes a flat YAML list", "[sc]") {
  const Config c = load_config_text("c.yaml", "net:\n  radix: [4, 6]\ntraffic:\n  hotspots: [1, 2]\n");
  REQUIRE(c.net.radix == std::vector<int>{4, 6});
  REQUIRE(c.traffic.hotspots == std::vector<int>{1, 2});
}
