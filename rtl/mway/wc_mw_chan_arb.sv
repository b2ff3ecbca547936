// Channel arbiter of an m-way channel (docs/mway.md section 4.2): rotating priority over the m
// drivers that request the channel on Pri. The distributed self-selection arbitration — each
// requester drives the code (rank, Drv) with rank = (Drv - ptr) mod m and the smallest code wins
// — picks the first requester among ptr, ptr+1, ..., ptr-1, which is a round-robin arbiter whose
// pointer moves past the winner in every cycle with a winner, whether or not Ack is 1.
module wc_mw_chan_arb #(
  /// Drivers m.
  parameter int unsigned M    = 5,
  /// Width of a driver number. Derived; do not override.
  parameter int unsigned DrvW = wc_mw_pkg::idx_width(M)
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic [M-1:0]    pri_i,    // Pri: driver p requests the channel
  output logic            valid_o,  // some driver won
  output logic [DrvW-1:0] drv_o,    // Drv: the winner
  output logic [M-1:0]    grant_o   // one-hot winner
);

  wc_rr_arbiter #(
    .N (M)
  ) i_arb (
    .clk_i     (clk_i),
    .rst_ni    (rst_ni),
    .req_i     (pri_i),
    .advance_i (valid_o),
    .valid_o   (valid_o),
    .idx_o     (drv_o),
    .gnt_o     (grant_o)
  );

endmodule
