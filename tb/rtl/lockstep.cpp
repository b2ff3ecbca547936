// Lockstep bench: one stimulus drives the same input signals of the SystemC and the Verilated
// router; at every falling edge the outputs of the cycle are compared, then the next inputs go out.
#include "tb/rtl/lockstep.h"

#include <algorithm>
#include <memory>
#include <sstream>
#include <vector>

#include <fmt/format.h>
#include <systemc>

#include "systemc/common/clock.h"
#include "systemc/common/config.h"
#include "sw/topology/path.h"
#include "systemc/torus/router.h"
#include "tb/rtl/lockstep_checker.h"
#include "tb/rtl/lockstep_stimulus.h"
#include "tb/rtl/lockstep_vcd.h"

namespace wormcast {

std::ostream& operator<<(std::ostream& os, const LockstepResult& r) {
  if (r.ok) {
    os << "lockstep ok: " << r.cycles << " cycles compared (reset included) at node " << r.node << ", " << r.packets_in
       << " packets (" << r.single_flit << " single-flit), " << r.flits_in << " flits in, "
       << r.flits_out << " flits out, " << r.credits_out << " credits out, max "
       << r.max_buffered << " flits buffered, " << r.stalled_port_cycles
       << " output-port cycles with credits withheld; flits out per port";
    for (size_t p = 0; p < r.flits_out_port.size(); ++p) os << (p ? "/" : " ") << r.flits_out_port[p];
  } else {
    os << "lockstep MISMATCH at cycle " << r.mismatch_cycle << " (node " << r.node << "): "
       << r.mismatch_wire << "[" << r.mismatch_port << "] vc " << r.mismatch_vc
       << ": systemc " << r.systemc_value << ", rtl " << r.rtl_value;
    if (!r.vcd_written.empty()) os << "; waveform " << r.vcd_written;
    // Every mismatching wire of the window after the first, and how many there were.
    if (!r.checker_report.empty()) os << "\n" << r.checker_report.substr(0, r.checker_report.size() - 1);
  }
  return os;
}

namespace {

/// Coordinate k/2 + 1 in every dimension: on a torus, past the middle a plus port carries
/// packets of both dateline classes (those that wrap and those that do not), so even with V = 1
/// two input ports can hold VCs of the same output port and contend for the switch.
int default_node(const sw::Topology& topo) {
  sw::Coord c;
  for (int d = 0; d < topo.dims(); ++d) c[d] = (topo.radix(d) / 2 + 1) % topo.radix(d);
  return topo.node(c);
}

/// --node (negative: the default node), refused when the network has no such node.
int checked_node(int node, const sw::Topology& topo) {
  if (node < 0) return default_node(topo);
  if (node >= topo.num_nodes())
    throw ConfigError(fmt::format("--node = {} is invalid; allowed: 0..{} (the nodes of {})", node,
                                  topo.num_nodes() - 1, sw::describe(topo)));
  return node;
}

class LockstepBench : public sc_core::sc_module {
 public:
  static constexpr int kResetCycles = 2;

