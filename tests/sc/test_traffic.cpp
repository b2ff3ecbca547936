// Synthetic traffic: the destination maps of the bit patterns and randperm, a source's uniform
// draws against the standard distribution, the arrival process's rate beyond its wheel, packet-length
// distributions (support and mean), on/off bursts (mean load), trace-driven injection at exact
// cycles, and the refusal of patterns a network cannot have.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tb/cli/commands.h"
#include "tb/run/traffic.h"
#include "tests/sc/harness.h"

using namespace wormcast;

namespace {

using test::cli;

/// Per packet of a --deliveries CSV: (first cycle, last cycle, flits, src, node).
struct Seen {
  uint64_t first = ~uint64_t(0), last = 0;
  uint32_t flits = 0;
  int src = -1, node = -1;
};
std::map<uint64_t, Seen> deliveries(const std::string& path) {
  std::ifstream in(path);
  REQUIRE(in.good());
  std::map<uint64_t, Seen> m;
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::istringstream ss(line);
    std::string f[6];
    for (auto& x : f) std::getline(ss, x, ',');
    Seen& s = m[std::stoull(f[3])];
    const uint64_t c = std::stoull(f[0]);
    s.first = std::min(s.first, c);
    s.last = std::max(s.last, c);
    ++s.flits;
    s.src = std::stoi(f[2]);
    s.node = std::stoi(f[1]);
  }
  return m;
}

}  // namespace

TEST_CASE("traffic: bitrev, shuffle and butterfly destination maps on 16 nodes", "[sc]") {
  const Config cfg = test::config_for("4x4", "torus");
  const sw::Topology t = cfg.net.topology();
  std::mt19937_64 twister(1);
  SourceRng rng(&twister);
  TrafficConfig tc = cfg.traffic;
  auto map = [&](Pattern p, int s) {
    tc.pattern = p;
    return pattern_destination(t, tc, s, rng);
  };
  // 4 bits: 0b0001 -> bitrev 0b1000, shuffle (rotate left) 0b0010, butterfly (swap bits 3 and 0) 0b1000.
  CHECK(map(Pattern::BitReverse, 1) == 8);
  CHECK(map(Pattern::BitReverse, 6) == 6);
  CHECK(map(Pattern::BitReverse, 11) == 13);
  CHECK(map(Pattern::Shuffle, 1) == 2);
  CHECK(map(Pattern::Shuffle, 9) == 3);
  CHECK(map(Pattern::Shuffle, 15) == 15);
  CHECK(map(Pattern::Butterfly, 1) == 8);
  CHECK(map(Pattern::Butterfly, 9) == 9);
  CHECK(map(Pattern::Butterfly, 14) == 7);
  for (Pattern p : {Pattern::BitReverse, Pattern::Shuffle, Pattern::Butterfly}) {  // each a permutation
    std::set<int> image;
    for (int s = 0; s < 16; ++s) image.insert(map(p, s));
    CHECK(image.size() == 16);
  }
}

namespace {

/// A generator that gives one fixed number (the whole 64-bit range, as a source's stream).
struct FixedNumber {
  using result_type = uint64_t;
  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return ~uint64_t(0); }
  uint64_t x;
  result_type operator()() { return x; }
};

}  // namespace

