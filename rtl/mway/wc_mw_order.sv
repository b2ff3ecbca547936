// Ordered-reservation logic of an m-way channel (docs/mway.md section 5.1): which receiver sets
// named in a header's Ways are ok this cycle. Way w is ok if its set holds a reservation for the
// header, or if it may allocate now and has a free buffer. Plain MST (unordered) may always
// allocate; MST-safe, MST-replica and every single-way header only when every earlier way of
// Ways is ok, in the order 0, 1, ..., 2n — a prefix chain, so a later way is never reserved
// before an earlier one. Ack is the AND over Ways of ok (the wired-AND of the Ack_out lines).
module wc_mw_order #(
  /// Ways m.
  parameter int unsigned M       = 5,
  /// Test hook only: 1 runs the chain from the highest way down (wc_mw_pkg::BugOrderSwap).
  parameter bit          BugSwap = 1'b0
) (
  input  logic [M-1:0] ways_i,       // the header's pending Ways
  input  logic [M-1:0] res_i,        // set p holds a reservation for this header
  input  logic [M-1:0] free_i,       // set p has a free buffer
  input  logic         unordered_i,  // plain MST tree: no order
  output logic [M-1:0] ok_o,         // Ack_out of set p, for the ways named
  output logic [M-1:0] newly_o       // ok by a buffer allocated now (not a reservation)
);

  localparam int unsigned PW = $clog2(M + 1);

  always_comb begin
    logic          prefix;
    logic [PW-1:0] p;
    prefix  = 1'b1;
    ok_o    = '0;
    newly_o = '0;
    for (int k = 0; k < M; k++) begin
      p = PW'(BugSwap ? (M - 1 - k) : k);
      if (ways_i[p]) begin
        if (res_i[p]) begin
          ok_o[p] = 1'b1;
        end else if ((unordered_i || prefix) && free_i[p]) begin
          ok_o[p]    = 1'b1;
          newly_o[p] = 1'b1;
        end
        if (!ok_o[p]) prefix = 1'b0;
      end
    end
  end

endmodule
