// Separable input-first allocator of docs/router.md 5.6: every group picks one of its requests
// with a round-robin arbiter, every resource picks one of the groups that picked it with another.
// The router uses one for VC allocation (groups: input VCs; requests: output VCs w of the routed
// port; resources: output VCs) and one for switch allocation (groups: input ports; requests:
// their input VCs v; resources: output ports).
//
// Pointer rules (docs/router.md 5.4): a resource arbiter moves past every group it grants; a
// group arbiter moves past its pick only when that pick won its resource.
`include "wc_assert.svh"

module wc_sep_if_alloc #(
  /// Requesting groups.
  parameter int unsigned NumGroups      = 4,
  /// Requests per group, by local index.
  parameter int unsigned NumReqs        = 2,
  /// Resources.
  parameter int unsigned NumRes         = 4,
  /// Test hook only: 1 makes the resource arbiters keep their pointer on the winner
  /// (wc_rr_arbiter PtrOnWinner), which breaks the contract on purpose.
  parameter bit          ResPtrOnWinner = 1'b0,
  /// Width of a local request index. Derived; do not override.
  parameter int unsigned ReqW           = wc_pkg::idx_width(NumReqs),
  /// Width of a group index. Derived; do not override.
  parameter int unsigned GroupW         = wc_pkg::idx_width(NumGroups),
  /// Width of a resource index. Derived; do not override.
  parameter int unsigned ResW           = wc_pkg::idx_width(NumRes)
) (
  input  logic                              clk_i,
  input  logic                              rst_ni,
  // Request l of group g at bit g*NumReqs + l; the resource it names at (g*NumReqs + l)*ResW.
  input  logic [NumGroups*NumReqs-1:0]      req_i,
  input  logic [NumGroups*NumReqs*ResW-1:0] res_i,
  // Per group: its pick won its resource; the local index it picked (stage 1, whether it won
  // or not); one-hot of the winning request, zero unless won.
  output logic [NumGroups-1:0]              won_o,
  output logic [NumGroups*ReqW-1:0]         pick_o,
  output logic [NumGroups*NumReqs-1:0]      gnt_o,
  // Per resource: granted, and to which group.
  output logic [NumRes-1:0]                 res_valid_o,
  output logic [NumRes*GroupW-1:0]          res_group_o
);

  // ------------------------------------------------------------------------------------------
  // Stage 1: every group picks one of its requests
  // ------------------------------------------------------------------------------------------
  logic [NumGroups-1:0] in_valid;
  logic [ReqW-1:0]      in_idx [NumGroups];
  logic [NumReqs-1:0]   in_gnt [NumGroups];
  logic [ResW-1:0]      in_res [NumGroups];  // the resource the pick names

  for (genvar g = 0; g < NumGroups; g++) begin : gen_in
    logic [ResW-1:0] res [NumReqs];
    for (genvar l = 0; l < NumReqs; l++) begin : gen_res
      assign res[l] = res_i[(g*NumReqs + l)*ResW +: ResW];
    end

    wc_rr_arbiter #(
      .N (NumReqs)
    ) i_arb (
      .clk_i     (clk_i),
      .rst_ni    (rst_ni),
      .req_i     (req_i[g*NumReqs +: NumReqs]),
      .advance_i (won_o[g]),
      .valid_o   (in_valid[g]),
      .idx_o     (in_idx[g]),
      .gnt_o     (in_gnt[g])
    );

    assign in_res[g]                     = res[in_idx[g]];
    assign pick_o[g*ReqW +: ReqW]        = in_idx[g];
    assign gnt_o[g*NumReqs +: NumReqs]   = won_o[g] ? in_gnt[g] : '0;
  end

  // ------------------------------------------------------------------------------------------
  // Stage 2: every resource picks one of the groups that picked it
  // ------------------------------------------------------------------------------------------
  // Bit b of every pick's resource index as one vector over the groups, so that the request
  // vector of a resource is ResW whole-vector operations (a decoder per group, transposed). The
  // most significant bit first: resources that share upper index bits share the partial ANDs.
  logic [NumGroups-1:0] in_res_bit [ResW];
  logic [NumGroups-1:0] out_req    [NumRes];
  logic [NumRes-1:0]    out_valid;
  logic [GroupW-1:0]    out_idx    [NumRes];
  logic [NumGroups-1:0] out_gnt    [NumRes];

  always_comb begin
    for (int b = 0; b < ResW; b++) begin
      for (int g = 0; g < NumGroups; g++) begin
        in_res_bit[b][g] = in_res[g][b];
      end
    end
  end

  for (genvar r = 0; r < NumRes; r++) begin : gen_out
    always_comb begin
      out_req[r] = in_valid;
      for (int b = ResW - 1; b >= 0; b--) begin
        out_req[r] = out_req[r] & (((r >> b) & 1) != 0 ? in_res_bit[b] : ~in_res_bit[b]);
      end
    end

    wc_rr_arbiter #(
      .N           (NumGroups),
      .PtrOnWinner (ResPtrOnWinner)
    ) i_arb (
      .clk_i     (clk_i),
      .rst_ni    (rst_ni),
      .req_i     (out_req[r]),
      .advance_i (out_valid[r]),
      .valid_o   (out_valid[r]),
      .idx_o     (out_idx[r]),
      .gnt_o     (out_gnt[r])
    );

    assign res_valid_o[r]                  = out_valid[r];
    assign res_group_o[r*GroupW +: GroupW] = out_idx[r];
  end

  always_comb begin
    won_o = '0;
    for (int r = 0; r < NumRes; r++) begin
      won_o = won_o | out_gnt[r];
    end
  end

  // ------------------------------------------------------------------------------------------
  // Rules
  // ------------------------------------------------------------------------------------------
  // A group wins only with a pick, and only what it requested.
  `WC_ASSERT(WonOnlyPicked_A, (won_o & ~in_valid) == '0)
  `WC_ASSERT(GntRequested_A, (gnt_o & ~req_i) == '0)
  // As many winning groups as granted resources: with one grant per resource arbiter, every
  // granted resource is a different group's win (one resource per group, one group per resource).
  `WC_ASSERT(OneWinPerGrant_A, $countones(out_valid) == $countones(won_o))

endmodule
