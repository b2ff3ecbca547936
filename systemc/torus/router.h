// The wormhole VC torus router of docs/router.md: at each rising edge it reads every input, then
// runs the stages (route, VC allocation, switch allocation, traversal) around two allocator
// units, each stage from the state the previous one left. A network runs its routers from one
// edge set (systemc/kernel/edge_set.h); a router built alone runs its own clocked process.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include <systemc>

#include "sw/topology/topology.h"
#include "systemc/common/config.h"
#include "systemc/kernel/edge_set.h"
#include "systemc/kernel/link_signal.h"
#include "systemc/torus/allocator.h"
#include "systemc/torus/credit_unit.h"
#include "systemc/torus/flit.h"
#include "systemc/torus/router_base.h"
#include "systemc/torus/routing.h"

namespace wormcast {

class TorusRouter : public EdgeMember, public RouterBase {
 public:
  /// edges: the rising-edge set that runs this router (its inputs must then be LinkSignals); null:
  /// the router runs its own process.
  /// topo: kept by reference, it must outlive the router.
  TorusRouter(sc_core::sc_module_name name, const RouterParams& params, const sw::Topology& topo,
              int node, NetActivity* activity = nullptr, const PortRouting* routing = nullptr,
              EdgeSet* edges = nullptr, bool plain = false, InputWatch* watch = nullptr);

  const char* model() const override { return "sc"; }
  std::vector<uint64_t> output_flits() const override;
  void set_observer(HopObserver* obs) override { m_observer = obs; }
  /// An edge set may run this router on any lane unless an observer sees its hops (docs/kernel.md).
  bool lane_safe() const override;
  /// Its links are mailboxes from now on (before the simulation starts; docs/kernel.md).
  void use_mailboxes();
  // Plain links (built with plain = true, run by an edge set; docs/kernel.md): no port
  // objects; the network hands each input its link's two boxes and each output its writer.
  /// Input p reads these boxes (parity 0 and 1) of its flit and credit links.
  void plain_input(int p, const Flit* flit_boxes, const Credit* credit_boxes) {
    for (int b = 0; b < 2; ++b) {
      m_flit_in_val[b][size_t(p)] = flit_boxes + b;
      m_credit_in_val[b][size_t(p)] = credit_boxes + b;
    }
  }
  LinkWriter<Flit>& plain_flit_output(int p) { return m_flit_out[size_t(p)]; }
  LinkWriter<Credit>& plain_credit_output(int p) { return m_credit_out[size_t(p)]; }
  /// Plain links: the network's two box arrays (pairs of boxes, parity 0 and 1, indexed by the
  /// reader's input), which the outputs given by plain_network_output write.
  void plain_box_arrays(Flit* flit_pairs, Credit* credit_pairs) {
    m_flit_box_base = flit_pairs;
    m_credit_box_base = credit_pairs;
  }
  /// Plain links: network output p writes its flits and credits (the same link's two directions
  /// share reader, box index and bit) into box pair `box` of the arrays above and sets bit `bit` of
  /// router reader's masks, atomically while lanes run when `shared` (LinkWriter::set_shared),
  /// through one 16-byte record instead of its two writers (docs/kernel.md section 2). The
  /// writers stay attached to the same boxes; the record replaces them on the edge's path.
  void plain_network_output(int p, InputWatch* reader, uint32_t box, int bit, bool shared);
  /// This router as the reader of its inputs: its waker and its valid masks (two words each).
  Waker* waker() { return &m_watch->waker; }
  uint32_t* flit_valid_masks() { return m_watch->flit_valid; }
  uint32_t* credit_valid_masks() { return m_watch->credit_valid; }
  /// Flits currently held in input buffers.
  int buffered() const { return m_buffered; }

  std::vector<Wait> waiting() const override;
  bool activity(uint64_t now, RouterActivity& a) const override;
  /// Dumps the router's state to its own VCD from now on (docs/router.md section 4): per input VC
  /// its flit count, active bit, output port and VC; per output VC its credits and allocated bit;
  /// the flits buffered in the router.
  bool trace_internals(const std::string& vcd_path) override;
  void close_internals() override {
    if (m_state_vcd) sc_core::sc_close_vcd_trace_file(m_state_vcd);
    m_state_vcd = nullptr;
  }

