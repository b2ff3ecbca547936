// Node programs on the cycle-accurate model of any router family: elaboration, the run-until-quiet
// loop of the run driver, message timing and blocking from the NIC's packet records.
#include "tb/run/programs.h"

#include <memory>

#include <systemc>

#include "systemc/common/clock.h"
#include "systemc/net/network.h"
#include "tb/out/output_plan.h"
#include "tb/run/dry_run.h"
#include "systemc/nic/node_cpu.h"

namespace wormcast {

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

struct ProgramTop : sc_core::sc_module {
  sc_core::sc_clock clk;
  TimingListener listener;
  std::unique_ptr<Network> net;
  std::vector<std::unique_ptr<NodeCpu>> cpus;
  ProgramTop(sc_core::sc_module_name n, const Config& cfg, const std::vector<sw::NodeProgram*>& programs,
             bool trace_internals)
      : sc_module(n), clk("clk", cycle_time()) {
    NetworkOptions opt;
    opt.listener = &listener;
    opt.trace_internals = trace_internals;
    net = make_network("net", cfg, opt);
    listener.net = net.get();
    net->clk(clk);
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
  OutputPlan own;
  ProgramRunOptions opt = given;
  if (!opt.plan) {
    plan_recordings(own, opt);
    opt.plan = &own;
  }
  dry_run_point();  // the configuration checked, the outputs planned: the network is built next
  RunTopPtr<ProgramTop> top(new ProgramTop("top", cfg, programs, !opt.rtl_vcd.empty()));
  Network& net = *top->net;
  Recorders rec(opt, top->clk, net);

  const int n = net.num_nodes();
  RunPhases ph;
  ph.limit = opt.max_cycles;
  ph.on_limit = RunStatus::Timeout;
  ph.max_step = 256;
  ph.finished = [&](uint64_t) {
    if (net.outstanding() != 0) return false;
    for (int i = 0; i < n; ++i)
      if (!top->cpus[size_t(i)]->idle() || net.nic(i).next_rx_visible() != ~uint64_t(0)) return false;
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
  for (int i = 0; i < n; ++i) out.first_visible[size_t(i)] = top->cpus[size_t(i)]->first_receive();
  if (top->listener.m_multi) out.errors.push_back("multi-packet messages: raise nic.max_packet to the message length");
  for (auto& e : net.scoreboard().errors()) out.errors.push_back(e);
  out.exit_code = exit_code(out.status);
  if (!given.plan) own.commit();
  return out;
}

}  // namespace wormcast
