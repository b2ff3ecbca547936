// One tap of an m-way channel: the driver and receiver interface of the buffer set wired there.
// As a driver it puts its candidate flit on the open-collector lines only when the channel
// arbiter grants it (the lines are the wired-OR of every tap's output, wc_mw_chan_res); as a
// receiver it drives Ack_out: for a header, 1 unless its way is named and not ok; for a body or
// tail flit, 1 unless a buffer its content search matched is full.
module wc_mw_tap #(
  /// Width of the lines a driver puts on the channel.
  parameter int unsigned LineW = 8
) (
  input  logic             grant_i,   // the channel arbiter chose this driver
  input  logic [LineW-1:0] cand_i,    // its candidate flit (tag, Buf, Ways, header, index, split)
  output logic [LineW-1:0] line_o,    // its contribution to the wired-OR lines
  input  logic             header_i,  // the channel carries a header
  input  logic             named_i,   // ... whose Ways name this tap's set
  input  logic             ok_i,      // ... and the set is ok (wc_mw_order)
  input  logic             blk_i,     // a buffer matched by the body flit is full
  output logic             ack_o      // Ack_out
);

  assign line_o = grant_i ? cand_i : '0;
  assign ack_o  = header_i ? (!named_i || ok_i) : !blk_i;

endmodule
