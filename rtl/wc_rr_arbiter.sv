// Round-robin arbiter with the pointer rule of docs/router.md 5.4: grant the first requester at
// or after the pointer (wrapping); the pointer moves past the grant only when told it won.
module wc_rr_arbiter #(
  parameter int unsigned N           = 4,
  // Test hook only: 1 moves the pointer onto the winner instead of past it. It breaks the
  // contract on purpose so that the lockstep test can prove it notices (`WC_BUG_SA_PTR).
  parameter bit          PtrOnWinner = 1'b0,
  // Derived; do not override.
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
  logic            upper_valid;
  logic [IdxW-1:0] upper_idx, lower_idx;

  // The lowest requester at or above the pointer wins; if there is none, the lowest requester
  // overall (the search wrapped past N-1).
  always_comb begin
    valid_o     = 1'b0;
    upper_valid = 1'b0;
    upper_idx   = '0;
    lower_idx   = '0;
    for (int i = N - 1; i >= 0; i--) begin
      if (req_i[i]) begin
        valid_o   = 1'b1;
        lower_idx = IdxW'(i);
        if (IdxW'(i) >= ptr_q) begin
          upper_valid = 1'b1;
          upper_idx   = IdxW'(i);
        end
      end
    end
    idx_o = upper_valid ? upper_idx : lower_idx;
    gnt_o = valid_o ? (N'(1) << idx_o) : '0;
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

endmodule
