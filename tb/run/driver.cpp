// The run loop, watchdog and common result of every simulating command.
#include "tb/run/driver.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <unordered_map>

#include <fmt/format.h>
#include <systemc>

#include "systemc/common/clock.h"
#include "systemc/kernel/cycle_clock.h"
#include "systemc/net/network.h"
#include "tb/out/files.h"
#include "tb/out/output_plan.h"
#include "tb/run/router_events.h"

// An address-sanitizer build: GCC defines __SANITIZE_ADDRESS__, Clang (before 15) only answers
// __has_feature(address_sanitizer).
#if defined(__SANITIZE_ADDRESS__)
#define WORMCAST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define WORMCAST_ASAN 1
#endif
#endif
#if defined(WORMCAST_ASAN)
#include <pthread.h>
#include <sanitizer/common_interface_defs.h>
#endif

namespace wormcast {

namespace {

// Address-sanitizer builds only. SystemC runs its processes as coroutines on stacks of their own,
// switched without telling the sanitizer, which afterwards no longer knows the main stack's bounds:
// an exception thrown later then leaves the redzones of the frames it unwinds poisoned, and
// ordinary calls through those addresses are reported as stack overflows. Whenever the kernel
// returns, the main thread's stack is announced to the sanitizer again (as a switch to itself).
void announce_main_stack() {
#if defined(WORMCAST_ASAN)
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) != 0) return;
  void* base = nullptr;
  size_t size = 0;
  pthread_attr_getstack(&attr, &base, &size);
  pthread_attr_destroy(&attr);
  void* fake = nullptr;
  __sanitizer_start_switch_fiber(&fake, base, size);
  __sanitizer_finish_switch_fiber(fake, nullptr, nullptr);
#endif
}

}  // namespace

namespace {
double wall_seconds() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}
}  // namespace

namespace {
bool g_exit_after_run = false;
}  // namespace

void set_exit_after_run(bool on) { g_exit_after_run = on; }
bool exit_after_run() { return g_exit_after_run; }

const char* status_name(RunStatus s) {
  switch (s) {
    case RunStatus::Ok: return "ok";
    case RunStatus::Deadlock: return "deadlock";
    case RunStatus::DrainTimeout: return "drain_timeout";
    case RunStatus::Timeout: return "timeout";
    case RunStatus::ScoreboardError: return "scoreboard_error";
    case RunStatus::Livelock: return "livelock";
    case RunStatus::Unstable: return "unstable";
    case RunStatus::SoftwareFault: return "software_fault";
  }
  return "?";
}

int exit_code(RunStatus s) {
  switch (s) {
    case RunStatus::Ok: return 0;
    case RunStatus::Deadlock: return 3;
    case RunStatus::Livelock: return 4;
    case RunStatus::Unstable:
    case RunStatus::DrainTimeout: return 5;
    case RunStatus::SoftwareFault: return 6;
    default: return 1;
  }
}

Progress::Progress(const std::string& mode, uint64_t total, bool estimated)
    : m_on(mode == "on" || (mode == "auto" && isatty(2))), m_total(total), m_estimated(estimated), m_start(wall_seconds()) {}

void Progress::update(uint64_t cycle, const char* phase, uint64_t in_flight) {
  if (!m_on) return;
  const double now = wall_seconds();
  if (now - m_last < 0.25) return;
  m_last = now;
  const double rate = double(cycle) / std::max(1e-9, now - m_start);
  if (m_total == 0 || cycle > m_total) {  // no total, or past it (draining): no ETA, the work left instead
    std::fprintf(stderr, "\r  %s  cycle %llu  %.0f cycles/s  %llu packets in flight   ", phase ? phase : "run",
                 (unsigned long long)cycle, rate, (unsigned long long)in_flight);
    set_progress_shown(true);
    return;
  }
  const double eta = double(m_total - cycle) / std::max(rate, 1e-9);
  // (Below half a second a rounded "0 s" would read as done: "<1 s" until the end.)
  std::fprintf(stderr, "\r  %s  cycle %llu / %s%llu  %.0f cycles/s  ETA %s%.0f s   ", phase ? phase : "run",
               (unsigned long long)cycle, m_estimated ? "~" : "", (unsigned long long)m_total, rate, eta < 0.5 ? "<" : "",
               std::max(eta, 1.0));
  set_progress_shown(true);
}

