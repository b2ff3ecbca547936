// Lockstep bench: one stimulus drives the same input signals of the SystemC and the Verilated
// router; at every falling edge the outputs of the cycle are compared, then the next inputs go out.
#include "tb/rtl/lockstep.h"

#include <deque>
#include <fstream>
#include <memory>
#include <random>
#include <sstream>
#include <vector>

#include <systemc>

#include "systemc/common/clock.h"
#include "systemc/torus/router.h"

namespace wormcast {

std::ostream& operator<<(std::ostream& os, const LockstepResult& r) {
  if (r.ok) {
    os << "lockstep ok: " << r.cycles << " cycles at node " << r.node << ", " << r.packets_in
       << " packets (" << r.single_flit << " single-flit), " << r.flits_in << " flits in, "
       << r.flits_out << " flits out, " << r.credits_out << " credits out, max "
       << r.max_buffered << " flits buffered, " << r.stalled_port_cycles
       << " output-port cycles with credits withheld";
  } else {
    os << "lockstep MISMATCH at cycle " << r.mismatch_cycle << " (node " << r.node << "): "
       << r.mismatch_wire << "[" << r.mismatch_port << "] vc " << r.mismatch_vc
       << ": systemc " << r.systemc_value << ", rtl " << r.rtl_value;
    if (!r.vcd_written.empty()) os << "; waveform " << r.vcd_written;
  }
  return os;
}

namespace {

/// The port wires of one cycle: the shared inputs and both routers' outputs, as words.
struct Sample {
  uint64_t cycle = 0;
  bool mismatch = false;
  std::vector<uint64_t> in_flit, sc_flit, rtl_flit;
  std::vector<uint32_t> in_credit, sc_credit, rtl_credit;
};

/// Writes the recorded window as a VCD: per port the inputs and both routers' outputs.
void write_vcd(const std::string& path, const std::deque<Sample>& window, int np,
               const std::string& model) {
  std::ofstream out(path);
  if (!out) return;
  out << "$comment lockstep window of " << model << " $end\n$timescale 1ns $end\n";
  int next_id = 0;
  auto id_of = [](int n) {
    std::string s;
    do {
      s += char('!' + n % 90);
      n /= 90;
    } while (n);
    return s;
  };
  struct Var {
    std::string id;
    int width;
  };
  std::vector<Var> vars;
  out << "$scope module lockstep $end\n";
  auto add = [&](const std::string& name, int width) {
    vars.push_back({id_of(next_id++), width});
    out << "$var wire " << width << " " << vars.back().id << " " << name << " $end\n";
  };
  add("mismatch", 1);
  for (int p = 0; p < np; ++p) {
    const std::string s = std::to_string(p);
    add("in_flit_" + s, 64);
    add("in_credit_" + s, 5);
    add("systemc_flit_out_" + s, 64);
    add("rtl_flit_out_" + s, 64);
    add("systemc_credit_out_" + s, 5);
    add("rtl_credit_out_" + s, 5);
  }
  out << "$upscope $end\n$enddefinitions $end\n";
  auto bits = [](uint64_t v, int w) {
    std::string s = "b";
    for (int i = w - 1; i >= 0; --i) s += (v >> i & 1) ? '1' : '0';
    return s;
  };
  for (const Sample& smp : window) {
    out << "#" << smp.cycle << "\n" << (smp.mismatch ? '1' : '0') << vars[0].id << "\n";
    for (int p = 0; p < np; ++p) {
      const uint64_t v[6] = {smp.in_flit[size_t(p)], smp.in_credit[size_t(p)],
                             smp.sc_flit[size_t(p)], smp.rtl_flit[size_t(p)],
                             smp.sc_credit[size_t(p)], smp.rtl_credit[size_t(p)]};
      for (int k = 0; k < 6; ++k) {
        const Var& var = vars[size_t(1 + p * 6 + k)];
        out << bits(v[k], var.width) << " " << var.id << "\n";
      }
    }
  }
  if (!window.empty()) out << "#" << window.back().cycle + 1 << "\n";
}

/// Coordinate k/2 + 1 in every dimension: on a torus, past the middle a plus port carries
/// packets of both dateline classes (those that wrap and those that do not), so even with V = 1
/// two input ports can hold VCs of the same output port and contend for the switch.
int default_node(const sw::Topology& topo) {
  sw::Coord c;
  for (int d = 0; d < topo.dims(); ++d) c[d] = (topo.radix(d) / 2 + 1) % topo.radix(d);
  return topo.node(c);
}

class LockstepBench : public sc_core::sc_module {
 public:
  static constexpr int kResetCycles = 2;

