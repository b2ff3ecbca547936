// Resolution of an m-way channel's shared lines over its taps: the flit lines and Stat labels
// are wired-OR (a tap drives only its own grant's flit, a receiver only its own buffers' labels),
// Ack is the wired-AND of every tap's Ack_out.
module wc_mw_chan_res #(
  /// Taps on the channel.
  parameter int unsigned NumTaps = 5,
  /// Width of the flit lines.
  parameter int unsigned LineW   = 8,
  /// Width of the Stat labels (drivers x their buffers).
  parameter int unsigned LblW    = 20
) (
  input  logic [NumTaps*LineW-1:0] line_i,  // tap p at bits p*LineW+LineW-1:p*LineW
  input  logic [NumTaps-1:0]       ack_i,
  input  logic [NumTaps*LblW-1:0]  lbl_i,
  output logic [LineW-1:0]         line_o,
  output logic                     ack_o,
  output logic [LblW-1:0]          lbl_o
);

  always_comb begin
    line_o = '0;
    lbl_o  = '0;
    for (int p = 0; p < NumTaps; p++) begin
      line_o = line_o | line_i[p*LineW +: LineW];
      lbl_o  = lbl_o | lbl_i[p*LblW +: LblW];
    end
  end

  // Apart from the lines: Ack_out depends on what the lines carry.
  assign ack_o = &ack_i;

endmodule
