// Round-robin arbiter with the pointer rule of docs/router.md 5.4: grant the first requester at
// or after the pointer (wrapping); the pointer moves past the grant only when told it won.
`include "wc_assert.svh"

module wc_rr_arbiter #(
  /// Requesters.
  parameter int unsigned N           = 4,
  /// Test hook only: 1 moves the pointer onto the winner instead of past it. It breaks the
  /// contract on purpose so that the lockstep test can prove it notices (wc_router BugSaPtr).
  parameter bit          PtrOnWinner = 1'b0,
  /// Width of a requester index. Derived; do not override.
  parameter int unsigned IdxW        = (N > 1) ? $clog2(N) : 1
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic [N-1:0]    req_i,
  // This arbiter's grant won the final allocation stage in this cycle. A final-stage arbiter
  // ties it to valid_o; a first-stage arbiter moves only when its choice also won stage 2.
  input  logic            advance_i,
  output logic            valid_o,
  output logic [IdxW-1:0] idx_o,
  output logic [N-1:0]    gnt_o
);

  logic [IdxW-1:0] ptr_d, ptr_q;
  logic [N-1:0]    upper_req;

  // The lowest requester at or above the pointer wins; if there is none, the lowest requester
  // overall (the search wrapped past N-1). x & -x isolates the lowest set bit of x.
  always_comb begin
    upper_req = req_i & ({N{1'b1}} << ptr_q);
    gnt_o     = (upper_req != '0) ? (upper_req & (~upper_req + N'(1)))
                                  : (req_i & (~req_i + N'(1)));
    valid_o   = req_i != '0;
  end

  // Index of the one-hot grant, one masked OR per index bit.
  for (genvar b = 0; b < IdxW; b++) begin : gen_idx
    localparam logic [N-1:0] Members = N'(wc_pkg::index_bit_mask(b));
    assign idx_o[b] = |(gnt_o & Members);
  end

  always_comb begin
    ptr_d = ptr_q;
    if (advance_i) begin
      if (PtrOnWinner) begin
        ptr_d = idx_o;
      end else begin
        ptr_d = (idx_o == IdxW'(N - 1)) ? '0 : idx_o + IdxW'(1);
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ptr_q <= '0;
    end else begin
      ptr_q <= ptr_d;
    end
  end

  // ------------------------------------------------------------------------------------------
  // Rules
  // ------------------------------------------------------------------------------------------
  // One rule, so that the many arbiters of a router cost one check each per cycle: at most one
  // grant, only to a requester, and a grant whenever someone requests.
  `WC_ASSERT(GntOneRequester_A,
             $onehot0(gnt_o) && ((gnt_o & ~req_i) == '0) && ((gnt_o != '0) == valid_o))

endmodule
