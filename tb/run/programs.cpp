// Node programs on the cycle-accurate model of any router family: elaboration, the run-until-quiet
// loop of the run driver, message timing and blocking from the NIC's packet records.
#include "tb/run/programs.h"

#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>

#include <algorithm>
#include <iostream>
#include <memory>

#include <systemc>

#include <fmt/format.h>

#include "systemc/common/clock.h"
#include "systemc/common/energy_config.h"
#include "systemc/common/family.h"
#include "systemc/torus/routing.h"
#include "systemc/net/network.h"
#include "tb/out/output_plan.h"
#include "tb/run/dry_run.h"
#include "systemc/cpu/rv32_core.h"
#include "systemc/nic/node_cpu.h"

namespace wormcast {

sw::AnalyticParams router_analytic_params(const Config& cfg, const RouterParams& rp, bool one_port, uint64_t t_s,
                                          uint64_t t_r) {
  sw::AnalyticParams ap;
  ap.ports = one_port ? sw::PortModel::OnePort : sw::PortModel::AllPort;
  ap.t_s = t_s;
  ap.t_r = t_r;
  ap.router_delay = uint64_t(rp.router_delay);
  ap.link_delay = uint64_t(rp.link_delay);
  ap.injection_delay = uint64_t(rp.injection_delay);
  ap.ejection_delay = uint64_t(rp.ejection_delay);
  const Family* f = find_family(cfg.net.family);
  if (f && f->routing) {
    std::shared_ptr<const PortRouting> r = f->routing(cfg);
    ap.route = [r](int src, int dst, bool tie) {
      return std::make_pair(r->hops(src, dst, tie), src == dst ? -1 : r->route(src, -1, -1, dst, tie).port);
    };
  }
  return ap;
}

uint64_t rv32_room(const Config& cfg, const std::vector<sw::NodeTable>& tables) {
  if (cfg.node.cpu != CpuKind::Rv32) return 0;
  const size_t n = tables.size();
  uint64_t heaviest = 0;  // the events whose work may add up, one after the other
  if (std::any_of(tables.begin(), tables.end(), [](const sw::NodeTable& t) { return t.receipts != nullptr; })) {
    // Step-synchronous tables (gossip): a send of step s waits for every receipt of the steps
    // before, so the steps follow one another and within a step the nodes work in parallel: the
    // sum over the steps of the busiest node's events of that step (its sends, its receipts, and
    // the step's entry in its receipt table).
    std::vector<uint64_t> busiest;  // [step]
    std::vector<uint64_t> mine;
    for (const sw::NodeTable& t : tables) {
      mine.assign(busiest.size(), 0);
      auto at = [&](uint32_t step) -> uint64_t& {
        if (step >= mine.size()) {
          mine.resize(step + 1, 0);
          busiest.resize(step + 1, 0);
        }
        return mine[step];
      };
      for (uint32_t j = 0; j < t.count; ++j) ++at(t.sends[j].step);
      for (uint32_t j = 0; t.receipts && j < t.receipt_steps; ++j) at(t.receipts[j].step) += 1 + t.receipts[j].count;
      for (size_t st = 0; st < mine.size(); ++st) busiest[st] = std::max(busiest[st], mine[st]);
    }
    for (uint64_t b : busiest) heaviest += b;
  } else {
    // A node's events: its sends, its receipts (the sends to it).
    std::vector<uint64_t> events(n, 0);
    std::vector<std::vector<uint32_t>> next(n);  // the nodes each node sends to
    std::vector<uint32_t> preds(n, 0);
    for (size_t i = 0; i < n; ++i) {
      const sw::NodeTable& t = tables[i];
      events[i] += t.count;
      for (uint32_t j = 0; j < t.count; ++j) {
        const uint32_t d = uint32_t(t.sends[j].dst);
        if (d >= n) continue;
        ++events[d];  // its receipt
        if (d == i) continue;
        next[i].push_back(d);
        ++preds[d];
      }
    }
    // The cores work in parallel, but a node's sends wait for its receipts: the work that may add
    // up is that of the heaviest chain of nodes, each sending to the next (its events summed), when
    // the sends form no cycle (a broadcast); else that of every node.
    std::vector<uint64_t> chain(events);
    std::vector<uint32_t> ready;
    for (size_t i = 0; i < n; ++i)
      if (preds[i] == 0) ready.push_back(uint32_t(i));
    size_t done = 0;
    while (!ready.empty()) {
      const uint32_t i = ready.back();
      ready.pop_back();
      ++done;
      heaviest = std::max(heaviest, chain[i]);
      for (uint32_t d : next[i]) {
        chain[d] = std::max(chain[d], chain[i] + events[d]);
        if (--preds[d] == 0) ready.push_back(d);
      }
    }
    if (done < n) {
      heaviest = 0;
      for (uint64_t e : events) heaviest += e;
    }
  }
  const int cpi = *std::max_element(cfg.node.cpi.begin(), cfg.node.cpi.end());
  // Network cycles per instruction of the slowest class: cpi core cycles at clock_num / clock_den
  // core cycles per network cycle, rounded up (cpi <= 1000, the ratio >= 0.001: at most 10^6).
  const uint64_t per_insn = (uint64_t(cpi) * uint64_t(cfg.node.clock_den) + uint64_t(cfg.node.clock_num) - 1) /
                            uint64_t(cfg.node.clock_num);
  const uint64_t insns = heaviest > (~uint64_t(0) - 10000) / 1000 ? ~uint64_t(0) : 10000 + 1000 * heaviest;
  return insns > ~uint64_t(0) / per_insn ? ~uint64_t(0) : insns * per_insn;
}

bool vc_reuse_limited(const RouterParams& rp, uint64_t len) {
  return !rp.vc_realloc_tail &&
         uint64_t(rp.vcs_per_class - 1) * len < uint64_t(rp.router_delay + rp.link_delay + rp.credit_delay);
}

bool credit_limited(const RouterParams& rp, uint64_t longest) {
  return longest > uint64_t(rp.buffer_depth) && rp.buffer_depth < rp.streaming_depth();
}

std::string credit_limit_note(const RouterParams& rp, uint64_t longest) {
  std::string vc_note;
  if (vc_reuse_limited(rp, longest))
    vc_note = fmt::format("  note: (router.vcs_per_class - 1) x {} flits < R + Ld + Cd = {} under router.vc_realloc = "
                          "empty: a message sent right behind another on the same channel waits for a free VC, which "
                          "the analytic router model leaves out (docs/router.md section 7)\n",
                          longest, rp.router_delay + rp.link_delay + rp.credit_delay);
  if (!credit_limited(rp, longest)) return vc_note;
  const int need = rp.streaming_depth();
  return vc_note + fmt::format("  note: router.buffer_depth = {} is below the credit round trip of these delays ({} flits): a "
                     "message longer than {} flits waits for credits on an idle path, which the "
                     "analytic router model leaves out (docs/router.md section 7)\n",
                     rp.buffer_depth, need, rp.buffer_depth);
}

namespace {

class TimingListener : public PacketListener {
 public:
  void on_packet(const PacketRecord& r) override {
    if (r.msg_packets != 1) {
      m_multi = true;  // blocking is defined per single-packet message only
      return;
    }
    MessageTiming m;
    m.src = r.src;
    m.dst = r.dst;
    m.length = r.length;
    m.tag = r.tag;
    m.message = r.message;
    m.created = r.created;
    m.ready = r.ready;
    m.injected = r.injected;
    m.arrived = r.arrived;
    m.hops = r.via < 0 ? net->topology().hops(r.src, r.dst, false) : net->packet_hops(r);
    m.blocked = r.arrived - r.injected - net->packet_zero_load(r);
    messages.push_back(m);
  }
  const Network* net = nullptr;
  std::vector<MessageTiming> messages;
  bool m_multi = false;
};

/// Send or receive paths summed: network cycles, instructions, the longest, how many.
struct PathSums {
  uint64_t cycles = 0, insns = 0, max = 0, n = 0;
  void add(uint64_t c, uint64_t i) {
    cycles += c;
    insns += i;
    max = std::max(max, c);
    ++n;
  }
  double mean_cycles() const { return n ? double(cycles) / double(n) : 0.0; }
  double mean_insns() const { return n ? double(insns) / double(n) : 0.0; }
};

/// The cores' statistics as JSON: per node, and the summary with the effective t_s (mean network
/// cycles of a send path that does not start at reset; of every send path, the boot included, when
/// each starts at reset) and t_r (mean network cycles from a message's arrival to its pop).
nlohmann::json core_report(const std::vector<std::unique_ptr<Rv32Core>>& cores, uint64_t end, const NodeConfig& nc,
                           double& ts, double& tr) {
  nlohmann::json nodes = nlohmann::json::array();
  uint64_t insns = 0, busy = 0, wait = 0, idle = 0;
  PathSums later_sends, all_sends, receives;  // later: the sends whose path does not start at reset
  for (size_t i = 0; i < cores.size(); ++i) {
    const CoreStats s = cores[i]->stats(end);
    insns += s.instructions;
    busy += s.busy;
    wait += s.wait;
    idle += s.idle;
    for (size_t k = 0; k < s.send_cycles.size(); ++k) {
      all_sends.add(s.send_cycles[k], s.send_insns[k]);
      if (!s.send_after_boot[k]) later_sends.add(s.send_cycles[k], s.send_insns[k]);
    }
    for (size_t k = 0; k < s.recv_cycles.size(); ++k) receives.add(s.recv_cycles[k], s.recv_insns[k]);
    nlohmann::json j;
    j["node"] = i;
    j["instructions"] = s.instructions;
    j["busy_cycles"] = s.busy;
    j["wait_cycles"] = s.wait;
    j["idle_cycles"] = s.idle;
    j["send_steps"] = s.send_step;
    j["send_path_instructions"] = s.send_insns;
    j["send_path_cycles"] = s.send_cycles;
    j["receive_steps"] = s.recv_step;
    j["receive_path_instructions"] = s.recv_insns;
    j["receive_path_cycles"] = s.recv_cycles;
    nodes.push_back(std::move(j));
  }
  // Every send's path starts at reset (a source with one send): the boot is then part of the only
  // send path there is, and t_s is taken over those sends, said in the JSON.
  const bool boot_included = later_sends.n == 0 && all_sends.n > 0;
  const PathSums& sends = boot_included ? all_sends : later_sends;
  ts = sends.mean_cycles();
  tr = receives.mean_cycles();
  nlohmann::json out;
  out["cpu"] = "rv32";
  out["clock_ratio"] = double(nc.clock_num) / double(nc.clock_den);
  out["quantum"] = nc.quantum;
  out["instructions"] = insns;
  out["busy_cycles"] = busy;
  out["wait_cycles"] = wait;
  out["idle_cycles"] = idle;
  out["effective_ts"] = ts;
  out["effective_tr"] = tr;
  out["effective_ts_boot_included"] = boot_included;
  out["max_send_path_cycles"] = sends.max;
  out["max_receive_path_cycles"] = receives.max;
  out["mean_send_path_instructions"] = sends.mean_insns();
  out["mean_receive_path_instructions"] = receives.mean_insns();
  out["units"] = "instructions; *_cycles per node in core cycles; path cycles, effective_ts/tr in network cycles";
  out["nodes"] = std::move(nodes);
  return out;
}

struct ProgramTop : sc_core::sc_module {
  sc_core::sc_clock clk;
  TimingListener listener;
  std::unique_ptr<Network> net;
  std::vector<std::unique_ptr<NodeCpu>> cpus;
  std::vector<std::unique_ptr<Rv32Core>> cores;
  ProgramTop(sc_core::sc_module_name n, const Config& cfg, const std::vector<sw::NodeProgram*>& programs,
             const std::vector<std::string>& rtl_vcd, const std::string& vcd_routers,
             const FirmwareTables* fw)
      : sc_module(n), clk("clk", cycle_time()) {
    NetworkOptions opt;
    opt.listener = &listener;
    opt.trace_internals = !rtl_vcd.empty();
    // The routers named by --rtl-vcd and --vcd-routers are checked before the network (and its
    // Verilated models) is built.
    opt.internal_routers = rtl_vcd;
    if (!vcd_routers.empty()) opt.waveform_routers = split_list(vcd_routers, ',');
    net = make_network("net", cfg, opt);
    listener.net = net.get();
    net->clk(clk);
    if (cfg.node.cpu == CpuKind::Rv32) {
      const FirmwareImage& image = fw->image ? *fw->image : FirmwareImage::builtin();
      for (int i = 0; i < net->num_nodes(); ++i) {
        const bool runs = size_t(i) < programs.size() && programs[size_t(i)] && size_t(i) < fw->tables.size();
        uint32_t boot = 0;
        std::vector<uint8_t> ram;
        if (runs)
          ram = image.node_ram(fw->tables[size_t(i)], fw->length, net->topology(), i, uint32_t(cfg.node.ram), boot);
        cores.push_back(std::make_unique<Rv32Core>(("cpu" + net->node_name(i).substr(1)).c_str(), i, net->nic(i), image,
                                                   cfg.node, std::move(ram), boot, fw->observer));
      }
      return;
    }
    for (int i = 0; i < net->num_nodes(); ++i) {
      sw::NodeProgram* p = size_t(i) < programs.size() ? programs[size_t(i)] : nullptr;
      cpus.push_back(std::make_unique<NodeCpu>(("cpu" + net->node_name(i).substr(1)).c_str(), net->topology(), i,
                                               net->nic(i), p));
    }
  }
};

}  // namespace

ProgramRun run_programs(const Config& cfg, const std::vector<sw::NodeProgram*>& programs,
                        const ProgramRunOptions& given) {
  check_record_options(given);
  // A node-program run reports no energy (docs/energy.md: synthetic traffic does): an energy.* key
  // set to other than its default is refused, not ignored.
  const EnergyConfig& ec = cfg.part<EnergyConfig>();
  const EnergyConfig def;
  const char* set = ec.technology != def.technology         ? "energy.technology"
                    : ec.flit_bits != def.flit_bits           ? "energy.flit_bits"
                    : ec.link_length_mm != def.link_length_mm ? "energy.link_length_mm"
                    : ec.clock_period_ns != def.clock_period_ns ? "energy.clock_period_ns"
                                                                : nullptr;
  if (set)
    throw ConfigError(fmt::format("config: {} is invalid here: node-program runs (broadcast, gossip --simulate, ibt "
                                  "bcast --simulate) report no energy; allowed: its default, or synthetic traffic "
                                  "(wormcast traffic, run)", set));
  if (cfg.node.cpu == CpuKind::Rv32) {
    if (!given.firmware)
      throw ConfigError("config: node.cpu = 'rv32' is not supported by this command; allowed: native");
    const FirmwareImage& image = given.firmware->image ? *given.firmware->image : FirmwareImage::builtin();
    if (!image.available())
      throw ConfigError("config: node.cpu = 'rv32' is unavailable: this build has no RV32 node firmware "
                        "(riscv64-unknown-elf-g++ was not found when it was configured; scripts/setup installs it); "
                        "allowed: native");
    // Every node's RAM image checked before the network is built (node.cpu_ram, exit 2).
    const sw::Topology t = cfg.net.topology();
    for (size_t i = 0; i < given.firmware->tables.size() && i < programs.size(); ++i) {
      uint32_t boot = 0;
      if (programs[i]) image.node_ram(given.firmware->tables[i], given.firmware->length, t, int(i), uint32_t(cfg.node.ram), boot);
    }
  }
  OutputPlan own;
  ProgramRunOptions opt = given;
  if (!opt.plan) {
    plan_recordings(own, opt);
    opt.plan = &own;
  }
  dry_run_point();  // the configuration checked, the outputs planned: the network is built next
  RunTopPtr<ProgramTop> top(
      new ProgramTop("top", cfg, programs, opt.rtl_vcd, opt.vcd_routers, opt.firmware));
  const bool rv32 = cfg.node.cpu == CpuKind::Rv32;
  Network& net = *top->net;
  // The cores' program counter, state (CoreState) and interrupt line, in the waveform beside each
  // node's router and NIC ports (top.net.r_x_y.cpu), of the nodes the waveform holds (--vcd-routers).
  Recorders rec(opt, top->clk, net, [&](sc_core::sc_trace_file* tf, const std::vector<bool>& traced) {
    for (size_t i = 0; i < top->cores.size(); ++i) {
      if (!traced.empty() && !traced[i]) continue;
      const std::string base = "top.net." + net.node_name(int(i)) + ".cpu.";
      sc_core::sc_trace(tf, top->cores[i]->pc, base + "pc");
      sc_core::sc_trace(tf, top->cores[i]->state, base + "state");
      sc_core::sc_trace(tf, top->cores[i]->irq, base + "irq");
    }
  });

  const int n = net.num_nodes();
  RunPhases ph;
  ph.limit = opt.max_cycles;
  ph.expected = opt.predicted;
  ph.on_limit = RunStatus::Timeout;
  ph.max_step = 256;
  ph.finished = [&](uint64_t) {
    if (rv32)
      for (auto& c : top->cores)
        if (!c->fault().empty()) return true;  // a core stopped: the run ends with its fault
    if (net.outstanding() != 0) return false;
    for (int i = 0; i < n; ++i) {
      const bool idle = rv32 ? top->cores[size_t(i)]->idle() : top->cpus[size_t(i)]->idle();
      if (!idle || net.nic(i).next_rx_visible() != ~uint64_t(0)) return false;
    }
    return true;
  };
  ph.stops = rec.stops();
  ph.at = [&rec](uint64_t cycle) { rec.at(cycle); };
  const RunResult r = drive(net, cfg.sim, ph, opt);
  rec.finish();

  ProgramRun out;
  out.status = r.status;
  out.cycles = r.cycles;
  out.deadlock = common_result("programs", cfg, r, net)["deadlock"];
  out.messages = top->listener.messages;
  out.first_visible.assign(size_t(n), ~uint64_t(0));
  out.deliveries.assign(size_t(n), 0);
  for (auto& m : out.messages) {
    out.blocked_cycles += m.blocked;
    out.injection_wait_cycles += m.injected - m.ready;
    out.blocked_messages += m.blocked > 0;
    ++out.deliveries[size_t(m.dst)];
  }
  for (int i = 0; i < n; ++i)
    out.first_visible[size_t(i)] = rv32 ? top->cores[size_t(i)]->first_receive() : top->cpus[size_t(i)]->first_receive();
  if (rv32) {
    for (auto& c : top->cores)
      if (!c->fault().empty()) {
        out.status = RunStatus::SoftwareFault;
        out.errors.push_back(c->fault());
        std::cerr << "wormcast: " << c->fault() << "\n";
      }
    out.cpu = core_report(top->cores, r.cycles, cfg.node, out.effective_ts, out.effective_tr);
  }
  if (top->listener.m_multi) out.errors.push_back("multi-packet messages: raise nic.max_packet to the message length");
  for (auto& e : net.scoreboard().errors()) out.errors.push_back(e);
  out.exit_code = exit_code(out.status);
  if (!given.plan) own.commit();
  return out;
}

}  // namespace wormcast