TEST_CASE("traffic: a source's uniform draw is the standard distribution's, value for value", "[sc]") {
  // The numbers where the conversion rounds: ties at the 53-bit boundary, the top bit, values that
  // round up to 2^64 (and so to the largest double below 1).
  std::vector<uint64_t> xs = {0, 1, (uint64_t(1) << 53) - 1, (uint64_t(1) << 53) + 1, (uint64_t(1) << 54) + 2,
                              (uint64_t(1) << 63) - 1, uint64_t(1) << 63, (uint64_t(1) << 63) + 1,
                              (uint64_t(1) << 63) + (uint64_t(1) << 10), (uint64_t(1) << 63) + (uint64_t(1) << 10) + 1,
                              ~uint64_t(0) - (uint64_t(1) << 10), ~uint64_t(0) - (uint64_t(1) << 10) + 1,
                              ~uint64_t(0) - 1, ~uint64_t(0)};
  std::mt19937_64 pick(7);
  for (int i = 0; i < 100000; ++i) xs.push_back(pick());
  for (uint64_t x : xs) {
    FixedNumber a{x}, b{x};
    const double want = std::uniform_real_distribution<double>(0.0, 1.0)(a);
    INFO("x = " << x);
    REQUIRE(SourceRng::unit_of(x) == want);
    REQUIRE(SourceRng::unit_of(x) == std::generate_canonical<double, 53>(b));
    REQUIRE(SourceRng::unit_of(x) < 1.0);
  }
  // Through a source's handle, both kinds of stream: the same values and the same draws.
  std::mt19937_64 t1(11), t2(11);
  uint64_t c1 = SourceRng::start(5, 3), c2 = c1;
  SourceRng a(&t1), b(&t2), ca(&c1), cb(&c2);
  for (int i = 0; i < 10000; ++i) {
    REQUIRE(a.uniform01() == std::uniform_real_distribution<double>(0.0, 1.0)(b));
    REQUIRE(ca.uniform01() == std::uniform_real_distribution<double>(0.0, 1.0)(cb));
  }
  CHECK(t1() == t2());
  CHECK(c1 == c2);
}

// At 0.0002 packets per node and cycle, nearly half the gaps reach past the arrivals' wheel (4096
// cycles) into its heap: the mean load holds (3,200 expected over 16 nodes and a million cycles;
// +-8 % is over four standard deviations).
TEST_CASE("traffic: arrivals beyond the wheel keep the Bernoulli rate", "[sc]") {
  const std::string out = "traffic_wheel.json";
  REQUIRE(cli({"traffic", "--net", "torus:4x4", "--rate", "0.0002", "--len", "1", "--warmup", "0", "--measure",
               "1000000", "--set", "sim.progress=off", "--json", out}) == 0);
  std::ifstream in(out);
  const auto j = nlohmann::json::parse(in);
  std::remove(out.c_str());
  const double packets = j["packets"]["injected"].get<double>();
  CHECK(packets > 3200 * 0.92);
  CHECK(packets < 3200 * 1.08);
  CHECK(j["packets"]["delivered"] == j["packets"]["injected"]);
}

namespace {

/// Deliveries of a 20,000-cycle 4x4 torus run at 0.1 with traffic.sizes = `sizes`.
auto sized_run(const std::string& sizes, const std::string& csv) {
  REQUIRE(cli({"traffic", "--net", "torus:4x4", "--rate", "0.1", "--warmup", "0", "--measure", "20000", "--set",
               "traffic.sizes=" + sizes, "--set", "sim.progress=off", "--deliveries", csv}) == 0);
  auto d = deliveries(csv);
  std::remove(csv.c_str());
  return d;
}

}  // namespace

TEST_CASE("traffic: a packet-size mix has exactly its support and its mean", "[sc]") {
  const auto d = sized_run("2:0.25,10:0.75", "traffic_sizes.csv");
  REQUIRE(d.size() > 1000);
  double sum = 0;
  std::set<uint32_t> support;
  for (auto& [id, s] : d) {
    support.insert(s.flits);
    sum += s.flits;
  }
  CHECK(support == std::set<uint32_t>{2, 10});
  CHECK(sum / double(d.size()) == Approx(0.25 * 2 + 0.75 * 10).epsilon(0.03));
}

TEST_CASE("traffic: a uniform size range covers every length of the range, mean (a+b)/2", "[sc]") {
  const auto d = sized_run("3-7", "traffic_range.csv");
  std::map<uint32_t, int> count;
  double sum = 0;
  for (auto& [id, s] : d) {
    ++count[s.flits];
    sum += s.flits;
  }
  CHECK(count.size() == 5);
  CHECK(count.begin()->first == 3);
  CHECK(count.rbegin()->first == 7);
  CHECK(sum / double(d.size()) == Approx(5.0).epsilon(0.03));
}