void Progress::done() {
  if (m_on) std::fprintf(stderr, "\r%*s\r", 70, "");
  set_progress_shown(false);
}

namespace {

/// The completion contract when the watchdog fires (docs/architecture.md): every packet in
/// flight is deadlocked (a buffer holding it, or allocated to it, waits into a wait-for cycle),
/// lost (no buffer that waits names it; or a buffer allocated to it waits for its flits from one
/// that waits for nothing: a scoreboard error naming it, the nodes that lack which flits and
/// where its wait ends), blocked (it waits, through others, on a buffer that waits for nothing),
/// or unclassified (the family names only the front packet of a buffer, or a waiter whose holder
/// it cannot name, or whose waits lead to such a waiter: an RTL router in a mixed network).
void classify_stall(Network& net, RunResult& r) {
  Scoreboard& sb = net.scoreboard();
  const WaitForGraph& g = r.wait_for;
  const std::vector<char> to_cycle = reaches_cycle(g), to_unnamed = reaches_unnamed(g);
  std::vector<char> sink(g.nodes.size(), 1);  // waits for nothing
  for (auto& [a, b] : g.edges) sink[size_t(a)] = 0;
  for (size_t i = 0; i < sink.size(); ++i) sink[i] &= !to_unnamed[i];  // waits for what the family cannot name
  const bool every = net.names_every_waiting_packet();
  const bool has_cycle = !g.cycle.empty();
  const auto node_of = [&](const std::string& name) {
    return int(std::lower_bound(g.nodes.begin(), g.nodes.end(), name) - g.nodes.begin());
  };
  struct Waits {
    bool to_cycle = false, unnamed = false;
    int waiter = -1;          ///< a waiter of it that reaches no cycle
    int starved = -1, owes = -1;  ///< a waiter of it with no flit whose holder waits for nothing
  };
  std::unordered_map<uint64_t, Waits> by_packet;
  for (const WaitEdge& w : g.waits) {
    if (!w.packet) continue;  // a buffer whose packets are not visible (its wait counts through the graph)
    Waits& pw = by_packet[*w.packet];
    if (w.holder.empty()) {
      pw.unnamed = true;
      continue;
    }
    const int i = node_of(w.waiter), h = node_of(w.holder);
    if (to_cycle[size_t(i)]) {
      pw.to_cycle = true;
      continue;
    }
    if (to_unnamed[size_t(i)]) {  // its wait ends in an RTL router's unknown state (mixed networks)
      pw.unnamed = true;
      continue;
    }
    if (pw.waiter < 0) pw.waiter = i;
    if (w.occupancy == 0 && sink[size_t(h)] && pw.starved < 0) {
      pw.starved = i;
      pw.owes = h;
    }
  }
  for (const PacketRecord& p : sb.stranded(~size_t(0))) {
    const auto it = by_packet.find(p.id);
    std::string where;
    if (it == by_packet.end()) {
      if (!every && !g.nodes.empty()) {  // may sit behind the front packet of a buffer that waits
        ++r.stalled_unclassified;
        continue;
      }
      where = "no buffer holds a flit of it or waits for one";
    } else if (it->second.to_cycle) {
      ++r.stalled_deadlocked;
      continue;
    } else if (it->second.unnamed || (!every && has_cycle)) {
      ++r.stalled_unclassified;
      continue;
    } else if (it->second.starved >= 0) {
      where = fmt::format("its buffer {} waits for its flits from {}, which holds none and waits for nothing",
                          g.nodes[size_t(it->second.starved)], g.nodes[size_t(it->second.owes)]);
    } else {
      ++r.stalled_blocked;
      continue;
    }
    ++r.stalled_lost;
    sb.error(fmt::format("packet {} from node {} ({} flits) never completed: {}; {}: lost flits", p.id, p.src, p.length,
                         sb.missing(p.id), where));
  }
  // A deadlock is reported only with its cycle; a waiter whose holder the family cannot name (an
  // RTL router seen from its ports) leaves the cycle unknown, not absent.
  bool unnamed = false;
  for (const WaitEdge& w : g.waits) unnamed |= w.holder.empty();
  if (!has_cycle && !unnamed && r.stalled_lost == 0) {
    std::string example;
    for (auto& [id, pw] : by_packet)
      if (pw.waiter >= 0) {
        const std::vector<int> path = path_to_sink(g, pw.waiter);
        example = fmt::format("; packet {} waits at {}, whose wait ends at {}", id, g.nodes[size_t(path.front())],
                              g.nodes[size_t(path.back())]);
        break;
      }
    sb.error(fmt::format("no flit moved for the watchdog's period with {} packets in flight, yet the wait-for graph "
                         "({} buffers) has no cycle: a stall that is not a deadlock{}",
                         sb.in_flight(), g.nodes.size(), example));
  }
}

}  // namespace