 private:
  /// A buffered flit: the flit as it arrived (valid set, its VC the slot's input VC), copied in
  /// and out whole, and the first edge it may compete (mod 2^32, read by ready_at) beside it, so
  /// that an arrival writes, and a traversal reads, the line of one 20-byte record (a separate
  /// array of ready cycles was a second line per flit, missed on large networks).
  struct Slot {
    Flit flit;
    uint32_t ready;
  };
  static_assert(sizeof(Slot) == 20, "a buffer slot is 20 bytes");
  /// The ready cycle whose low 32 bits r a slot's ready field holds, read at edge t: the
  /// one cycle with those bits in (t + kWheel - 2^32, t + kWheel] (a slot is written at most
  /// kWheel - 1 edges before its ready cycle, and read back less than 2^32 - kWheel edges later).
  static uint64_t ready_at(uint32_t r, uint64_t t) { return t + kWheel - uint32_t(uint32_t(t + kWheel) - r); }
  /// One input VC: a ring of buffer_depth slots in m_slots, its state, and the route of its front
  /// head flit once computed (a head's route depends only on the flit and the input port).
  /// 32 bytes per input VC, its statistics included (ports <= 32, VCs <= 16, depth <= 64), the
  /// records of a router contiguous and aligned to 32 bytes (two to a line, none across two):
  /// absorb, the request pass and traversal touch one record per input VC and, for an active one,
  /// nothing else of it.
  struct alignas(32) InVc {
    int16_t head = 0;
    int16_t count = 0;
    int16_t out_port = -1;
    int16_t out_vc = -1;
    /// Flits of the current packet sent on (out_port, out_vc) and not yet added to the output
    /// counters (m_vc_out, the output port's count): they are added when the tail leaves (or at
    /// 65,535), so that traversal touches the counters once per packet; the counts read between
    /// (output_flits, activity) include them.
    uint16_t sent = 0;
    int8_t route_port = -1, vc_lo = 0, vc_hi = 0;
    bool active = false;  ///< holds an output VC (out_port, out_vc) for its current packet
    bool routed = false;  ///< route_port / vc_lo / vc_hi hold the front head's route
    /// Blocked edges by cause since the counts were last folded into m_blk_wide (fold_blocked):
    /// each grows by at most one per edge, and they are folded at least every kFoldEdges edges.
    uint32_t blk_vc = 0, blk_credit = 0, blk_switch = 0;
  };
  static_assert(sizeof(InVc) == 32, "an input VC record is 32 bytes");
  /// The blocking counts of InVc are folded into m_blk_wide at the first edge from m_fold_due on,
  /// kFoldEdges after the last fold: a 32-bit count cannot wrap in between.
  static constexpr uint64_t kFoldEdges = uint64_t(1) << 30;
  /// Adds every input VC's blocking counts since the last fold to m_blk_wide and clears them.
  [[gnu::cold, gnu::noinline]] void fold_blocked(uint64_t t);