namespace wormcast {

Config native_with(const Config& cfg, int64_t ts, int64_t tr) {
  Config c = cfg;
  c.node.cpu = CpuKind::Native;
  c.nic.ts = ts;
  c.nic.tr = tr;
  c.sim.progress = "off";
  return c;
}

namespace {
/// All of n bytes over socket fd, without SIGPIPE when the other end is gone (then false).
bool send_all(int fd, const void* p, size_t n) { return send(fd, p, n, MSG_NOSIGNAL) == ssize_t(n); }
bool recv_all(int fd, void* p, size_t n) { return recv(fd, p, n, MSG_WAITALL) == ssize_t(n); }
}  // namespace

// One socket pair carries the two numbers to the child and its result back: a send to a process
// that is gone fails (MSG_NOSIGNAL) instead of raising SIGPIPE, so either side learns of the other's
// end from the call's result. The child dies with its parent (PR_SET_PDEATHSIG): a parent stopped by
// a signal leaves no child running on, nor a line of the child's on its standard error.
DeferredRun::DeferredRun(std::function<uint64_t(int64_t, int64_t)> run) {
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) return;
  std::cout.flush();
  std::cerr.flush();
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) {
    close(sv[0]);
    close(sv[1]);
    return;
  }
  if (pid == 0) {  // the child: no output of its own but its reason for failing
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent) _exit(0);
    // The parent's handlers clean up the parent's outputs and say so: a signal ends the child
    // silently, and the parent reports the missing result.
    for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGPIPE}) std::signal(sig, SIG_DFL);
    close(sv[0]);
    int64_t ab[2];
    if (!recv_all(sv[1], ab, sizeof ab)) _exit(0);  // not needed
    uint64_t r[2] = {0, 0};  // ok flag, value
    try {
      r[1] = run(ab[0], ab[1]);
      r[0] = 1;
    } catch (const std::exception& e) {
      std::cerr << "wormcast: the second run failed: " << e.what() << "\n";
    }
    if (!send_all(sv[1], r, sizeof r)) _exit(1);
    std::cout.flush();
    _exit(0);
  }
  close(sv[1]);
  m_sock = sv[0];
  m_pid = pid;
}

bool DeferredRun::result(int64_t a, int64_t b, uint64_t& out) {
  if (m_pid < 0) return false;
  const int64_t ab[2] = {a, b};
  uint64_t r[2] = {0, 0};
  const bool ok = send_all(m_sock, ab, sizeof ab) && recv_all(m_sock, r, sizeof r) && r[0] == 1;
  reap();
  out = r[1];
  return ok;
}

void DeferredRun::reap() {
  if (m_pid < 0) return;
  close(m_sock);
  int status = 0;
  waitpid(m_pid, &status, 0);
  m_pid = -1;
}

DeferredRun::~DeferredRun() { reap(); }

}  // namespace wormcast
