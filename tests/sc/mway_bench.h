// Test bench for the m-way fabric: a clock, the fabric, a multi-destination checker (every
// addressed node gets each packet once, complete and in order, no other node) and a recorder of
// channel events.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include <systemc>

#include "systemc/common/clock.h"
#include "systemc/mway/fabric.h"

namespace wormcast::test {

struct MwayBench : sc_core::sc_module, MwayObserver, MwayChannelObserver {
  sc_core::sc_clock clk;
  MwayFabric fab;
  struct Expect {
    std::set<int> nodes;
    uint32_t len;
    uint64_t created;
  };
  std::map<uint64_t, Expect> expect;
  std::map<std::pair<uint64_t, int>, uint32_t> next_index;  ///< (packet, node) -> next flit index
  std::map<std::pair<uint64_t, int>, uint64_t> tail_cycle;  ///< (packet, node) -> cycle of the tail
  std::map<uint64_t, uint64_t> inject_cycle;
  std::vector<std::string> errors;
  std::vector<MwayChannelEvent> events;
  bool record = false;
  std::function<void(const MwayChannelEvent&)> on_event;

  MwayBench(sc_core::sc_module_name n, const MwayParams& p) : sc_module(n), clk("clk", cycle_time()), fab("fab", p) {
    fab.clk(clk);
    fab.set_observer(this);
    fab.set_channel_observer(this);
  }

  void submit(const MwayMessage& m) {
    const auto a = fab.addressed(m);
    expect[m.id] = Expect{std::set<int>(a.begin(), a.end()), m.length, m.created};
    fab.submit(m.src, m);
  }
  MwayMessage unicast(uint64_t id, int src, int dst, uint32_t len, uint64_t created) const {
    MwayMessage m;
    m.id = id;
    m.src = src;
    m.dst = dst;
    m.length = len;
    m.created = created;
    return m;
  }
  MwayMessage region(uint64_t id, int src, const sw::MwayRegion& r, uint32_t len, uint64_t created) const {
    MwayMessage m;
    m.id = id;
    m.src = src;
    m.region = r;
    m.length = len;
    m.created = created;
    return m;
  }

  void on_deliver(uint64_t cycle, int node, uint64_t packet, uint32_t index, bool head, bool tail) override {
    auto it = expect.find(packet);
    if (it == expect.end() || !it->second.nodes.count(node)) {
      errors.push_back("packet " + std::to_string(packet) + " delivered to unaddressed node " + std::to_string(node));
      return;
    }
    const auto key = std::make_pair(packet, node);
    if (tail_cycle.count(key)) {
      errors.push_back("packet " + std::to_string(packet) + " delivered twice to node " + std::to_string(node));
      return;
    }
    uint32_t& next = next_index[key];
    if (index != next || head != (index == 0) || tail != (index + 1 == it->second.len))
      errors.push_back("packet " + std::to_string(packet) + " flit " + std::to_string(index) + " out of order at node " +
                       std::to_string(node));
    next = index + 1;
    if (tail) tail_cycle[key] = cycle;
  }
  void on_inject(uint64_t cycle, uint64_t packet) override {
    if (inject_cycle.count(packet)) errors.push_back("packet " + std::to_string(packet) + " injected twice");
    inject_cycle[packet] = cycle;
  }
  void on_channel(const MwayChannelEvent& e) override {
    if (on_event) on_event(e);
    if (record) events.push_back(e);
  }

  /// Every addressed node has the whole of every submitted packet.
  bool complete() const {
    for (auto& [id, ex] : expect)
      for (int n : ex.nodes)
        if (!tail_cycle.count({id, n})) return false;
    return true;
  }
  size_t missing() const {
    size_t k = 0;
    for (auto& [id, ex] : expect)
      for (int n : ex.nodes) k += !tail_cycle.count({id, n});
    return k;
  }
  /// Run until the fabric is idle (or `limit` cycles from now).
  void run(uint64_t limit) {
    const uint64_t end = current_cycle() + limit;
    do {
      sc_core::sc_start(cycle_time() * 16);
    } while (!(fab.idle() && complete()) && current_cycle() < end);
  }
  /// Run until no flit has moved for `window` cycles (a deadlock) or everything is delivered.
  bool run_until_stuck(uint64_t window, uint64_t limit) {
    const uint64_t end = current_cycle() + limit;
    while (current_cycle() < end) {
      sc_core::sc_start(cycle_time() * 16);
      if (fab.idle() && complete()) return false;
      if (current_cycle() > fab.last_move() + window && fab.buffered_flits() > 0) return true;
    }
    return false;
  }
};

inline sw::MwayRegion make_region(const sw::MwayGeometry& g, std::vector<int> lo, std::vector<int> hi) {
  sw::MwayRegion r;
  for (int d = 0; d < g.dims(); ++d) {
    r.lo[d] = lo[size_t(d)];
    r.hi[d] = hi[size_t(d)];
  }
  return r;
}

}  // namespace wormcast::test