  LockstepBench(sc_core::sc_module_name name, const RtlModelInfo& model,
                const LockstepOptions& opt, LockstepResult& result)
      : sc_module(name),
        m_opt(opt),
        m_res(result),
        m_topo(model.topology()),
        m_p(model.router_params()),
        m_routing(model.routing()),
        m_np(m_p.num_ports()),
        m_node(checked_node(opt.node, m_topo)),
        m_stimulus(m_topo, m_p, m_node, opt.seed, opt.max_packet, opt.load),
        m_vcd(m_np, opt.window, model.name),
        m_clk("clk", cycle_time()),
        m_in_flit("in_flit", size_t(m_np)),
        m_sc_flit("sc_flit", size_t(m_np)),
        m_rtl_flit("rtl_flit", size_t(m_np)),
        m_in_credit("in_credit", size_t(m_np)),
        m_sc_credit("sc_credit", size_t(m_np)),
        m_rtl_credit("rtl_credit", size_t(m_np)) {
    m_res.node = m_node;
    m_sc = std::make_unique<TorusRouter>("systemc", m_p, m_topo, m_node, nullptr, m_routing.get());
    m_rtl = model.make("rtl", m_p, m_topo, m_node, kResetCycles);
    m_sc->clk(m_clk);
    m_rtl->clk(m_clk);
    for (int p = 0; p < m_np; ++p) {
      // Both routers read the very same input signals: the stimulus cannot differ.
      m_sc->flit_in[p](m_in_flit[p]);
      m_rtl->flit_in[p](m_in_flit[p]);
      m_sc->credit_in[p](m_in_credit[p]);
      m_rtl->credit_in[p](m_in_credit[p]);
      m_sc->flit_out[p](m_sc_flit[p]);
      m_rtl->flit_out[p](m_rtl_flit[p]);
      m_sc->credit_out[p](m_sc_credit[p]);
      m_rtl->credit_out[p](m_rtl_credit[p]);
    }

    if (!opt.full_vcd.empty()) {
      std::string base = opt.full_vcd;
      if (base.size() > 4 && base.compare(base.size() - 4, 4, ".vcd") == 0)
        base.resize(base.size() - 4);
      m_tf = sc_core::sc_create_vcd_trace_file(base.c_str());
      m_tf->set_time_unit(100, sc_core::SC_PS);
      sc_core::sc_trace(m_tf, m_clk, "clk");
      for (int p = 0; p < m_np; ++p) {
        const std::string s = std::to_string(p);
        sc_trace(m_tf, m_in_flit[p].read(), "in_flit_" + s);
        sc_trace(m_tf, m_in_credit[p].read(), "in_credit_" + s);
        sc_trace(m_tf, m_sc_flit[p].read(), "systemc.flit_out_" + s);
        sc_trace(m_tf, m_rtl_flit[p].read(), "rtl.flit_out_" + s);
        sc_trace(m_tf, m_sc_credit[p].read(), "systemc.credit_out_" + s);
        sc_trace(m_tf, m_rtl_credit[p].read(), "rtl.credit_out_" + s);
      }
      m_rtl->trace_words(m_tf, "rtl.words");
    }

    SC_HAS_PROCESS(LockstepBench);
    SC_METHOD(step);
    sensitive << m_clk.negedge_event();
    dont_initialize();
  }

  ~LockstepBench() override {
    if (m_tf) sc_core::sc_close_vcd_trace_file(m_tf);
  }

  uint64_t last_cycle() const { return kResetCycles + m_opt.cycles; }
  RtlRouterBase& rtl() { return *m_rtl; }

 private:
  void step() {
    const uint64_t c = current_cycle();
    m_vcd.record(read_wires(c));
    if (!m_checker.ok()) {
      // Keep running (without new stimulus) for the waveform window after the mismatch.
      if (c >= m_checker.first().cycle + uint64_t(std::max(0, m_opt.window))) {
        finish_mismatch();
        return;
      }
    } else if (c >= last_cycle()) {
      m_res.cycles = c + 1;
      finish();
      return;
    }
    m_res.max_buffered = std::max(m_res.max_buffered, m_sc->buffered());

    // What the routers did in cycle c: the SystemC outputs (the checker covers the RTL).
    for (int p = 0; p < m_np; ++p)
      m_stimulus.observe(p, m_out_sc_flit[size_t(p)], m_out_sc_credit[size_t(p)]);
    // Inputs driven now are sampled at edge c+1; the RTL leaves reset at edge kResetCycles.
    const bool flits = m_checker.ok() && c + 1 >= uint64_t(kResetCycles) && c + 1 < last_cycle();
    // After a mismatch the stimulus (modelled on the SystemC outputs) no longer fits the RTL:
    // silence, so that the window after it shows the RTL's own behaviour, not overflows.
    m_stimulus.next_inputs(c, flits, m_checker.ok(), m_next_flit, m_next_credit);
    for (int p = 0; p < m_np; ++p) {
      m_in_flit[p].write(m_next_flit[size_t(p)]);
      m_in_credit[p].write(m_next_credit[size_t(p)]);
    }
  }