void check_quiet_windows(const SimConfig& sim, uint64_t quiet) {
  // A flit needs its route's zero-load latency to cross the network, and may wait a credit round
  // trip for its next credit: a watchdog or livelock window shorter than that would report a
  // healthy run as stalled before its first delivery.
  for (const auto& [key, value] : {std::pair<const char*, uint64_t>{"sim.watchdog", sim.watchdog},
                                   std::pair<const char*, uint64_t>{"sim.livelock", sim.livelock}})
    if (uint64_t(value) < quiet)
      throw ConfigError(fmt::format("{} = {} is invalid for this network: a flit may need up to {} cycles to cross it "
                                    "or wait for a credit with no other traffic; allowed: {}..1000000000",
                                    key, value, quiet, quiet));
}

RunResult drive(Network& net, const SimConfig& sim, const RunPhases& ph, const RecordOptions& opt) {
  RunResult r;
  const uint64_t begin = ph.warmup, end = ph.warmup + ph.measure;
  const uint64_t step = std::min<uint64_t>({ph.max_step, sim.watchdog / 2 + 1, sim.livelock / 2 + 1});
  check_quiet_windows(sim, net.longest_quiet());
  const double t0 = wall_seconds();
  Progress progress(sim.progress, end > 0 ? end : ph.expected, end == 0 && ph.expected > 0);
  uint64_t cycle = 0, seen = 0, last_progress = 0;  // watchdog: any switch, injection or delivery is progress
  uint64_t ejected = 0, last_ejected = 0;            // livelock: only a delivered flit is progress
  if (ph.at)
    for (uint64_t s : ph.stops)
      if (s == 0) ph.at(0);
  // The link counters of the window [begin, end) are read at begin + lag and end + lag (a family
  // that counts a cycle's transfer at a later edge, Network::link_counter_lag).
  const uint64_t lag = net.link_counter_lag();
  auto links_at = [&](std::vector<uint64_t>& links, std::vector<uint64_t>& inj,
                      std::vector<std::pair<std::string, uint64_t>>& uses) {
    links = net.link_counters();
    inj = net.injection_counters();
    uses = net.link_cycles();
  };
  if (begin == 0 && ph.router_activity) r.act_begin = net.router_activity(0);
  if (begin + lag == 0) links_at(r.links_begin, r.inj_begin, r.uses_begin);
  for (;;) {
    // Past the window (draining) the checks come every 100 cycles, so a run ends soon after its
    // last packet.
    uint64_t target = cycle + (cycle >= end ? std::min<uint64_t>(step, 100) : step);
    for (const uint64_t at : {begin, end, begin + lag, end + lag})
      if (cycle < at && target > at) target = at;
    if (cycle < ph.limit && target > ph.limit) target = ph.limit;  // stop at the limit, not past it
    // The recording stops (--vcd-window's bounds) inside this step: the clock stops there for them,
    // and the checks below keep their own cycles, so that a recording never changes a run's end or
    // its results. A stop at the step's end is taken below, only if the run goes on.
    for (uint64_t at = cycle; at < target;) {
      uint64_t next = target;
      for (uint64_t s : ph.stops)
        if (at < s && next > s) next = s;
      set_clock_horizon(next);  // a clock in bands runs up to here at once (cycle_clock.h)
      sc_core::sc_start(cycle_time() * double(next - at));
      set_clock_horizon(0);
      announce_main_stack();
      at = next;
      if (ph.at && at < target)
        for (uint64_t s : ph.stops)
          if (s == at) ph.at(at);
    }
    cycle = target;
    // A run without a measurement window (node programs): one phase, "run".
    progress.update(cycle, end == 0 ? "run" : cycle <= begin && begin > 0 ? "warm-up" : cycle <= end ? "measure" : "drain",
                    net.outstanding());
    if (opt.plan) opt.plan->check_size();
    if (cycle == begin && ph.router_activity) r.act_begin = net.router_activity(cycle);
    if (cycle == begin + lag) links_at(r.links_begin, r.inj_begin, r.uses_begin);
    // The window's end, not the end of the drain.
    if (cycle == end && ph.router_activity) r.act_end = net.router_activity(cycle, &r.act_counted);
    if (cycle == end + lag) links_at(r.links_end, r.inj_end, r.uses_end);
    const uint64_t moved =
        net.activity().switched() + net.activity().progress_marks() + net.scoreboard().injected_packets();
    if (moved != seen) {
      seen = moved;
      last_progress = cycle;
    }
    if (net.scoreboard().ejected_flits() != ejected || net.scoreboard().in_flight() == 0) {
      ejected = net.scoreboard().ejected_flits();
      last_ejected = cycle;
    }
    if (net.scoreboard().in_flight() > 0 && cycle - last_progress >= sim.watchdog) {
      r.status = RunStatus::Deadlock;
      break;
    }
    // A livelock: flits moved inside the livelock window (a network that stopped for longer is the
    // watchdog's to call, once its window has passed) but none arrived for the whole window.
    if (cycle - last_ejected >= sim.livelock && cycle - last_progress < sim.livelock) {
      // The window counts from the last delivery, but not from before the oldest packet in flight
      // entered the network: cycles in which the network was empty, or in which that packet
      // could not have arrived yet, are no sign of a livelock.
      const uint64_t oldest = net.scoreboard().oldest_injection();
      const uint64_t since = std::max(last_ejected, oldest == ~uint64_t(0) ? cycle : oldest);
      if (since <= cycle && cycle - since >= sim.livelock) {
        r.status = RunStatus::Livelock;
        break;
      }
    }
    if (ph.finished(cycle)) break;
    if (cycle >= ph.limit) {
      r.status = ph.on_limit;
      break;
    }
    if (ph.at)
      for (uint64_t s : ph.stops)
        if (s == cycle) ph.at(cycle);
  }
  progress.done();
  r.wall_seconds = wall_seconds() - t0;
  r.cycles = cycle;
  if (r.links_begin.empty()) links_at(r.links_begin, r.inj_begin, r.uses_begin);
  if (ph.router_activity && r.act_begin.empty()) r.act_begin = net.router_activity(cycle);
  if (r.links_end.empty()) links_at(r.links_end, r.inj_end, r.uses_end);  // stopped inside the window
  if (ph.router_activity && r.act_end.empty()) r.act_end = net.router_activity(cycle, &r.act_counted);
  r.window = std::min(cycle, end) - std::min(cycle, begin);
  r.last_move = net.activity().last_move();
  r.last_delivery = net.scoreboard().last_eject_cycle();
  Scoreboard& sb = net.scoreboard();
  // Out of time with the network empty and idle, yet packets wait at a source that could have
  // injected them for a watchdog window: they are stranded. A source whose packets still wait for
  // its own send latency (t_s: each message's packets become ready only when the processor has
  // sent it) is not stranded but slow; its run ends with the limit's status.
  if ((r.status == RunStatus::DrainTimeout || r.status == RunStatus::Timeout) && sb.in_flight() == 0 &&
      cycle - last_progress >= sim.watchdog) {
    for (int i = 0; i < net.num_nodes(); ++i) {
      const Nic& nic = net.nic(i);
      if (nic.backlog() == 0) continue;
      const uint64_t idle_since = std::max(last_progress, nic.next_ready());
      if (idle_since > cycle || cycle - idle_since < sim.watchdog) continue;
      sb.error(fmt::format("node {}: {} packets stranded in the NIC's source queue, never injected, while the network "
                           "was idle for {} cycles",
                           i, nic.backlog(), cycle - idle_since));
    }
  }
  if (r.status == RunStatus::Deadlock) {
    r.watchdog = true;
    r.wait_for = net.wait_for();
    classify_stall(net, r);
    if (!r.wait_for.nodes.empty() && !opt.deadlock_dot_path.empty() && opt.plan)
      opt.plan->write(opt.deadlock_dot_path, r.wait_for.to_dot());
  }
  // No wait-for graph, no DOT file: an earlier one stays as it was.
  if (!opt.deadlock_dot_path.empty() && opt.plan && (!r.watchdog || r.wait_for.nodes.empty()))
    opt.plan->drop(opt.deadlock_dot_path);
  if (sb.error_count() > 0) r.status = RunStatus::ScoreboardError;
  return r;
}

