// The m-way fabric built of Verilated units (rtl/mway/): wc_mw_router, wc_mw_node_if and
// wc_mw_channel models wired as wc_mw_fabric wires them, behind the fabric interface
// (docs/mway.md section 11), so that it replaces the SystemC MwayFabric in a network
// (mway.model = rtl) or runs beside it in lockstep (tb/rtl/mway/mw_lockstep.h).
//
// Why units and not one Verilated wc_mw_fabric: Verilator emits the code of every instance of a
// module separately, so a whole 4x4x4 fabric is about a million lines of C++. One build of the
// three units serves any network with the same unit parameters, and one clocked process evaluates
// them in the order of the cycle's combinational stages (docs/rtl-mway.md).
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <systemc>

#include "systemc/mway/fabric_if.h"
#include "tb/rtl/mway/mw_layout.h"

namespace wormcast {

/// Where a tap of a channel is wired: for p < 2n the router `unit` and its set (0 = DIM+,
/// 1 = DIM-), for p = 2n the node interface `unit`; unit -1: nothing (the mesh border).
struct MwTap {
  int unit = -1;
  int set = 0;
};

/// wc_mw_fabric's netlist for one geometry.
struct MwNetlist {
  explicit MwNetlist(const sw::MwayGeometry& g);
  struct Router {
    int dim, low, high;
  };
  int m;
  std::vector<MwTap> rx, tx;     ///< [c*m + p]: the receiver of way p / driver p of channel c
  std::vector<Router> routers;   ///< indexed like sw::MwayGeometry's routers
};

/// The Verilated units of one configuration and the pass sequence over them (MwRtlUnitsImpl).
class MwRtlUnits {
 public:
  virtual ~MwRtlUnits() = default;
  /// Holds reset over one rising edge, then evaluates the first cycle.
  virtual void reset() = 0;
  /// Cycle t from the state after edge t: Stat, bids, arbitration, content search, ordered
  /// reservation, Spl, take/resv, in the order the combinational stages depend on each other.
  virtual void evaluate() = 0;
  /// Node n's source-queue front for the coming edge (valid false: none or not yet due).
  virtual void offer(int node, bool valid, const uint32_t* hdr, bool report) = 0;
  /// Evaluates the node interfaces whose inputs changed since they were last evaluated.
  virtual void settle_nodes() = 0;
  /// The coming edge takes node n's offered message.
  virtual bool taken(int node) const = 0;
  /// The delivery node n receives at the coming edge (false: none); its header word in hdr.
  virtual bool delivery(int node, uint32_t* hdr, bool& head, bool& tail, uint32_t& index) const = 0;
  /// The rising edge of every unit.
  virtual void clock_edge() = 0;
  /// Whether an RTL assertion failed since the last call (the units report and go on: the
  /// fabric's process checks after every edge); clears the flag.
  virtual bool take_error() = 0;
  /// Observation words of the units (valid after evaluate(); wc_mw_* obs_o).
  virtual const uint32_t* obs_channel(int c) = 0;
  virtual const uint32_t* obs_router(int r) = 0;  ///< DIM+ rows, then DIM- rows
  virtual const uint32_t* obs_inj(int n) = 0;
  virtual const uint32_t* obs_ej(int n) = 0;
  virtual const uint32_t* obs_ld(int n) = 0;
};

class MwayRtlFabric : public sc_core::sc_module, public MwayFabricIf {
 public:
  sc_core::sc_in<bool> clk{"clk"};

  /// `units` built for `params` and an id width of `id_w` bits (the build's IdW).
  using UnitsFactory =
      std::function<std::unique_ptr<MwRtlUnits>(const MwLayout&, const MwNetlist&, const sw::MwayGeometry&)>;
  MwayRtlFabric(sc_core::sc_module_name name, const MwayParams& params, int id_w, const UnitsFactory& make_units);

