// One input VC of the router (docs/router.md section 4): its buffer ring and its VC state —
// whether it holds an output VC, and which (out_port, out_vc).
//
// Per cycle (the state after edge e), with the pipeline of PipelineStaged (docs/router.md
// section 11):
//   lumped (0)  The front flit is eligible once it is older than young_head_i (a head) or
//               young_body_i (a body or tail flit; the same count); a head that wins its output VC
//               in this cycle requests the switch in this cycle too (act_now_o).
//   staged (1)  A head front is VC-ready once older than young_head_i (its port's arrivals of the
//               last R + Ld - 2 cycles, the edge t + d - 1 of a head written at edge t), a body or
//               tail front switch-ready once older than young_body_i (R + Ld - 3 cycles: edge
//               t + d - 2). The head that wins its output VC in this cycle holds it from the next
//               edge on and requests the switch from the next cycle (act_now_o is the state after
//               the last edge alone). The head behind a tail that left at the last edge routes in
//               this cycle and is eligible from the next (after_tail_q). A body flit that becomes the
//               front competes from the cycle after its predecessor left, as in the lumped pipeline.
`include "wc_assert.svh"

module wc_input_vc #(
  /// VCs per port, NumVcs = C*V.
  parameter int unsigned NumVcs      = 2,
  /// VCs per dateline class, V.
  parameter int unsigned VcsPerClass = 1,
  /// Buffer slots, B (router.buffer_depth, 1..64).
  parameter int unsigned BufDepth    = 4,
  /// Pipeline (router.pipeline, docs/router.md section 11): 0 = lumped, nonzero = staged.
  parameter int unsigned PipelineStaged = 0,
  /// Width of young_head_i and young_body_i, the counts of flits too young to compete.
  parameter int unsigned AgeW        = 5,
  /// Width of an output port index.
  parameter int unsigned PortW       = 3,
  /// Width of a VC index. Derived; do not override.
  parameter int unsigned VcW         = wc_pkg::idx_width(NumVcs)
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  // Arrival: a flit for this VC, written at the edge.
  input  logic              push_i,
  input  wc_pkg::entry_t    entry_i,
  // How many of the newest flits in the buffer may not compete yet (docs/router.md 5.1) when the
  // front is a head, and when it is a body or tail flit (equal in the lumped pipeline).
  input  logic [AgeW-1:0]   young_head_i,
  input  logic [AgeW-1:0]   young_body_i,
  // The front flit, whether it may compete, and the output VCs its route admits (5.2).
  output wc_pkg::entry_t    front_o,
  output logic              eligible_o,
  output logic [NumVcs-1:0] allowed_o,
  // The VC holds an output VC (state after the last edge).
  output logic              active_o,
  // VC allocation of this cycle: the front head won output VC va_vc_i of its routed port.
  input  logic              va_won_i,
  input  logic [VcW-1:0]    va_vc_i,
  // The VC may request the switch in this cycle: it holds an output VC, in the lumped pipeline
  // including this cycle's grant (a head that gets its VC competes for the switch in the same
  // cycle), in the staged one only from an earlier edge. out_port_o/out_vc_o: the output VC it
  // holds, or the routed port and the VC granted now.
  output logic              act_now_o,
  output logic [PortW-1:0]  out_port_o,
  output logic [VcW-1:0]    out_vc_o,
  // Switch traversal: the front flit leaves at the edge.
  input  logic              pop_i
);

  localparam int unsigned SlotW = wc_pkg::idx_width(BufDepth);
  localparam int unsigned CntW  = $clog2(BufDepth + 1);

  localparam logic [NumVcs-1:0] AllVcs    = '1;
  localparam logic [NumVcs-1:0] ClassMask = NumVcs'((1 << VcsPerClass) - 1);  // class p (0)

  // ------------------------------------------------------------------------------------------
  // State
  // ------------------------------------------------------------------------------------------
  // Plain vectors: Yosys 0.23 does not keep the width of an unpacked array of a struct type.
  logic [wc_pkg::EntryW-1:0] buf_q [BufDepth];
  logic [SlotW-1:0] rd_d, rd_q, wr_d, wr_q;
  logic [CntW-1:0]  cnt_d, cnt_q;
  logic             active_d, active_q;
  logic [PortW-1:0] out_port_d, out_port_q;
  logic [VcW-1:0]   out_vc_d, out_vc_q;
  // Staged: the front left at the last edge was a tail (constant 0 in the lumped pipeline).
  logic             after_tail_d, after_tail_q;
  // The VC holds an output VC after this cycle's VC allocation.
  logic             held;
  // The newest flits that may not compete yet, over the front flit's horizon.
  logic [AgeW-1:0]  young;

  // ------------------------------------------------------------------------------------------
  // 5.1/5.2 Front flit, its eligibility and the output VCs its route admits
  // ------------------------------------------------------------------------------------------
  always_comb begin
    front_o    = buf_q[rd_q];
    young      = front_o.head ? young_head_i : young_body_i;
    eligible_o = (cnt_q != '0) && (8'(cnt_q) > 8'(young)) && !after_tail_q;
    allowed_o  = AllVcs;
    if (front_o.route.class_en) begin
      unique case (front_o.route.vc_class)
        wc_pkg::VcClassP:  allowed_o = ClassMask;
        wc_pkg::VcClassLh: allowed_o = ClassMask << VcsPerClass;
        default:           allowed_o = AllVcs;
      endcase
    end
  end

  assign active_o = active_q;

  // ------------------------------------------------------------------------------------------
  // VC state including this cycle's VC allocation
  // ------------------------------------------------------------------------------------------
  always_comb begin
    held       = active_q | va_won_i;
    act_now_o  = (PipelineStaged != 0) ? active_q : held;
    out_port_o = active_q ? out_port_q : PortW'(front_o.route.port);
    out_vc_o   = active_q ? out_vc_q : va_vc_i;
  end

  // ------------------------------------------------------------------------------------------
  // Section 6: next state
  // ------------------------------------------------------------------------------------------
  always_comb begin
    rd_d = rd_q;
    wr_d = wr_q;
    if (pop_i) begin
      rd_d = (rd_q == SlotW'(BufDepth - 1)) ? '0 : rd_q + SlotW'(1);
    end
    if (push_i) begin
      wr_d = (wr_q == SlotW'(BufDepth - 1)) ? '0 : wr_q + SlotW'(1);
    end
    cnt_d      = cnt_q + CntW'(push_i) - CntW'(pop_i);
    // A tail that leaves frees the VC.
    active_d   = held && !(pop_i && front_o.tail);
    out_port_d = out_port_o;
    out_vc_d   = out_vc_o;
    // Staged: the head behind it routes first.
    after_tail_d = (PipelineStaged != 0) && pop_i && front_o.tail;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_q       <= '0;
      wr_q       <= '0;
      cnt_q      <= '0;
      active_q   <= 1'b0;
      out_port_q <= '0;
      out_vc_q   <= '0;
      after_tail_q <= 1'b0;
    end else begin
      rd_q       <= rd_d;
      wr_q       <= wr_d;
      cnt_q      <= cnt_d;
      active_q   <= active_d;
      out_port_q <= out_port_d;
      out_vc_q   <= out_vc_d;
      after_tail_q <= after_tail_d;
    end
  end

  // Buffer storage needs no reset: a slot is read only after it was written.
  always_ff @(posedge clk_i) begin
    if (push_i) begin
      buf_q[wr_q] <= entry_i;
    end
  end

  // ------------------------------------------------------------------------------------------
  // Rules
  // ------------------------------------------------------------------------------------------
  // The upstream sends only with a credit, so the buffer never overflows.
  `WC_ASSERT(NoOverflow_A, !(push_i && !pop_i && (cnt_q == CntW'(BufDepth))))
  // An idle VC's front flit is a head; only such a head gets an output VC.
  `WC_ASSERT(IdleFrontIsHead_A, active_q || !eligible_o || front_o.head)
  `WC_ASSERT(WonOnlyIdle_A, !va_won_i || (!active_q && eligible_o))
  // Only an eligible front flit of an active VC leaves.
  `WC_ASSERT(PopOnlyEligible_A, !pop_i || (eligible_o && act_now_o))
  // Staged: a flit leaves only on an output VC granted at an earlier edge, and the VC behind a
  // tail that left at the last edge is idle and neither allocates nor sends in this cycle.
  `WC_ASSERT(StagedSwitchAfterGrant_A, (PipelineStaged == 0) || !pop_i || active_q)
  `WC_ASSERT(StagedRouteAfterTail_A, !after_tail_q || (!active_q && !va_won_i && !pop_i))

endmodule