  /// Reads every port wire of cycle c, checks the outputs, and returns the cycle for the VCD.
  LockstepSample read_wires(uint64_t c) {
    m_out_sc_flit.resize(size_t(m_np));
    m_out_rtl_flit.resize(size_t(m_np));
    m_out_sc_credit.resize(size_t(m_np));
    m_out_rtl_credit.resize(size_t(m_np));
    LockstepSample s;
    s.cycle = c;
    for (int p = 0; p < m_np; ++p) {
      m_out_sc_flit[size_t(p)] = m_sc_flit[p].read();
      m_out_rtl_flit[size_t(p)] = m_rtl_flit[p].read();
      m_out_sc_credit[size_t(p)] = m_sc_credit[p].read();
      m_out_rtl_credit[size_t(p)] = m_rtl_credit[p].read();
      s.in_flit.push_back(m_in_flit[p].read().pack());
      s.in_credit.push_back(m_in_credit[p].read().pack());
      s.sc_flit.push_back(m_out_sc_flit[size_t(p)].pack());
      s.rtl_flit.push_back(m_out_rtl_flit[size_t(p)].pack());
      s.sc_credit.push_back(m_out_sc_credit[size_t(p)].pack());
      s.rtl_credit.push_back(m_out_rtl_credit[size_t(p)].pack());
    }
    s.mismatch = !m_checker.step(c, m_out_sc_flit, m_out_rtl_flit, m_out_sc_credit,
                                 m_out_rtl_credit);
    return s;
  }

  void finish() {
    const StimulusCounts& n = m_stimulus.counts();
    m_res.flits_in = n.flits_in;
    m_res.flits_out = n.flits_out;
    m_res.credits_out = n.credits_out;
    m_res.packets_in = n.packets_in;
    m_res.single_flit = n.single_flit;
    m_res.stalled_port_cycles = n.stalled_port_cycles;
    m_res.flits_out_port = n.flits_out_port;
    sc_core::sc_stop();
  }

  void finish_mismatch() {
    const LockstepMismatch& m = m_checker.first();
    m_res.ok = false;
    m_res.cycles = m.cycle;
    m_res.mismatch_cycle = m.cycle;
    m_res.mismatch_wire = m.wire;
    m_res.mismatch_port = m.port;
    m_res.mismatch_vc = m.vc;
    m_res.systemc_value = m.systemc_value;
    m_res.rtl_value = m.rtl_value;
    std::ostringstream report;
    m_checker.report(report);
    m_res.checker_report = report.str();
    if (!m_opt.mismatch_vcd.empty()) {
      m_vcd.write(m_opt.mismatch_vcd);
      m_res.vcd_written = m_opt.mismatch_vcd;
    }
    finish();
  }

  LockstepOptions m_opt;
  LockstepResult& m_res;
  sw::Topology m_topo;
  RouterParams m_p;
  std::shared_ptr<const PortRouting> m_routing;  ///< null: dimension order by m_topo (torus family)
  int m_np;
  int m_node;
  LockstepStimulus m_stimulus;
  LockstepChecker m_checker;
  LockstepVcd m_vcd;

  sc_core::sc_clock m_clk;
  sc_core::sc_vector<sc_core::sc_signal<Flit>> m_in_flit, m_sc_flit, m_rtl_flit;
  sc_core::sc_vector<sc_core::sc_signal<Credit>> m_in_credit, m_sc_credit, m_rtl_credit;
  std::unique_ptr<TorusRouter> m_sc;
  std::unique_ptr<RtlRouterBase> m_rtl;
  sc_core::sc_trace_file* m_tf = nullptr;

  // The wires of the current cycle as values, reused from cycle to cycle.
  std::vector<Flit> m_out_sc_flit, m_out_rtl_flit, m_next_flit;
  std::vector<Credit> m_out_sc_credit, m_out_rtl_credit, m_next_credit;
};

}  // namespace

LockstepResult run_lockstep(const RtlModelInfo& model, const LockstepOptions& opt) {
  LockstepResult res;
  checked_node(opt.node, model.topology());  // before anything is elaborated
  if (!opt.rtl_vcd.empty()) RtlRouterBase::enable_internal_tracing();
  LockstepBench bench("lockstep", model, opt, res);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  if (!opt.rtl_vcd.empty()) bench.rtl().trace_internals(opt.rtl_vcd);
  sc_core::sc_start();
  return res;
}

}  // namespace wormcast
