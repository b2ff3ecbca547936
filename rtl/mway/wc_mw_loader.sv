// Loader of a node interface (docs/mway.md section 6): takes the message at the front of the
// node's source queue into the lowest free injection buffer (its header at one edge), then writes
// one flit per edge into every buffer of the message at once — the buffer it took the message
// into and every replica made of it, however nested — waiting while any of them is full. It sees
// the injection table as this edge's transfers and replicas leave it (section 4, step 3).
`include "wc_assert.svh"

module wc_mw_loader #(
  /// Injection buffers.
  parameter int unsigned Rows = 4,
  /// Bits of Len.
  parameter int unsigned LenW = 3,
  /// Bits of a flit index.
  parameter int unsigned IdxW = 3,
  /// Width of a row index. Derived; do not override.
  parameter int unsigned RowW = wc_mw_pkg::idx_width(Rows)
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  // The source queue's front message, offered from the edge after the cycle it was created in.
  input  logic            valid_i,
  input  logic [LenW-1:0] len_i,
  output logic            take_o,     // the message is taken at this edge
  // The injection table after this edge's transfers and replicas.
  input  logic [Rows-1:0] free_i,
  input  logic [Rows-1:0] full_i,
  input  logic            rep_made_i,  // a replica of rep_orig_i is made in rep_row_i
  input  logic [RowW-1:0] rep_row_i,
  input  logic [RowW-1:0] rep_orig_i,
  // Writes into the injection table.
  output logic            hdr_we_o,
  output logic [RowW-1:0] row_o,
  output logic [Rows-1:0] push_o,
  output logic [1+IdxW:0] slot_o,     // tag (top two bits) and flit index
  // State, for the waveform and the lockstep comparison.
  output logic [Rows-1:0] targets_o,  // the buffers being written (0: no message being loaded)
  output logic [LenW-1:0] next_o      // the next flit index
);

  logic            loading_q, loading_d;
  logic [Rows-1:0] targets_q, targets_d, targets;
  logic [LenW-1:0] next_q, next_d, len_q, len_d;
  logic            free_any, tail;

  always_comb begin
    // A replica of a buffer being written is written too.
    targets = targets_q;
    if (loading_q && rep_made_i && targets_q[rep_orig_i]) targets[rep_row_i] = 1'b1;
    free_any = free_i != '0;
    row_o    = '0;
    for (int i = Rows - 1; i >= 0; i--) begin
      if (free_i[i]) row_o = RowW'(i);
    end
    tail      = next_q + LenW'(1) == len_q;
    take_o    = !loading_q && valid_i && free_any;
    hdr_we_o  = take_o;
    push_o    = (loading_q && ((targets & full_i) == '0)) ? targets : '0;
    slot_o    = {tail ? wc_mw_pkg::TagT : wc_mw_pkg::TagB, IdxW'(next_q)};
    loading_d = loading_q;
    targets_d = targets;
    next_d    = next_q;
    len_d     = len_q;
    if (take_o) begin
      loading_d = 1'b1;
      targets_d = '0;
      targets_d[row_o] = 1'b1;
      next_d    = LenW'(1);
      len_d     = len_i;
    end else if (push_o != '0) begin
      next_d = next_q + LenW'(1);
      if (tail) begin
        loading_d = 1'b0;
        targets_d = '0;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      loading_q <= 1'b0;
      targets_q <= '0;
      next_q    <= '0;
      len_q     <= '0;
    end else begin
      loading_q <= loading_d;
      targets_q <= targets_d;
      next_q    <= next_d;
      len_q     <= len_d;
    end
  end

  assign targets_o = targets_q;
  assign next_o    = next_q;

  // Loading writes at least one buffer; no buffer is written while idle.
  `WC_ASSERT(TargetsWhileLoading_A, loading_q == (targets_q != '0))
  // A message has a header and a tail.
  `WC_ASSERT(LenAtLeastTwo_A, !take_o || (len_i >= LenW'(2)))

endmodule