  void tick();  ///< the router's own process (built alone)
  bool on_edge(uint64_t t) override;
  /// The edge, compiled once per link mode (Boxed: the links are mailboxes, m_boxed).
  template <bool Boxed>
  [[gnu::flatten]] bool edge(uint64_t t);
  void prefetch() const override;
  void prefetch_cold(int stage) const override;
  void end_of_elaboration() override;
  // The stages of one clock edge (docs/router.md sections 5 and 6), in the order they run; each
  // reads the state the previous ones left.
  template <bool Boxed>
  bool absorb(uint64_t t);  ///< 6: inputs of cycle t-1 into buffers and credit counters; true when all were invalid
  /// 5.2 + 5.3: idle VCs route their heads and request free output VCs; 5.4: active VCs with a
  /// credit request their output port (one pass over the eligible input VCs).
  void request(uint64_t t);
  /// The request of one eligible input VC (the pass's body).
  void request_vc(int ivc, int need_credits);
  /// The request of an eligible idle input VC ivc (on port `port`): it routes its head and requests
  /// output VCs.
  [[gnu::noinline]] void request_vc_idle(int ivc, int port, int need_credits);
  /// Input VC ivc has a new front flit, ready from edge r (now: edge t): the ready wheel takes it
  /// into m_ready if r <= t, else into r's slot.
  void becomes_front(int ivc, uint64_t r, uint64_t t) {
    const uint64_t bit = uint64_t(1) << (ivc & 63);
    if (r <= t)
      m_ready[ivc >> 6] |= bit;
    else
      m_wheel[(ivc >> 6) * kWheel + int(r & (kWheel - 1))] |= bit;
  }
  void grant_vcs();  ///< 5.3: the VC allocator's grants take their output VCs and request the switch
  /// 5.4: active input VC (p, v) requests its output port if it has a credit (blocking statistics).
  void request_switch(int p, int v, InVc& in) {
    if (m_credits.credits(in.out_port * m_nv + in.out_vc) == 0) {
      ++in.blk_credit;
    } else {
      ++in.blk_switch;
      m_sa.request(p, v, in.out_port);
    }
  }
  /// 5.5: the switch allocator granted output o to input VC (p, v), whose front flit leaves.
  template <bool Boxed>
  void traverse(uint64_t t, int p, int v, int o);
  void drive_idle_outputs();     ///< outputs not driven this cycle go invalid
  /// Mailboxes: an input holds a value for the next edge (written earlier in this edge).
  /// (Read atomically: with lanes, writers of another lane may set bits of these words meanwhile.)
  bool input_pending() const override {
    return m_boxed && (__atomic_load_n(&m_watch->flit_valid[g_edge_parity], __ATOMIC_RELAXED) |
                       __atomic_load_n(&m_watch->credit_valid[g_edge_parity], __ATOMIC_RELAXED)) != 0;
  }
  /// Output port and allowed output VC range for the head of (port p) at this router (under
  /// min-adaptive: the escape route, dimension order; under valiant: the route of the head's phase,
  /// to its intermediate node or to its destination, on that phase's VC set).
  void route(int in_port, const Flit& head, int& out_port, int& vc_lo, int& vc_hi) const;
  /// route() for a head whose dimension-order step the table holds (no family routing, no Valiant
  /// phase), inline; false where route() works it out (the first head to its target, among others).
  bool route_known(int in_port, const Flit& head, int& out_port, int& vc_lo, int& vc_hi) const {
    if (head.dst >= m_table_nodes) return false;
    const uint8_t e = m_route_table[2 * size_t(head.dst) + size_t(head.tie)];
    if (!(e & kRouteKnown)) return false;
    route_of_step(in_port, head, e, 0, out_port, vc_lo, vc_hi);
    return true;
  }
  /// The output port and VC range of a head at this router from its dimension-order step e
  /// (route_step) on VC set `base` (Valiant's phase 2: escape_vcs(); else 0).
  void route_of_step(int in_port, const Flit& head, uint8_t e, int base, int& out_port, int& vc_lo, int& vc_hi) const {
    const int port = (e & 15) - 1;
    if (port < 0) {  // only at the destination in phase 2: a phase-1 head is not at its target
      eject_route(in_port, out_port, vc_lo, vc_hi);
      return;
    }
    out_port = port;
    vc_lo = base;
    vc_hi = base + m_p.escape_vcs();
    if (!(e & kRouteClassed) || m_p.classes != 2) return;  // every VC of the set
    int cls = e >> 4 & 1;
    if (m_p.vc_class_entry) {
      // Entry rule (docs/router.md section 11): continuing in the dimension of its input port, a
      // head keeps the class of the input VC it holds; entering the dimension it takes class x > t.
      const int iv = head.vc - base;
      cls = in_port < m_net && (in_port >> 1) == (port >> 1) && iv >= 0 && iv < m_p.escape_vcs() ? iv / m_p.vcs_per_class
                                                                                                   : e >> 5 & 1;
    }
    vc_lo = base + cls * m_p.vcs_per_class;
    vc_hi = vc_lo + m_p.vcs_per_class;
  }
  /// The route of a head at its destination: the ejection port, every VC of its set.
  void eject_route(int in_port, int& out_port, int& vc_lo, int& vc_hi) const {
    out_port = m_p.local == 1 ? m_net : (in_port < m_net ? m_net + in_port : in_port);
    vc_lo = 0;
    vc_hi = m_p.valiant ? m_nv : m_p.escape_vcs();
  }
  /// min-adaptive: the free (not allocated, every credit back) adaptive output VC (port * VCs + VC) of a productive direction with the
  /// most credits, or -1 (docs/router.md section 12).
  int pick_adaptive(const Flit& head) const;
  /// The port of input or output VC index i (p * nv + v): a shift when the VC count is a power of
  /// two (no table line to load), else the table.
  int port_of(int i) const { return m_nv_shift >= 0 ? i >> m_nv_shift : m_port_of[size_t(i)]; }
  Slot& front(int ivc) { return m_slots[size_t(ivc) * size_t(m_p.buffer_depth) + size_t(m_in[size_t(ivc)].head)]; }
  const Slot& front(int ivc) const {
    return m_slots[size_t(ivc) * size_t(m_p.buffer_depth) + size_t(m_in[size_t(ivc)].head)];
  }

