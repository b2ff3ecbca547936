// The Verilated router alone: pipeline timing of docs/router.md 5-7, credits, routes, ejection.
#include <catch2/catch.hpp>

#include <map>
#include <memory>
#include <vector>

#include <systemc>

#include "systemc/common/clock.h"
#include "tb/rtl/rtl_models.h"

using namespace wormcast;

namespace {

/// Drives scripted input flits into one Verilated router, records every output of every cycle,
/// and (like a NIC) returns the credit of every output flit in the cycle it appears.
struct Bench : sc_core::sc_module {
  sc_core::sc_clock clk{"clk", cycle_time()};
  const RtlModelInfo& model;
  RouterParams params;
  sw::Topology topo;
  int np;
  sc_core::sc_vector<sc_core::sc_signal<Flit>> in, out;
  sc_core::sc_vector<sc_core::sc_signal<Credit>> cin, cout;
  std::unique_ptr<RtlRouterBase> rtl;
  std::map<std::pair<uint64_t, int>, Flit> script;  ///< (cycle, input port) -> flit
  struct Seen {
    uint64_t cycle;
    int port;
    Flit flit;
  };
  struct SeenCredit {
    uint64_t cycle;
    int port;
    Credit credit;
  };
  std::vector<Seen> flits;
  std::vector<SeenCredit> credits;

  Bench(sc_core::sc_module_name n, const std::string& config, int node)
      : sc_module(n),
        model(find_rtl_model(config)),
        params(model.router_params()),
        topo(model.topology()),
        np(params.num_ports()),
        in("in", size_t(np)),
        out("out", size_t(np)),
        cin("cin", size_t(np)),
        cout("cout", size_t(np)) {
    rtl = model.make("rtl", params, topo, node, 2);
    rtl->clk(clk);
    for (int p = 0; p < np; ++p) {
      rtl->flit_in[p](in[p]);
      rtl->flit_out[p](out[p]);
      rtl->credit_in[p](cin[p]);
      rtl->credit_out[p](cout[p]);
    }
    SC_HAS_PROCESS(Bench);
    SC_METHOD(step);
    sensitive << clk.negedge_event();
    dont_initialize();
  }

  // At the falling edge inside cycle c: record the outputs of cycle c, drive the inputs of c.
  void step() {
    const uint64_t c = current_cycle();
    for (int p = 0; p < np; ++p) {
      const Flit f = out[p].read();
      if (f.valid) flits.push_back({c, p, f});
      cin[p].write(f.valid ? Credit{true, f.vc} : Credit{});
      const Credit cr = cout[p].read();
      if (cr.valid) credits.push_back({c, p, cr});
      auto it = script.find({c, p});
      in[p].write(it == script.end() ? Flit{} : it->second);
    }
  }
};

Flit make_flit(bool head, bool tail, int vc, int dst, uint32_t payload, bool tie = false) {
  Flit f;
  f.valid = true;
  f.head = head;
  f.tail = tail;
  f.tie = tie;
  f.vc = uint8_t(vc);
  f.dst = uint16_t(dst);
  f.payload = payload;
  return f;
}

}  // namespace

TEST_CASE("rtl router: each flit of a head+body+tail packet leaves one cycle after it arrives "
          "and its credit returns in that cycle", "[rtl]") {
  // 8x8 torus, R = 1, router at (3,3). The packet enters on input 1 (from the minus-side
  // neighbour of dimension 0, travelling plus) for (5,3): plus in dimension 0 without the
  // wraparound link, so output port 0 and the l/h class, VC 1.
  Bench b("bench", "torus8x8_v1b4", 3 + 8 * 3);
  REQUIRE(b.params.router_delay == 1);
  const int dst = 5 + 8 * 3;
  const uint64_t a = 5;
  b.script[{a, 1}] = make_flit(true, false, 0, dst, 0xA1000001);
  b.script[{a + 1, 1}] = make_flit(false, false, 0, dst, 0xA1000002);
  b.script[{a + 2, 1}] = make_flit(false, true, 0, dst, 0xA1000003);
  sc_core::sc_start(sc_core::sc_time(20, sc_core::SC_NS));

  REQUIRE(b.flits.size() == 3);
  for (int i = 0; i < 3; ++i) {
    const auto& s = b.flits[size_t(i)];
    Flit expect = b.script[{a + uint64_t(i), 1}];
    expect.vc = 1;  // rewritten to the allocated output VC
    CHECK(s.cycle == a + 1 + uint64_t(i));
    CHECK(s.port == 0);
    CHECK(s.flit == expect);
  }
  REQUIRE(b.credits.size() == 3);
  for (int i = 0; i < 3; ++i) {
    const auto& s = b.credits[size_t(i)];
    CHECK(s.cycle == a + 1 + uint64_t(i));  // the same cycle as the flit leaves
    CHECK(s.port == 1);
    CHECK(s.credit == Credit{true, 0});
  }
}

