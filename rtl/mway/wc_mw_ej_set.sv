// Ejection buffer set of a node interface (docs/mway.md section 6): way 2n of its channel. It
// allocates like any receiving set (wc_mw_amu) but drains to the node as flits arrive, so it is
// never full: every flit it takes is delivered at the edge that writes it, and a buffer is free
// once its tail is written (section 5.3).
`include "wc_assert.svh"

module wc_mw_ej_set #(
  /// Dimensions n (1..4).
  parameter int unsigned NumDims = 2,
  /// Bits of one coordinate.
  parameter int unsigned CoordW  = 2,
  /// Bits of the packet id.
  parameter int unsigned IdW     = 32,
  /// Bits of Len.
  parameter int unsigned LenW    = 3,
  /// Bits of a flit index.
  parameter int unsigned IdxW    = 3,
  /// Buffers of this set (mway.ejection_buffers).
  parameter int unsigned Rows    = 4,
  /// Buffers a driver set may have anywhere (the range of Buf on a channel).
  parameter int unsigned BufN    = 4,
  /// Test hook only (wc_mw_pkg::Bug*).
  parameter int unsigned Bug     = wc_mw_pkg::BugNone,
  /// Ways m = 2n + 1. Derived; do not override.
  parameter int unsigned M       = 2 * NumDims + 1,
  /// Width of a driver number. Derived; do not override.
  parameter int unsigned DrvW    = wc_mw_pkg::idx_width(M),
  /// Width of Buf. Derived; do not override.
  parameter int unsigned BufW    = wc_mw_pkg::idx_width(BufN),
  /// Width of a row index. Derived; do not override.
  parameter int unsigned RowW    = wc_mw_pkg::idx_width(Rows),
  /// Width of the header word. Derived; do not override.
  parameter int unsigned HdrW    = wc_mw_pkg::hdr_width(NumDims, CoordW, IdW, LenW),
  /// Width of one row of obs_o. Derived; do not override.
  parameter int unsigned ObsW    = 3 + DrvW + BufW + HdrW
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,
  input  logic [NumDims*CoordW-1:0] coord_i,    // the node's channel
  // ---- the channel's lines of this cycle
  input  logic [DrvW-1:0]           in_drv_i,
  input  logic [1:0]                in_tag_i,
  input  logic [BufW-1:0]           in_buf_i,
  input  logic [HdrW-1:0]           in_hdr_i,
  input  logic [IdxW-1:0]           in_idx_i,
  input  logic                      in_newly_i,
  input  logic                      in_take_i,
  input  logic                      in_resv_i,
  output logic                      stat_free_o,
  output logic [M*BufN-1:0]         stat_lbl_o,
  output logic                      stat_full_o,
  output logic                      res_hit_o,
  output logic                      blk_o,
  output logic                      hit_o,
  // ---- the flit handed to the node at the coming edge
  output logic                      dlv_valid_o,
  output logic                      dlv_head_o,
  output logic                      dlv_tail_o,
  output logic [IdxW-1:0]           dlv_idx_o,
  output logic [HdrW-1:0]           dlv_hdr_o,  // its message's header as this set stores it
  // ---- the table, row i at bits i*ObsW+ObsW-1:i*ObsW
  output logic [Rows*ObsW-1:0]      obs_o
);

  logic [Rows-1:0]      a_q, r_q, t_q, a_d, r_d, t_d;
  logic [Rows*DrvW-1:0] drv_q, drv_d;
  logic [Rows*BufW-1:0] buf_q, buf_d;
  logic [Rows*HdrW-1:0] pkt_q, pkt_d;

  logic            free_any, res_hit;
  logic [RowW-1:0] pick, res_idx;
  logic [Rows-1:0] match;
  logic [HdrW-1:0] rx_hdr;
  logic [M-1:0]    rx_ways;

  wc_mw_amu #(
    .Rows    (Rows),
    .M       (M),
    .BufN    (BufN),
    .BugTail (Bug == wc_mw_pkg::BugCamTail)
  ) i_amu (
    .a_i         (a_q),
    .r_i         (r_q),
    .t_i         (t_q),
    .f_i         ('0),  // drained as it arrives: never full
    .drv_i       (drv_q),
    .buf_i       (buf_q),
    .line_drv_i  (in_drv_i),
    .line_buf_i  (in_buf_i),
    .free_o      (free_any),
    .pick_o      (pick),
    .res_hit_o   (res_hit),
    .res_idx_o   (res_idx),
    .match_o     (match),
    .blk_o       (blk_o),
    .stat_lbl_o  (stat_lbl_o),
    .stat_full_o (stat_full_o)
  );

  // The node way's sub-Region is the node itself.
  wc_mw_route #(
    .NumDims (NumDims),
    .CoordW  (CoordW),
    .IdW     (IdW),
    .LenW    (LenW),
    .Receive (1'b1),
    .Source  (1'b0)
  ) i_route (
    .hdr_i       (in_hdr_i),
    .in_coord_i  (coord_i),
    .way_i       (DrvW'(2 * NumDims)),
    .out_coord_i (coord_i),
    .hdr_o       (rx_hdr),
    .ways_o      (rx_ways)
  );

  assign stat_free_o = free_any;
  assign res_hit_o   = res_hit;
  assign hit_o       = match != '0;

  logic body;
  assign body = (in_tag_i == wc_mw_pkg::TagB) || (in_tag_i == wc_mw_pkg::TagT);

  always_comb begin
    a_d = a_q;  r_d = r_q;  t_d = t_q;  drv_d = drv_q;  buf_d = buf_q;  pkt_d = pkt_q;
    dlv_valid_o = in_take_i || (body && (match != '0));
    dlv_head_o  = in_take_i;
    dlv_tail_o  = !in_take_i && (in_tag_i == wc_mw_pkg::TagT);
    dlv_idx_o   = in_take_i ? '0 : in_idx_i;
    dlv_hdr_o   = rx_hdr;
    for (int i = Rows - 1; i >= 0; i--) begin
      if (body && match[i]) begin
        dlv_hdr_o = pkt_q[i*HdrW +: HdrW];
        if (in_tag_i == wc_mw_pkg::TagT) begin
          a_d[i] = 1'b0;
          r_d[i] = 1'b0;
          t_d[i] = 1'b0;
          drv_d[i*DrvW +: DrvW] = '1;
          buf_d[i*BufW +: BufW] = '1;
          pkt_d[i*HdrW +: HdrW] = '0;
        end
      end
      if (in_take_i && (res_hit ? (res_idx == RowW'(i)) : (pick == RowW'(i)))) begin
        a_d[i] = 1'b1;
        r_d[i] = 1'b0;
        t_d[i] = 1'b0;
        drv_d[i*DrvW +: DrvW] = in_drv_i;
        buf_d[i*BufW +: BufW] = in_buf_i;
        pkt_d[i*HdrW +: HdrW] = rx_hdr;
      end else if (in_resv_i && (pick == RowW'(i))) begin
        a_d[i] = 1'b1;
        r_d[i] = 1'b1;
        t_d[i] = 1'b0;
        drv_d[i*DrvW +: DrvW] = in_drv_i;
        buf_d[i*BufW +: BufW] = in_buf_i;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      a_q   <= '0;
      r_q   <= '0;
      t_q   <= '0;
      drv_q <= '1;
      buf_q <= '1;
      pkt_q <= '0;
    end else begin
      a_q   <= a_d;
      r_q   <= r_d;
      t_q   <= t_d;
      drv_q <= drv_d;
      buf_q <= buf_d;
      pkt_q <= pkt_d;
    end
  end

  always_comb begin
    for (int i = 0; i < Rows; i++) begin
      obs_o[i*ObsW +: ObsW] = {pkt_q[i*HdrW +: HdrW], buf_q[i*BufW +: BufW],
                               drv_q[i*DrvW +: DrvW], t_q[i], r_q[i], a_q[i]};
    end
  end

  logic unused_ways;
  assign unused_ways = ^{rx_ways, in_newly_i};

  // ------------------------------------------------------------------------------------------
  // Rules
  // ------------------------------------------------------------------------------------------
  // A body or tail flit on the channel has exactly one buffer here when it is for this node,
  // and the tail frees it: the set never holds T.
  `WC_ASSERT(OneMatch_A, $onehot0(match))
  `WC_ASSERT(NeverTail_A, t_q == '0)
  // A header goes into a free buffer or the one reserved for it.
  `WC_ASSERT(HeaderIntoFreeOrReserved_A,
             !in_take_i || (res_hit ? r_q[res_idx] : (free_any && !a_q[pick])))
  `WC_ASSERT(ReserveFreeRow_A, !in_resv_i || (free_any && !a_q[pick]))
  `WC_ASSERT(FreeRowsIdle_A, (~a_q & (r_q | t_q)) == '0)

endmodule