  // The members a busy edge reads come first, next to the edge-set interface's pointer, in about
  // 14 cache lines (the base's parameters included); the arrays they index are reached through
  // plain pointers into the owning vectors below (set by point_hot(), stable for the run).
  // Activity-proportional evaluation: an idle router (empty buffers, no pending credits, all
  // outputs invalid) sleeps (m_watch->waker.sleeping) until one of its input wires changes, then
  // resumes at the next edge.
  // Bit p of m_watch->flit_valid (credit_valid): input p's flit (credit) wire holds a valid value.
  // LinkSignal inputs keep these masks current as they update; with any other signal bound they
  // are re-read at every edge. With mailbox links, [p] holds the inputs written in cycles of
  // parity p. The masks and the sleep state live in the network's array when it gives one (plain
  // links), else in m_own_watch.
  InputWatch* m_watch;
  InVc* m_in = nullptr;              ///< [p * nv + v]
  Slot* m_slots = nullptr;           ///< [(p * nv + v) * buffer_depth + i]: the input buffers
  uint8_t* m_allocated = nullptr;    ///< [o * nv + w]
  // Inputs read through the bound signals' value references, outputs written through the bound
  // links (or, bound to another kind of signal, through its interface); stable for the whole run.
  const Flit** m_flit_in_val[2] = {nullptr, nullptr};  ///< [parity][p] (mailboxes; else [0] only)
  const Credit** m_credit_in_val[2] = {nullptr, nullptr};
  LinkWriter<Flit>* m_flit_out = nullptr;
  LinkWriter<Credit>* m_credit_out = nullptr;
  /// Plain links: a network output's compact writer (plain_network_output): the reader's input
  /// watch, its box pair's index, its bit's index, and whether it has writers in another lane.
  struct NetOut {
    InputWatch* reader;
    uint32_t box;
    uint8_t bit;
    bool shared;
  };
  static_assert(sizeof(NetOut) == 16, "a compact writer is 16 bytes");
  NetOut* m_net_out = nullptr;   ///< [p] for the ports of m_net_out_mask
  uint32_t m_net_out_mask = 0;   ///< outputs written through m_net_out
  Flit* m_flit_box_base = nullptr;
  Credit* m_credit_box_base = nullptr;
  /// The box of this edge's parity that record r names in `pairs` (the flit or credit box array),
  /// its reader told through `masks` (the reader's flit or credit masks), as LinkWriter does.
  template <class T>
  static T& fill(const NetOut& r, T* pairs, uint32_t* masks) {
    const int par = g_edge_parity;
    mark_box(masks, par, uint32_t(1) << r.bit, &r.reader->waker, r.shared);
    return pairs[2 * size_t(r.box) + size_t(par)];
  }
  /// The wheel of m_vc_words words: m_wheel_one for a router of up to 64 input VCs, else m_wheel_more.
  uint64_t* m_wheel = m_wheel_one;
  HopObserver* m_observer = nullptr;
  int m_buffered = 0;
  uint32_t m_flit_out_valid = 0, m_credit_out_valid = 0;  ///< ports driven valid last cycle
  uint32_t m_flit_written = 0, m_credit_written = 0;      ///< ports driven valid this cycle
  int m_np;   ///< ports
  int m_nv;   ///< VCs per port
  int m_net;  ///< network ports (2n, plus a family's extra ports)
  /// A flit that arrives at edge t on a network ([.][1]) or local ([.][0]) port may compete from edge
  /// t + this: the router delay and (network ports) the link delay after the cycle t - 1 it was
  /// sent in. (Indexed by p < m_net: no branch on the port.) The first index is the head bit: the
  /// rows differ only under router.pipeline = staged (docs/router.md section 11), where a head
  /// competes in VC allocation one edge before it could traverse and a body flit two edges earlier.
  uint32_t m_ready_after[2][2] = {{0, 0}, {0, 0}};
  /// A head that becomes the front behind a tail that traversed at edge t competes from edge
  /// t + this at the earliest (0: from t + 1, as any next front; staged: it routes again first).
  uint32_t m_after_tail = 0;
  bool m_boxed = false;  ///< the links are mailboxes
  bool m_va_used = false;  ///< an idle VC was eligible at this edge (the VC allocator was cleared)
  int8_t m_nv_shift = -1;  ///< log2(VCs per port) when a power of two (an input VC's port by a shift)
  uint8_t m_vc_words = 1;  ///< 64-bit words of an input-VC bit set (ports <= 32, VCs <= 16: <= 8)
  // Event counts (RouterActivity; per input VC in InVc). The buffer writes are the reads and the
  // flits held (m_buffered).
  uint64_t m_reads = 0, m_vc_allocs = 0;
  int64_t m_occ = 0;  ///< the occupancy integral (RouterActivity) minus m_buffered * now
  uint64_t m_fold_due = kFoldEdges;  ///< the edge from which the next fold of InVc's counts is due
  // The ready wheel. Bit ivc % 64 of m_ready[ivc / 64] is set while input VC ivc (p * nv + v) holds
  // a front flit that may compete (its ready cycle has come), so the request pass visits only
  // those, in port and VC order, without a loop per port. A front flit whose ready cycle r lies
  // ahead waits in slot r % kWheel (of word w: m_wheel[w * kWheel + slot]), which the request pass
  // of edge r moves into m_ready: r is at most router_delay + link_delay - 1 <= 15 edges after the
  // edge that makes it the front, and a router holding a flit runs every edge, so each slot is
  // taken at its own edge. A router of up to 64 input VCs uses the wheel's first two cache lines
  // only.
  static constexpr int kWheel = 16;
  uint64_t m_ready[8] = {};
  uint64_t m_wheel_one[kWheel] = {};
  CreditUnit m_credits;                ///< [o * nv + w] with the credit-return delay
  // The allocator units (systemc/torus/allocator.h), of the kind router.allocator names.
  SeparableAllocator m_va;  ///< VC allocation: groups input VCs, locals output VC, resources output VCs
  SeparableAllocator m_sa;  ///< switch allocation: groups input ports, locals input VC, resources output ports