nlohmann::json common_result(const std::string& command, const Config& cfg, const RunResult& r, const Network& net) {
  const Scoreboard& sb = net.scoreboard();
  nlohmann::json j;
  j["wormcast"] = result_identity(command);
  j["config"] = cfg.echo();
  j["status"] = status_name(r.status);
  j["cycles"] = r.cycles;
  // How the run was computed, not what it computed: the same results for any sim.threads.
  j["threads"] = {{"threads", net.threads()},
                  {"rule", net.threads_rule().empty() ? "the family runs in one thread" : net.threads_rule()},
                  {"lanes", net.lanes()},
                  {"parallel_edges", net.parallel_edges()},
                  {"one_lane_edges", net.one_lane_edges()},
                  {"crowded_edges", net.crowded_edges()},
                  {"links", net.link_mode()},
                  {"clock", net.clock_mode()}};
  // sim.schedule = auto where bands were possible: what the clock's probes measured and chose.
  if (const CycleClock* cc = net.cycle_clock(); cc && cc->probed()) {
    const SchedulePick& ch = cc->schedule_choice();
    nlohmann::json probes = nlohmann::json::array();
    for (const SchedulePick::Probe& p : ch.probes())
      probes.push_back({{"cycle", p.cycle},
                        {"bands_cycles", p.bands_cycles},
                        {"bands_ns_per_cycle", p.bands_cycles ? p.bands_ns / double(p.bands_cycles) : 0.0},
                        {"cycles_cycles", p.cycles_cycles},
                        {"cycles_ns_per_cycle", p.cycles_cycles ? p.cycles_ns / double(p.cycles_cycles) : 0.0},
                        {"chose", p.bands ? "bands" : "cycles"},
                        {"cycles_after", p.after}});
    j["threads"]["schedule_probe"] = {{"cycles_in_bands", ch.cycles_in_bands()},
                                      {"cycles_cycle_by_cycle", ch.cycles_in_cycles()},
                                      {"probes", probes}};
  }
  j["packets"] = {{"injected", sb.injected_packets()}, {"delivered", sb.delivered_packets()},
                  {"in_flight_at_end", sb.in_flight()}, {"outstanding_at_end", net.outstanding()}};
  // Link utilization over the measurement window (flits per cycle per network link).
  const bool arrays = cfg.sim.arrays(net.num_nodes());
  std::vector<double> util;
  double sum = 0, mx = 0;
  size_t real_links = 0;
  for (size_t i = 0; i < r.links_end.size(); ++i) {
    if (r.links_end[i] == ~uint64_t(0)) {
      if (arrays) util.push_back(-1);  // no link there
      continue;
    }
    // (The mean is taken over the exact values, each link's is rounded only as it is shown.)
    const double u = r.window ? double(r.links_end[i] - r.links_begin[i]) / double(r.window) : 0.0;
    if (arrays) util.push_back(std::round(u * 1e4) / 1e4);
    sum += u;
    mx = std::max(mx, u);
    ++real_links;
  }
  j["links"] = {{"mean_utilization", real_links ? std::round(sum / double(real_links) * 1e4) / 1e4 : 0.0},
                {"max_utilization", std::round(mx * 1e4) / 1e4},
                {"order", net.link_order()}};
  if (arrays) j["links"]["utilization"] = util;
  if (!r.inj_end.empty()) {
    // Share of a node's channel cycles used to inject a flit, averaged over nodes (the m-way
    // paper's injection rate).
    uint64_t inj = 0;
    for (size_t i = 0; i < r.inj_end.size(); ++i) inj += r.inj_end[i] - r.inj_begin[i];
    const double den = double(r.inj_end.size()) * double(r.window);
    j["links"]["injection_rate"] = den > 0 ? std::round(double(inj) / den * 1e6) / 1e6 : 0.0;
  }
  if (!r.uses_end.empty() && r.uses_begin.size() == r.uses_end.size()) {
    // Share of the link cycles of the window by what the lines carried (the m-way channel-line
    // breakdown; the rest of the cycles were idle).
    const double den = double(net.link_cycles_total()) * double(r.window);
    nlohmann::json u = nlohmann::json::object();
    uint64_t busy = 0;
    for (size_t i = 0; i < r.uses_end.size(); ++i) {
      const uint64_t d = r.uses_end[i].second - r.uses_begin[i].second;
      busy += d;
      u[r.uses_end[i].first] = den > 0 ? std::round(double(d) / den * 1e6) / 1e6 : 0.0;
    }
    u["idle"] = den > 0 ? std::round((den - double(busy)) / den * 1e6) / 1e6 : 0.0;
    j["links"]["cycles"] = u;
  }
  add_router_events(j, cfg, r, net);
  j["scoreboard"] = {{"errors", sb.error_count()}, {"first_errors", sb.errors()}};
  // Every packet accounted for: delivered (counted above), or in the network or still waiting at its
  // source (injected null), the first ten listed here: those in flight, then the earliest created of
  // those waiting.
  nlohmann::json unfinished = nlohmann::json::array();
  for (auto& p : sb.stranded(10))
    unfinished.push_back({{"id", p.id}, {"src", p.src}, {"length", p.length}, {"created", p.created}, {"injected", p.injected}});
  if (unfinished.size() < 10) {
    std::vector<PacketRecord> waiting;
    for (int n = 0; n < net.num_nodes(); ++n)
      for (PacketRecord& p : net.nic(n).unstarted_packets()) waiting.push_back(std::move(p));
    const size_t take = std::min(waiting.size(), 10 - unfinished.size());
    std::partial_sort(waiting.begin(), waiting.begin() + std::ptrdiff_t(take), waiting.end(),
                      [](const PacketRecord& a, const PacketRecord& b) { return a.created != b.created ? a.created < b.created : a.id < b.id; });
    for (size_t i = 0; i < take; ++i)
      unfinished.push_back({{"id", waiting[i].id}, {"src", waiting[i].src}, {"length", waiting[i].length},
                            {"created", waiting[i].created}, {"injected", nullptr}});
  }
  j["packets"]["unfinished_first"] = unfinished;
  if (r.status == RunStatus::Livelock)
    j["livelock"] = {{"detected", true}, {"cycle", r.cycles},
                     {"last_delivery", r.last_delivery == ~uint64_t(0) ? nlohmann::json(nullptr) : nlohmann::json(r.last_delivery)}};
  else
    j["livelock"] = {{"detected", false}};
  if (r.watchdog)
    j["stall"] = {{"deadlocked", r.stalled_deadlocked}, {"lost", r.stalled_lost},
                  {"blocked", r.stalled_blocked}, {"unclassified", r.stalled_unclassified}};
  if (r.watchdog && r.status != RunStatus::Deadlock) j["stall"]["wait_for"] = r.wait_for.to_json();
  if (r.status == RunStatus::Deadlock)
    j["deadlock"] = {{"detected", true}, {"cycle", r.cycles}, {"last_move", r.last_move}, {"wait_for", r.wait_for.to_json()}};
  else
    j["deadlock"] = {{"detected", false}};
  return j;
}

}  // namespace wormcast