  // ---- the fabric interface
  sc_core::sc_in<bool>& clock_in() override { return clk; }
  const sw::MwayGeometry& geometry() const override { return m_geo; }
  const MwayParams& params() const override { return m_p; }
  void submit(int node, const MwayMessage& m) override;
  size_t queued(int node) const override { return m_queue[size_t(node)].size(); }
  void set_observer(MwayObserver* obs) override { m_obs = obs; }
  /// The crossings are read at the units' tables (tick): the rows that took each flit.
  void set_channel_observer(MwayChannelObserver* obs) override {
    m_chobs = obs;
    m_crossings.clear();
  }
  void set_activity(NetActivity* activity) override { m_activity = activity; }
  uint64_t last_move() const override { return m_last_move; }
  uint64_t flits_moved() const override { return m_moved; }
  std::vector<uint64_t> channel_flits() const override { return m_ch_flits; }
  std::vector<uint64_t> node_flits() const override { return m_node_flits; }
  std::vector<std::pair<std::string, uint64_t>> line_uses() const override;
  size_t buffered_flits() const override;
  size_t queued_messages() const override;
  bool idle() const override;
  /// One entry per router or node interface holding flits (the buffer-level edges are inside the
  /// Verilated units; their tables are in the lockstep comparison).
  std::vector<WaitEdge> wait_edges() const override;
  bool names_every_waiting_packet() const override { return false; }
  /// Every channel's lines, as the SystemC fabric names and sizes them.
  void trace(sc_core::sc_trace_file* tf) const override;

  // ---- what the lockstep comparison reads (state after the last edge, lines of this cycle)
  const MwLayout& layout() const { return m_l; }
  const MwNetlist& netlist() const { return m_net; }
  MwLines lines(int c) const;
  MwSetRow router_row(int r, int set, int row) const;
  MwSetRow inj_row(int node, int row) const;
  MwEjRow ej_row(int node, int row) const;
  /// The loader of node n: the rows it writes (mask) and the next flit index.
  std::pair<uint32_t, uint32_t> loader(int node) const;
  /// An RTL assertion failed (its message went to standard output).
  bool rtl_error() const { return m_rtl_error; }

 private:
  struct Item {
    MwayPacket pkt;
    uint64_t created;
    bool report_inject;
  };
  void tick();
  void commit_reports(uint64_t t);
  /// The packet id and index of the flit channel c drives on lines x: the front of the driving row
  /// (docs/mway.md section 2.1).
  std::pair<uint64_t, uint32_t> driven_flit(int c, const MwLines& x) const;
  /// Channel c's crossing of cycle t on lines x (before the edge that commits it), with the
  /// receivers of a body or tail flit found as the content search finds them.
  void note_crossing(uint64_t t, int c, const MwLines& x);
  /// After that edge: the receivers of each header, the rows that now map its (Drv, Buf); then
  /// every crossing that moved a flit goes to the observer.
  void report_crossings();
  /// The rows of the set that tap `p` of channel c names which hold (A, not R, not T) the
  /// packet of (drv, buf): the content search of section 5.2, on the tables as they are now.
  template <class F>
  void matching_rows(int c, int p, int drv, int buf, F&& on_row) const;

  MwayParams m_p;
  sw::MwayGeometry m_geo;
  MwLayout m_l;
  MwNetlist m_net;
  std::unique_ptr<MwRtlUnits> m_units;
  std::vector<std::deque<Item>> m_queue;
  MwayObserver* m_obs = nullptr;
  MwayChannelObserver* m_chobs = nullptr;
  std::vector<MwayChannelEvent> m_crossings;  ///< of the cycle the coming edge commits (note_crossing)
  NetActivity* m_activity = nullptr;
  uint64_t m_last_move = 0, m_moved = 0;
  std::vector<uint64_t> m_ch_flits, m_node_flits;
  std::array<uint64_t, 4> m_use{};
  bool m_rtl_error = false;
  std::vector<uint32_t> m_hdr;  ///< scratch header word
  /// Each node's loader (rows, next flit) after the last edge: a change is a flit loaded, progress
  /// for the watchdog as the SystemC fabric counts it.
  std::vector<std::pair<uint32_t, uint32_t>> m_loader_was;
  // Traced copies of the lines (trace()).
  struct TracedLines {  // words as their bits (mway_trace_channel): an idle Drv and Buf all ones
    uint32_t drv = ~0u, tag = 0, buf = ~0u;
    uint32_t ways = 0, pri = 0, stat_free = 0, stat_full = 0;
    bool ack = false;
    uint64_t packet = 0;  ///< the driven flit's packet id and index (the driving row's front)
    uint32_t flit = 0;
  };
  mutable std::vector<TracedLines> m_traced;
  mutable bool m_tracing = false;
  mutable uint32_t m_drv_mask = ~0u, m_buf_mask = ~0u;
};

}  // namespace wormcast
