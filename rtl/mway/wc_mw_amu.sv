// Allocation/mapping unit of a receiving buffer set (docs/mway.md section 5): the content search
// of its buffer-state table. It offers the lowest free buffer, finds the buffer reserved for the
// header on the channel, matches body and tail flits on (Drv, Buf), and drives the set's Stat:
// "a free buffer exists", and F of every live buffer labelled by its (Drv, Buf).
module wc_mw_amu #(
  /// Buffers of the set.
  parameter int unsigned Rows    = 4,
  /// Ways m on the channel (driver numbers 0..m-1).
  parameter int unsigned M       = 5,
  /// Buffers a driver set may have (the range of Buf on the channel).
  parameter int unsigned BufN    = 4,
  /// Test hook only: nonzero makes the content search ignore T (wc_mw_pkg::BugCamTail).
  parameter bit          BugTail = 1'b0,
  /// Width of a driver number. Derived; do not override.
  parameter int unsigned DrvW    = wc_mw_pkg::idx_width(M),
  /// Width of Buf. Derived; do not override.
  parameter int unsigned BufW    = wc_mw_pkg::idx_width(BufN),
  /// Width of a row index. Derived; do not override.
  parameter int unsigned RowW    = wc_mw_pkg::idx_width(Rows)
) (
  // The table (row i at bits i*W+W-1:i*W).
  input  logic [Rows-1:0]      a_i,
  input  logic [Rows-1:0]      r_i,
  input  logic [Rows-1:0]      t_i,
  input  logic [Rows-1:0]      f_i,
  input  logic [Rows*DrvW-1:0] drv_i,
  input  logic [Rows*BufW-1:0] buf_i,
  // The channel's Drv and Buf of this cycle.
  input  logic [DrvW-1:0]      line_drv_i,
  input  logic [BufW-1:0]      line_buf_i,
  // Allocation: the lowest free buffer.
  output logic                 free_o,
  output logic [RowW-1:0]      pick_o,
  // The buffer reserved for the line's (Drv, Buf) (a header's earlier reservation).
  output logic                 res_hit_o,
  output logic [RowW-1:0]      res_idx_o,
  // Body and tail: the live buffers of the line's (Drv, Buf), and whether one of them is full.
  output logic [Rows-1:0]      match_o,
  output logic                 blk_o,
  // Stat: F of every live buffer at bit Drv*BufN + Buf, and "some buffer is full".
  output logic [M*BufN-1:0]    stat_lbl_o,
  output logic                 stat_full_o
);

  logic [Rows-1:0] same, live;

  always_comb begin
    free_o    = 1'b0;
    pick_o    = '0;
    res_hit_o = 1'b0;
    res_idx_o = '0;
    for (int i = Rows - 1; i >= 0; i--) begin
      same[i] = (drv_i[i*DrvW +: DrvW] == line_drv_i) && (buf_i[i*BufW +: BufW] == line_buf_i);
      // A live buffer still receives its message: allocated, its header in, its tail not yet.
      live[i] = a_i[i] && !r_i[i] && (BugTail || !t_i[i]);
      if (!a_i[i]) begin
        free_o = 1'b1;
        pick_o = RowW'(i);
      end
      if (a_i[i] && r_i[i] && same[i]) begin
        res_hit_o = 1'b1;
        res_idx_o = RowW'(i);
      end
    end
    match_o = live & same;
    blk_o   = (match_o & f_i) != '0;
  end

  localparam int unsigned LblW = M * BufN;
  localparam int unsigned ShW  = $clog2(LblW + 1);

  always_comb begin
    stat_lbl_o  = '0;
    stat_full_o = (a_i & f_i) != '0;
    for (int i = 0; i < Rows; i++) begin
      if (a_i[i] && !r_i[i] && !t_i[i] && f_i[i]) begin
        stat_lbl_o = stat_lbl_o | (LblW'(1) << (ShW'(drv_i[i*DrvW +: DrvW]) * ShW'(BufN) +
                                                 ShW'(buf_i[i*BufW +: BufW])));
      end
    end
  end

endmodule
