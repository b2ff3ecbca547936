// The separable allocator of docs/router.md 5.6, one rule chosen by parameter: the router's VC
// and switch allocators are each one of these (wc_router derives their rules from its Allocator,
// IslipIters and SwitchAcceptPort parameters). Every rule has the same ports, so the router is
// the same whatever the rule:
//
//   Rule = wc_pkg::AllocRuleInputFirst (0)  wc_sep_if_alloc: input-first (router.allocator =
//                                           input-first); Iters is ignored
//   Rule = wc_pkg::AllocRuleIslip (1)       wc_islip_alloc: output-first iterated Iters times,
//                                           groups accept by local index (router.allocator =
//                                           output-first: Iters = 1; islip: VC allocation, and
//                                           switch allocation under router.switch_accept = vc)
//   Rule = wc_pkg::AllocRuleIslipPort (2)   wc_islip_alloc with AcceptByRes: iSLIP whose groups
//                                           accept by resource (switch allocation under islip
//                                           with router.switch_accept = port)
//
// pick_o: input-first gives every requesting group's stage-1 pick, won or not; the iSLIP rules
// give the matched local and zero for an unmatched group. The router reads it only with won_o.
module wc_sep_alloc #(
  /// Requesting groups.
  parameter int unsigned NumGroups      = 4,
  /// Requests per group, by local index.
  parameter int unsigned NumReqs        = 2,
  /// Resources.
  parameter int unsigned NumRes         = 4,
  /// The rule: wc_pkg::AllocRuleInputFirst, AllocRuleIslip or AllocRuleIslipPort.
  parameter int unsigned Rule           = wc_pkg::AllocRuleInputFirst,
  /// Iterations of the iSLIP rules (1..8).
  parameter int unsigned Iters          = 1,
  /// Test hook only: the resource pointers move onto the winner (breaks the contract on purpose).
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
  input  logic [NumGroups*NumReqs-1:0]      req_i,
  input  logic [NumGroups*NumReqs*ResW-1:0] res_i,
  output logic [NumGroups-1:0]              won_o,
  output logic [NumGroups*ReqW-1:0]         pick_o,
  output logic [NumGroups*NumReqs-1:0]      gnt_o,
  output logic [NumRes-1:0]                 res_valid_o,
  output logic [NumRes*GroupW-1:0]          res_group_o
);

  if (Rule == wc_pkg::AllocRuleInputFirst) begin : gen_if
    wc_sep_if_alloc #(
      .NumGroups      (NumGroups),
      .NumReqs        (NumReqs),
      .NumRes         (NumRes),
      .ResPtrOnWinner (ResPtrOnWinner)
    ) i_alloc (
      .clk_i       (clk_i),
      .rst_ni      (rst_ni),
      .req_i       (req_i),
      .res_i       (res_i),
      .won_o       (won_o),
      .pick_o      (pick_o),
      .gnt_o       (gnt_o),
      .res_valid_o (res_valid_o),
      .res_group_o (res_group_o)
    );
  end else begin : gen_islip
`ifndef SYNTHESIS
    if (Rule != wc_pkg::AllocRuleIslip && Rule != wc_pkg::AllocRuleIslipPort) begin : gen_bad_rule
      $error("wc_sep_alloc: Rule must be 0..2");
    end
`endif
    wc_islip_alloc #(
      .NumGroups      (NumGroups),
      .NumReqs        (NumReqs),
      .NumRes         (NumRes),
      .Iters          (Iters),
      .AcceptByRes    (Rule == wc_pkg::AllocRuleIslipPort),
      .ResPtrOnWinner (ResPtrOnWinner)
    ) i_alloc (
      .clk_i       (clk_i),
      .rst_ni      (rst_ni),
      .req_i       (req_i),
      .res_i       (res_i),
      .won_o       (won_o),
      .pick_o      (pick_o),
      .gnt_o       (gnt_o),
      .res_valid_o (res_valid_o),
      .res_group_o (res_group_o)
    );
  end

endmodule