  LockstepBench(sc_core::sc_module_name name, const RtlModelInfo& model,
                const LockstepOptions& opt, LockstepResult& result)
      : sc_module(name),
        m_model(model),
        m_opt(opt),
        m_res(result),
        m_topo(model.topology()),
        m_p(model.router_params()),
        m_np(m_p.num_ports()),
        m_nv(m_p.num_vcs),
        m_rng(opt.seed * 0x9e3779b97f4a7c15ULL + 1),
        m_clk("clk", cycle_time()),
        m_in_flit("in_flit", size_t(m_np)),
        m_sc_flit("sc_flit", size_t(m_np)),
        m_rtl_flit("rtl_flit", size_t(m_np)),
        m_in_credit("in_credit", size_t(m_np)),
        m_sc_credit("sc_credit", size_t(m_np)),
        m_rtl_credit("rtl_credit", size_t(m_np)) {
    m_node = opt.node >= 0 ? opt.node : default_node(m_topo);
    m_res.node = m_node;
    m_sc = std::make_unique<TorusRouter>("systemc", m_p, m_topo, m_node);
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

    // Upstream of every input VC and downstream of every output VC.
    m_connected.assign(size_t(m_np), true);
    for (int p = 0; p < 2 * m_p.dims; ++p) m_connected[size_t(p)] = m_topo.neighbor(m_node, p) >= 0;
    m_up_credit.assign(size_t(m_np * m_nv), m_p.buffer_depth);
    m_up_left.assign(size_t(m_np * m_nv), 0);
    m_up_pkt.assign(size_t(m_np * m_nv), Flit{});
    m_up_index.assign(size_t(m_np * m_nv), 0);
    m_owed.assign(size_t(m_np * m_nv), 0);
    m_stalled.assign(size_t(m_np), false);
    new_phase(0);

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
  bool chance(double p) { return std::uniform_real_distribution<double>(0, 1)(m_rng) < p; }
  int pick(int n) { return int(m_rng() % uint64_t(n)); }

  /// Load changes in phases, so that runs see empty, saturated and blocked routers alike.
  void new_phase(uint64_t c) {
    static const double kInject[] = {0.02, 0.15, 0.4, 0.8, 1.0};
    static const double kCredit[] = {0.05, 0.3, 0.7, 1.0, 1.0};
    m_inject = kInject[pick(5)];
    m_credit_rate = kCredit[pick(5)];
    m_stall_on = chance(0.5) ? 0.0 : 0.02;
    // Hot destinations concentrate packets on a few output ports, so that input ports contend
    // for the same output (different output VCs) and the switch allocator's choice matters.
    static const double kHot[] = {0.0, 0.5, 0.9};
    m_hot_share = kHot[pick(3)];
    m_hot.clear();
    for (int i = 1 + pick(3); i > 0; --i) m_hot.push_back(pick(m_topo.num_nodes()));
    m_phase_end = c + 100 + uint64_t(pick(1500));
  }

  void step() {
    const uint64_t c = current_cycle();
    compare(c);
    if (!m_res.ok) {
      // Keep running (without new stimulus) for the waveform window after the mismatch.
      if (c >= m_stop_at) {
        finish_mismatch();
        return;
      }
    } else if (c >= last_cycle()) {
      m_res.cycles = c + 1;
      sc_core::sc_stop();
      return;
    }
    m_res.max_buffered = std::max(m_res.max_buffered, m_sc->buffered());

    // What the routers did in cycle c (the SystemC outputs; the comparison covers the RTL).
    std::vector<std::pair<int, int>> returned;  // credits for the upstream, usable from c+1
    for (int p = 0; p < m_np; ++p) {
      const Flit& f = m_sc_flit[p].read();
      if (f.valid) {
        ++m_owed[size_t(p * m_nv + f.vc)];
        ++m_res.flits_out;
      }
      const Credit& cr = m_sc_credit[p].read();
      if (cr.valid) {
        returned.emplace_back(p, cr.vc);
        ++m_res.credits_out;
      }
    }

    if (c >= m_phase_end) new_phase(c);
    // Inputs driven now are sampled at edge c+1; the RTL leaves reset at edge kResetCycles.
    const bool stimulus = m_res.ok && c + 1 >= uint64_t(kResetCycles) && c + 1 < last_cycle();
    for (int p = 0; p < m_np; ++p) {
      m_in_flit[p].write(stimulus ? next_flit(p) : Flit{});
      // After a mismatch the stimulus (modelled on the SystemC outputs) no longer fits the RTL:
      // silence, so that the window after it shows the RTL's own behaviour, not overflows.
      m_in_credit[p].write(m_res.ok ? next_credit(p) : Credit{});
    }
    for (auto [p, v] : returned) ++m_up_credit[size_t(p * m_nv + v)];
  }

  /// The flit the upstream of input port p sends in this cycle: one per port, only with a
  /// credit, packets in order per VC, VCs interleaved at random.
  Flit next_flit(int p) {
    if (!m_connected[size_t(p)] || !chance(m_inject)) return Flit{};
    int cand[16];
    int n = 0;
    for (int v = 0; v < m_nv; ++v)
      if (m_up_credit[size_t(p * m_nv + v)] > 0) cand[n++] = v;
    if (n == 0) return Flit{};
    const int v = cand[pick(n)];
    const size_t i = size_t(p * m_nv + v);
    Flit f;
    if (m_up_left[i] == 0) {
      const int len = 1 + pick(m_opt.max_packet);
      Flit& h = m_up_pkt[i];
      h = Flit{};
      h.dst = uint16_t(chance(m_hot_share) ? m_hot[size_t(pick(int(m_hot.size())))]
                                            : pick(m_topo.num_nodes()));
      h.tie = chance(0.5);
      m_up_left[i] = len;
      m_up_index[i] = 0;
      ++m_packet;
      ++m_res.packets_in;
      if (len == 1) ++m_res.single_flit;
      f = h;
      f.head = true;
    } else {
      f = m_up_pkt[i];
    }
    f.valid = true;
    f.vc = uint8_t(v);
    // Packet id and index as the NIC writes them, with random high bits on some flits so that
    // every payload bit is carried.
    f.payload = make_payload(m_packet, uint32_t(m_up_index[i]++));
    if (chance(0.1)) f.payload ^= uint32_t(m_rng()) & 0xff000000u;
    f.tail = --m_up_left[i] == 0;
    --m_up_credit[i];
    ++m_res.flits_in;
    return f;
  }

  /// The credit the downstream of output port o returns in this cycle (the flit it received in
  /// this very cycle included, as the NIC does); withheld while the port is stalled.
  Credit next_credit(int o) {
    char& stalled = m_stalled[size_t(o)];
    if (stalled ? chance(0.05) : chance(m_stall_on)) stalled = !stalled;
    if (stalled) {
      ++m_res.stalled_port_cycles;
      return Credit{};
    }
    if (!chance(m_credit_rate)) return Credit{};
    int cand[16];
    int n = 0;
    for (int w = 0; w < m_nv; ++w)
      if (m_owed[size_t(o * m_nv + w)] > 0) cand[n++] = w;
    if (n == 0) return Credit{};
    const int w = cand[pick(n)];
    --m_owed[size_t(o * m_nv + w)];
    return Credit{true, uint8_t(w)};
  }

  void compare(uint64_t c) {
    Sample s;
    s.cycle = c;
    for (int p = 0; p < m_np; ++p) {
      const Flit& a = m_sc_flit[p].read();
      const Flit& b = m_rtl_flit[p].read();
      const Credit& ca = m_sc_credit[p].read();
      const Credit& cb = m_rtl_credit[p].read();
      s.in_flit.push_back(m_in_flit[p].read().pack());
      s.in_credit.push_back(m_in_credit[p].read().pack());
      s.sc_flit.push_back(a.pack());
      s.rtl_flit.push_back(b.pack());
      s.sc_credit.push_back(ca.pack());
      s.rtl_credit.push_back(cb.pack());
      if (a != b) {
        s.mismatch = true;
        record_mismatch(c, "flit_out", p, a.valid ? a.vc : b.vc, a, b);
      }
      if (!(ca == cb)) {
        s.mismatch = true;
        record_mismatch(c, "credit_out", p, ca.valid ? ca.vc : cb.vc, ca, cb);
      }
    }
    m_history.push_back(std::move(s));
    // Before a mismatch keep the last `window` cycles; after it keep everything until the stop.
    if (m_res.ok && m_history.size() > size_t(std::max(1, m_opt.window))) m_history.pop_front();
  }

  template <class T>
  void record_mismatch(uint64_t c, const char* wire, int port, int vc, const T& a, const T& b) {
    if (!m_res.ok) return;
    m_res.ok = false;
    m_res.cycles = c;
    m_res.mismatch_cycle = c;
    m_res.mismatch_wire = wire;
    m_res.mismatch_port = port;
    m_res.mismatch_vc = vc;
    std::ostringstream sa, sb;
    sa << a << " (0x" << std::hex << a.pack() << ")";
    sb << b << " (0x" << std::hex << b.pack() << ")";
    m_res.systemc_value = sa.str();
    m_res.rtl_value = sb.str();
    m_stop_at = c + uint64_t(std::max(0, m_opt.window));
  }

  void finish_mismatch() {
    if (!m_opt.mismatch_vcd.empty()) {
      write_vcd(m_opt.mismatch_vcd, m_history, m_np, m_model.name);
      m_res.vcd_written = m_opt.mismatch_vcd;
    }
    sc_core::sc_stop();
  }

  const RtlModelInfo& m_model;
  LockstepOptions m_opt;
  LockstepResult& m_res;
  sw::Topology m_topo;
  RouterParams m_p;
  int m_np, m_nv;
  int m_node = 0;
  std::mt19937_64 m_rng;

  sc_core::sc_clock m_clk;
  sc_core::sc_vector<sc_core::sc_signal<Flit>> m_in_flit, m_sc_flit, m_rtl_flit;
  sc_core::sc_vector<sc_core::sc_signal<Credit>> m_in_credit, m_sc_credit, m_rtl_credit;
  std::unique_ptr<TorusRouter> m_sc;
  std::unique_ptr<RtlRouterBase> m_rtl;
  sc_core::sc_trace_file* m_tf = nullptr;

  std::vector<bool> m_connected;
  std::vector<int> m_up_credit, m_up_left, m_owed;
  std::vector<Flit> m_up_pkt;
  std::vector<int> m_up_index;
  std::vector<char> m_stalled;  // not vector<bool>: next_credit keeps a reference
  uint64_t m_packet = 0;
  double m_inject = 0, m_credit_rate = 0, m_stall_on = 0, m_hot_share = 0;
  std::vector<int> m_hot;
  uint64_t m_phase_end = 0;

  std::deque<Sample> m_history;
  uint64_t m_stop_at = 0;
};

}  // namespace

LockstepResult run_lockstep(const RtlModelInfo& model, const LockstepOptions& opt) {
  LockstepResult res;
  if (!opt.rtl_vcd.empty()) RtlRouterBase::enable_internal_tracing();
  LockstepBench bench("lockstep", model, opt, res);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  if (!opt.rtl_vcd.empty()) bench.rtl().trace_internals(opt.rtl_vcd);
  sc_core::sc_start();
  return res;
}

}  // namespace wormcast