  // Read by a busy edge once per packet or less, or not at all.
  const sw::Topology& m_topo;  ///< the network's (it outlives its routers), one for all of them
  const PortRouting* m_routing;  ///< null: dimension order by m_topo (the torus family)
  std::unique_ptr<InputWatch> m_own_watch;
  std::vector<uint64_t> m_wheel_more;
  EdgeSet* m_edges;
  bool m_armed = false;  ///< own process: armed itself for the first edge
  bool m_poll_inputs = false;
  std::unique_ptr<OwnWake> m_wake;  ///< only with port objects
  // What the hot pointers above point into.
  std::vector<const Flit*> m_flit_in_store[2];
  std::vector<const Credit*> m_credit_in_store[2];
  std::vector<LinkWriter<Flit>> m_flit_out_store;
  std::vector<LinkWriter<Credit>> m_credit_out_store;
  std::vector<NetOut> m_net_out_store;
  std::vector<InVc> m_in_store;
  /// [ivc]: the blocking counts (vc, credit, switch) folded out of the records (fold_blocked).
  std::vector<std::array<uint64_t, 3>> m_blk_wide;
  std::vector<Slot> m_slot_store;
  std::vector<uint8_t> m_allocated_store;
  /// Points the hot pointers at their vectors (after every change of those vectors' sizes).
  void point_hot();
  std::vector<uint8_t> m_port_of;       ///< [p * nv + v] p (an input or output VC's port)
  /// Dimension order without a family's routing on a network of at most kRouteTableNodes nodes:
  /// [2 * target + tie] = route_step(target, tie), or 0 while no head asked for it. Empty: each head
  /// computes route_step. (Mutable: a cache that the first head to a target fills.)
  mutable std::vector<uint8_t> m_route_table;
  /// The nodes of m_route_table where route_known may read it (no family routing, no Valiant phase),
  /// else 0.
  uint32_t m_table_nodes = 0;
  /// (Larger tables crowd the caches more than they save: a 16x16 torus ran slower with them.)
  static constexpr int kRouteTableNodes = 64;
  static constexpr uint8_t kRouteKnown = 0x80;
  static constexpr uint8_t kRouteClassed = 0x40;
  /// The dimension-order step towards target, packed: (port + 1) | class << 4 | above << 5 |
  /// classed << 6 | kRouteKnown, where `above` (only under router.vc_class_entry) says that this
  /// router's coordinate exceeds the target's in the port's dimension (the entry rule's class) and
  /// `classed` that the port's dimension is a torus one (dateline classes); port + 1 = 0 at the
  /// target.
  uint8_t route_step(int target, bool tie) const;
  /// [o * nv + w] flits sent (but those InVc::sent holds); an output port's count is the sum over
  /// its VCs (output_flits), the base's per-port count is not kept.
  std::vector<uint64_t> m_vc_out;
  /// The flits input VC `in` sent on its output VC since they were last counted are counted.
  void count_sent(InVc& in) {
    m_vc_out[size_t(in.out_port) * m_nv + size_t(in.out_vc)] += in.sent;
    in.sent = 0;
  }
  /// m_vc_out with the flits the active input VCs hold in InVc::sent.
  std::vector<uint64_t> vc_flits() const;
  sc_core::sc_trace_file* m_state_vcd = nullptr;
};

}  // namespace wormcast
