// Node programs on the SystemC model: elaboration, the run-until-quiet loop, message timing and
// blocking from the NIC's packet records.
#include "tb/program_run.h"

#include <memory>

#include <systemc>

#include "systemc/common/clock.h"
#include "systemc/nic/node_cpu.h"
#include "systemc/torus/network.h"
#include "tb/sim.h"

namespace wormcast {

namespace {

class TimingListener : public PacketListener {
 public:
  TimingListener(const sw::Topology& t, const RouterParams& rp) : m_topo(t), m_rp(rp) {}
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
    m.hops = m_topo.hops(r.src, r.dst, false);
    // The zero-load time does not depend on the tie bit: both directions are k/2 hops.
    const uint64_t zero = uint64_t(m.hops + 1) * uint64_t(m_rp.router_delay) +
                          uint64_t(m.hops) * uint64_t(m_rp.link_delay) + m.length;
    m.blocked = r.arrived - r.injected - zero;
    messages.push_back(m);
  }
  std::vector<MessageTiming> messages;
  bool m_multi = false;

 private:
  sw::Topology m_topo;
  RouterParams m_rp;
};

struct ProgramTop : sc_core::sc_module {
  sc_core::sc_clock clk;
  TimingListener listener;
  TorusNetwork net;
  std::vector<std::unique_ptr<NodeCpu>> cpus;
  ProgramTop(sc_core::sc_module_name n, const Config& cfg, const std::vector<sw::NodeProgram*>& programs)
      : sc_module(n),
        clk("clk", cycle_time()),
        listener(cfg.net.topology(), derive_router_params(cfg.net, cfg.router)),
        net("net", cfg, &listener) {
    net.clk(clk);
    for (int i = 0; i < net.num_nodes(); ++i) {
      sw::NodeProgram* p = size_t(i) < programs.size() ? programs[size_t(i)] : nullptr;
      cpus.push_back(std::make_unique<NodeCpu>(("cpu" + net.node_name(i).substr(1)).c_str(), net.topology(), i,
                                               net.nic(i), p));
    }
  }
};

}  // namespace

ProgramRun run_programs(const Config& cfg, const std::vector<sw::NodeProgram*>& programs,
                        const ProgramRunOptions& opt) {
  check_record_options(cfg, opt);
  auto top = std::make_unique<ProgramTop>("top", cfg, programs);
  TorusNetwork& net = top->net;
  Recorders rec(opt, top->clk, net);

  ProgramRun out;
  const int n = net.num_nodes();
  uint64_t cycle = 0, seen = 0, last_progress = 0;
  const uint64_t step = std::min<uint64_t>(256, cfg.sim.watchdog / 2 + 1);
  for (;;) {
    sc_core::sc_start(cycle_time() * double(step));
    cycle += step;
    const uint64_t moved = net.activity().switched + net.scoreboard().injected_packets();
    if (moved != seen) {
      seen = moved;
      last_progress = cycle;
    }
    bool quiet = net.outstanding() == 0;
    for (int i = 0; quiet && i < n; ++i) quiet = top->cpus[size_t(i)]->idle() && net.nic(i).next_rx_visible() == ~uint64_t(0);
    if (quiet) break;
    if (net.scoreboard().in_flight() > 0 && cycle - last_progress >= cfg.sim.watchdog) {
      out.status = "deadlock";
      out.deadlock = {{"detected", true}, {"cycle", cycle}, {"last_move", net.activity().last_move},
                      {"wait_for", net.wait_for()}};
      break;
    }
    if (cycle >= opt.max_cycles) {
      out.status = "timeout";
      break;
    }
  }
  rec.finish();

  out.cycles = cycle;
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
  if (net.scoreboard().error_count() > 0) out.status = "scoreboard_error";
  out.exit_code = out.status == "ok" ? 0 : out.status == "deadlock" ? 3 : 1;
  return out;
}

}  // namespace wormcast