TEST_CASE("rtl router: every head takes the port and dateline class sw::Topology gives and "
          "ejects through the matching local port", "[rtl]") {
  // Router at (6,1) of the 8x8 torus; one single-flit packet every 4 cycles from various inputs
  // to various destinations, ties both ways, ejection from network and local inputs.
  const int node = 6 + 8 * 1;
  Bench b("bench", "torus8x8_v1b4", node);
  struct Case {
    int in_port;
    int dst;
    bool tie;
  };
  std::vector<Case> cases;
  for (int y = 0; y < 8; ++y)
    for (int x = 0; x < 8; ++x) {
      const int d = x + 8 * y;
      cases.push_back({(x + 3 * y) % b.np, d, ((x ^ y) & 1) != 0});
    }
  cases.push_back({1, node, false});      // ejection after a hop in dimension 0: local 4 + 1
  cases.push_back({4 + 2, node, false});  // injected and ejected here: the same local port
  cases.push_back({2, 2 + 8 * 1, true});  // tie in dimension 0 (distance 4), tie bit: minus
  cases.push_back({2, 2 + 8 * 1, false}); // the same, plus
  uint64_t c = 4;
  for (const Case& k : cases) {
    b.script[{c, k.in_port}] = make_flit(true, true, int(c % 2), k.dst, uint32_t(c), k.tie);
    c += 4;
  }
  sc_core::sc_start(sc_core::sc_time(double(c + 8), sc_core::SC_NS));

  REQUIRE(b.flits.size() == cases.size());
  const int net = 2 * b.params.dims;
  const int nv = b.params.num_vcs;
  // Only one packet is in the router at a time and every credit returns at once, so every
  // output VC is free and stage 1 of VC allocation takes the first allowed VC at or after the
  // input VC's pointer; the pointer then moves past it (docs/router.md 5.3, 5.4).
  std::vector<int> va_in_ptr(size_t(b.np * nv), 0);
  for (size_t i = 0; i < cases.size(); ++i) {
    const Case& k = cases[i];
    const auto& s = b.flits[i];
    const int in_vc = int((4 + 4 * i) % 2);
    const sw::RouteStep rs = b.topo.route(node, k.dst, k.tie);
    INFO("case " << i << ": in " << k.in_port << " dst " << k.dst << " tie " << k.tie);
    CHECK(s.cycle == 4 + 4 * i + 1);
    int& ptr = va_in_ptr[size_t(k.in_port * nv + in_vc)];
    int expect_vc = ptr;  // ejection: every VC allowed
    if (rs.port < 0) {
      CHECK(s.port == (k.in_port < net ? net + k.in_port : k.in_port));
    } else {
      CHECK(s.port == rs.port);
      expect_vc = int(rs.vclass);  // V = 1: the class is the VC
    }
    CHECK(int(s.flit.vc) == expect_vc);
    ptr = (expect_vc + 1) % nv;
    CHECK(s.flit.payload == uint32_t(4 + 4 * i));
  }
}

namespace {

/// Every input port of the iBT router at `node` sends a single-flit head to every destination, one
/// at a time; each must leave on the port and in the VC class BypassRouting gives the SystemC
/// router (docs/router.md section 10), bypass ports included.
void check_ibt_routes(const std::string& config, int node) {
  Bench b("bench", config, node);
  const std::shared_ptr<const PortRouting> routing = b.model.routing();
  REQUIRE(routing);
  const int net = b.params.net_ports();
  REQUIRE(net == 2 * b.params.dims + 2);
  struct Case {
    int in_port, in_vc, dst;
    bool tie;
  };
  std::vector<Case> cases;
  for (int p = 0; p < b.np; ++p)
    for (int d = 0; d < b.topo.num_nodes(); ++d) cases.push_back({p, (p + d) % b.params.num_vcs, d, ((p ^ d) & 1) != 0});
  uint64_t c = 4;
  for (const Case& k : cases) {
    b.script[{c, k.in_port}] = make_flit(true, true, k.in_vc, k.dst, uint32_t(c), k.tie);
    c += 4;
  }
  sc_core::sc_start(sc_core::sc_time(double(c + 8), sc_core::SC_NS));

  REQUIRE(b.flits.size() == cases.size());
  int bypass = 0;
  for (size_t i = 0; i < cases.size(); ++i) {
    const Case& k = cases[i];
    const auto& s = b.flits[i];
    const bool net_in = k.in_port < net;
    const PortRoute r = routing->route(node, net_in ? k.in_port : -1, net_in ? k.in_vc / b.params.vcs_per_class : -1,
                                       k.dst, k.tie);
    INFO("case " << i << ": in " << k.in_port << " dst " << k.dst << " tie " << k.tie);
    REQUIRE(s.cycle == 4 + 4 * i + 1);
    REQUIRE(s.flit.payload == uint32_t(4 + 4 * i));
    if (r.port < 0) {
      REQUIRE(s.port == (net_in ? net + k.in_port : k.in_port));
      continue;
    }
    REQUIRE(s.port == r.port);
    REQUIRE(r.classed);
    REQUIRE(int(s.flit.vc) == int(r.vclass));  // V = 1: the dateline class is the VC
    if (r.port >= 2 * b.params.dims) ++bypass;
  }
  // About half the heads injected or arriving on a bypass port start with bypass hops.
  CHECK(bypass > b.topo.num_nodes() * (b.np - 2 * b.params.dims) / 4);
}

}  // namespace

TEST_CASE("rtl router: iBT 16x16 b=4, bypass routing, species 0: every head from every input to "
          "every destination takes the port and class of the SystemC routing", "[rtl]") {
  check_ibt_routes("ibt16x16_b4", 9 + 16 * 9);  // (9,9): species 0, bypass ring in dimension 0
}

TEST_CASE("rtl router: iBT 16x16 b=4, bypass routing, species 1: every head from every input to "
          "every destination takes the port and class of the SystemC routing", "[rtl]") {
  check_ibt_routes("ibt16x16_b4", 2 + 16 * 13);  // (2,13): species 1, bypass ring in dimension 1
}
