// Credits of one output port (docs/router.md sections 4 and 6): the credit return pipeline and
// one counter per output VC of the free slots in the downstream buffer.
//
// A credit sampled at edge t+1 (cycle t) may be used from cycle t+1+CreditDelay on: CreditDelay
// register stages, then the counter update.
`include "wc_assert.svh"

module wc_credit_pipe #(
  /// VCs of the output port, NumVcs.
  parameter int unsigned NumVcs      = 2,
  /// Downstream buffer slots per VC, B: the counters' reset value and maximum.
  parameter int unsigned BufDepth    = 4,
  /// Credit return delay Cd in cycles (0..8).
  parameter int unsigned CreditDelay = 0,
  /// Width of a VC index. Derived; do not override.
  parameter int unsigned VcW         = wc_pkg::idx_width(NumVcs)
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  // A credit from downstream in this cycle.
  input  wc_pkg::credit_t   credit_i,
  // One-hot: the flit this output sends in this cycle spends a credit of that VC.
  input  logic [NumVcs-1:0] spend_i,
  // Per VC: at least one credit; all B credits (the downstream buffer is empty).
  output logic [NumVcs-1:0] avail_o,
  output logic [NumVcs-1:0] full_o
);

  localparam int unsigned CntW = $clog2(BufDepth + 1);

  // ------------------------------------------------------------------------------------------
  // Credit return pipeline
  // ------------------------------------------------------------------------------------------
  logic           ret_valid;  // a credit that becomes usable at the next edge
  logic [VcW-1:0] ret_vc;

  if (CreditDelay > 0) begin : gen_pipe
    logic [CreditDelay-1:0] pipe_valid_q;
    logic [VcW-1:0]         pipe_vc_q [CreditDelay];

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        pipe_valid_q <= '0;
        for (int j = 0; j < CreditDelay; j++) begin
          pipe_vc_q[j] <= '0;
        end
      end else begin
        pipe_valid_q[0] <= credit_i.valid;
        pipe_vc_q[0]    <= credit_i.vc[VcW-1:0];
        for (int j = 1; j < CreditDelay; j++) begin
          pipe_valid_q[j] <= pipe_valid_q[j-1];
          pipe_vc_q[j]    <= pipe_vc_q[j-1];
        end
      end
    end
    assign ret_valid = pipe_valid_q[CreditDelay-1];
    assign ret_vc    = pipe_vc_q[CreditDelay-1];
  end else begin : gen_direct
    assign ret_valid = credit_i.valid;
    assign ret_vc    = credit_i.vc[VcW-1:0];
  end

  // The vc field's bits above VcW carry nothing for this configuration.
  logic unused_credit_bits;
  assign unused_credit_bits = ^credit_i.vc;

  // ------------------------------------------------------------------------------------------
  // Counters
  // ------------------------------------------------------------------------------------------
  logic [NumVcs-1:0] ret;
  logic [CntW-1:0]   credits_d [NumVcs];
  logic [CntW-1:0]   credits_q [NumVcs];

  always_comb begin
    ret = ret_valid ? (NumVcs'(1) << ret_vc) : '0;
    for (int w = 0; w < NumVcs; w++) begin
      avail_o[w]   = credits_q[w] != '0;
      full_o[w]    = credits_q[w] == CntW'(BufDepth);
      credits_d[w] = credits_q[w] + CntW'(ret[w]) - CntW'(spend_i[w]);
    end
  end

  for (genvar w = 0; w < NumVcs; w++) begin : gen_cnt
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        credits_q[w] <= CntW'(BufDepth);
      end else begin
        credits_q[w] <= credits_d[w];
      end
    end
  end

  // ------------------------------------------------------------------------------------------
  // Rules
  // ------------------------------------------------------------------------------------------
  // A credit is returned only for a slot that was used: the count never exceeds B.
  `WC_ASSERT(NotAboveDepth_A, (ret & ~spend_i & full_o) == '0)
  // A flit is sent only with a credit, on one VC at a time.
  `WC_ASSERT(SpendOnlyAvail_A, (spend_i & ~avail_o) == '0)
  `WC_ASSERT(SpendOneHot_A, $onehot0(spend_i))
  // Credits come back only for this port's VCs.
  `WC_ASSERT(CreditVcInRange_A, !credit_i.valid || (32'(credit_i.vc) < NumVcs))

endmodule
