// The Verilated router (rtl/wc_router_top.sv, Verilator --cc) behind the port shape of RouterBase:
// Flit and Credit ports, converted to and from the model's 64-bit flit and 5-bit credit words by
// one clocked process that also evaluates the model.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include <systemc>

#include "sw/topology/topology.h"
#include "systemc/common/config.h"
#include "systemc/torus/flit.h"
#include "systemc/torus/router_base.h"

class VerilatedVcdC;

namespace wormcast {

/// Ports of the Verilated top (wc_pkg::MaxPorts): ports num_ports()..15 are tied off.
inline constexpr int kRtlMaxPorts = 16;

/// Everything that does not depend on the Verilated class: ports, word conversion, reset, and the
/// one clocked process that evaluates the model at each rising edge.
class RtlRouterBase : public RouterBase {
 public:
  /// The model is held in reset for the first reset_cycles rising edges (at least 1: Verilator
  /// starts with all state zero, not in the reset state); inputs must stay invalid until then.
  RtlRouterBase(sc_core::sc_module_name name, const RouterParams& params,
                const sw::Topology& topo, int node, int reset_cycles = 1);

  const char* model() const override { return "rtl"; }
  /// Every hop from now on, as the SystemC router reports it: the flit that leaves an output port
  /// at edge t, with the input port it entered by (matched at the ports, below).
  void set_observer(HopObserver* obs) override;
  /// The flits the router holds (in minus out, counted at its ports), as one entry.
  std::vector<Wait> waiting() const override;

  /// The model-side words, for waveforms.
  void trace_words(sc_core::sc_trace_file* tf, const std::string& prefix) const;
  /// VCD of every signal inside the Verilated model, from now on. Call after elaboration
  /// (sc_start(SC_ZERO_TIME)), with enable_internal_tracing() called before the model was built.
  bool trace_internals(const std::string& vcd_path) override = 0;
  /// Routers built from now on are Verilated with --trace (enable_rtl_model_tracing).
  static void enable_internal_tracing();

 protected:
  /// One rising edge of the model: inputs from m_fi, m_ci, m_rst_n and m_coord; the outputs of
  /// the new state into m_fo and m_co (the model's outputs depend on its state only).
  virtual void eval_edge() = 0;
  /// Half the period of the clock bound to `clk` (an sc_clock or a network's CycleClock), in the
  /// kernel's time resolution; 0 when neither (for the falling edge in the VCD).
  uint64_t clock_half_period() const;

  bool m_rst_n = false;
  uint32_t m_coord = 0;
  std::array<uint64_t, kRtlMaxPorts> m_fi{}, m_fo{};
  std::array<uint32_t, kRtlMaxPorts> m_ci{}, m_co{};

 private:
  void on_edge();

  /// Flit f left output port o at edge t: its hop to the observer.
  void observe(uint64_t t, int o, const Flit& f);
  /// The key of a flit inside the router while a hop observer looks: its payload (packet and flit
  /// index) and destination, the fields no hop changes.
  static uint64_t inside_key(const Flit& f) { return uint64_t(f.payload) | uint64_t(f.dst & 0xffff) << 32; }

  int m_np;
  uint64_t m_flits_in = 0, m_flits_out = 0;
  HopObserver* m_observer = nullptr;
  /// With an observer: the input port of every flit that entered and has not left, by inside_key;
  /// flits of one key (a packet id that wrapped past 2^24 while an older packet of the same
  /// destination is still inside) leave in the order they entered.
  std::multimap<uint64_t, int> m_inside;
  int m_reset_left;
  int m_settle;     ///< idle edges after which the router is at rest (on_edge)
  int m_quiet = 0;  ///< idle edges so far
};

/// V is the Verilated wc_router_top (Verilator --cc) of a parameter set equal to `params`
/// (built on demand from the same configuration, tb/rtl/rtl_models.h).
template <class V>
class RtlRouter : public RtlRouterBase {
 public:
  RtlRouter(sc_core::sc_module_name name, const RouterParams& params, const sw::Topology& topo,
            int node, int reset_cycles = 1)
      : RtlRouterBase(name, params, topo, node, reset_cycles),
        m_model((std::string(this->name()) + ".rtl").c_str()) {  // its waveform's scope, under the router's
    // A first evaluation with the clock low, so that the first kernel edge is a rising edge to
    // the model as well.
    m_model.clk_i = 0;
    m_model.rst_ni = 0;
    m_model.eval();
  }

  ~RtlRouter() override;  // rtl_router_impl.h, with trace_internals

  V& model() { return m_model; }

  bool trace_internals(const std::string& vcd_path) override;
  void close_internals() override;

 protected:
  void eval_edge() override;

 private:
  void dump(uint64_t offset);

  V m_model;
  std::unique_ptr<VerilatedVcdC> m_vcd;
  uint64_t m_half_period = 0;  ///< in the kernel's time resolution, for the falling edge in the VCD
};

}  // namespace wormcast