TEST_CASE("traffic: on/off bursts offer the configured mean load", "[sc]") {
  const std::string json = "traffic_onoff.json";
  REQUIRE(cli({"traffic", "--net", "torus:8x8", "--rate", "0.15", "--warmup", "1000", "--measure", "30000", "--set",
               "traffic.process=onoff", "--set", "traffic.burst_alpha=0.02", "--set", "traffic.burst_beta=0.08",
               "--set", "sim.progress=off", "--json", json}) == 0);
  std::ifstream in(json);
  const auto j = nlohmann::json::parse(in);
  std::remove(json.c_str());
  CHECK(j["throughput"]["offered"].get<double>() == Approx(0.15).epsilon(0.05));
  CHECK(j["config"]["traffic"]["process"] == "onoff");
}

TEST_CASE("traffic: a trace injects exactly its messages at their cycles", "[sc]") {
  const std::string trace = "traffic_trace.csv", csv = "traffic_trace_out.csv";
  {
    std::ofstream t(trace);
    t << "cycle,src,dst,len\r\n5,0,1,4\r\n17,3,12,2\r\n5,5,10,3\r\n";  // CRLF line ends, as a spreadsheet writes
  }
  REQUIRE(cli({"traffic", "--net", "torus:4x4", "--warmup", "0", "--measure", "200", "--set", "traffic.trace=" + trace,
               "--set", "sim.progress=off", "--deliveries", csv}) == 0);
  const auto d = deliveries(csv);
  std::remove(trace.c_str());
  std::remove(csv.c_str());
  REQUIRE(d.size() == 3);
  // Zero load, R = 1, Ld = 0, t_s = 0: the tail leaves the ejection channel in cycle s + h + L
  // (docs/router.md section 7: arrival at the end of that cycle, s + (h+1) + L).
  std::map<int, Seen> by_src;
  for (auto& [id, s] : d) by_src[s.src] = s;
  CHECK(by_src.at(0).node == 1);
  CHECK(by_src.at(0).last == 5 + 1 + 4);
  CHECK(by_src.at(5).node == 10);
  CHECK(by_src.at(5).last == 5 + 2 + 3);   // (1,1) -> (2,2): 2 hops
  CHECK(by_src.at(3).node == 12);
  CHECK(by_src.at(3).last == 17 + 2 + 2);  // (3,0) -> (0,3): 1 + 1 hops on the 4x4 torus
}

TEST_CASE("traffic: patterns a network cannot have and bad traces are refused with exit 2", "[sc]") {
  CHECK(cli({"traffic", "--net", "torus:4x8", "--pattern", "transpose"}) == 2);
  CHECK(cli({"traffic", "--net", "torus:3x3", "--pattern", "bitrev"}) == 2);
  CHECK(cli({"traffic", "--set", "traffic.sizes=7-3"}) == 2);
  CHECK(cli({"traffic", "--set", "traffic.sizes=5:0"}) == 2);
  CHECK(cli({"traffic", "--rate", "0.9", "--set", "traffic.process=onoff", "--set", "traffic.burst_beta=0.9"}) == 2);
  const std::string trace = "traffic_bad_trace.csv";
  {
    std::ofstream t(trace);
    t << "5,0,99,4\n";
  }
  CHECK(cli({"traffic", "--net", "torus:4x4", "--set", "traffic.trace=" + trace}) == 2);
  std::remove(trace.c_str());
  CHECK(cli({"traffic", "--set", "traffic.trace=/nonexistent/trace.csv"}) == 2);
  CHECK(cli({"traffic", "--set", "traffic.trace=."}) == 2);  // a directory is not a trace
  {
    std::ofstream t(trace);
    t << "-1,0,1,5\n";  // a bad first line is data, not a header
  }
  CHECK(cli({"traffic", "--net", "torus:4x4", "--set", "traffic.trace=" + trace}) == 2);
  std::remove(trace.c_str());
}
