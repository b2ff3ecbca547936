// The k-ary m-way router (the paper's Fig. 2, docs/mway.md section 2): two buffer sets between
// the channels c (low) and c + e_d (high) of dimension d. Degree 2 whatever the dimension:
//
//   wc_mw_buffer_set gen_set[0].i_set  DIM+: way 2d on c, driver 2d on c + e_d
//   wc_mw_buffer_set gen_set[1].i_set  DIM-: way 2d+1 on c + e_d, driver 2d+1 on c
//
// Every per-set port is a vector with set s (0 = DIM+, 1 = DIM-) at bits s*W+W-1:s*W. The
// channel interfaces (arbitration on Pri, Ack, Stat) are the taps of wc_mw_channel.
module wc_mw_router #(
  /// Dimensions n (1..4).
  parameter int unsigned NumDims   = 2,
  /// Bits of one coordinate.
  parameter int unsigned CoordW    = 2,
  /// Bits of the packet id.
  parameter int unsigned IdW       = 32,
  /// Bits of Len.
  parameter int unsigned LenW      = 3,
  /// Bits of a flit index.
  parameter int unsigned IdxW      = 3,
  /// Buffers per set (mway.buffers).
  parameter int unsigned Rows      = 4,
  /// Buffers a driver set may have anywhere (the range of Buf on a channel).
  parameter int unsigned BufN      = 4,
  /// Flits per buffer, L.
  parameter int unsigned BufLen    = 5,
  /// wc_mw_pkg::Alg*.
  parameter int unsigned Algorithm = wc_mw_pkg::AlgMstSafe,
  /// wc_mw_pkg::BidStat or BidBlind.
  parameter int unsigned HeaderBid = wc_mw_pkg::BidStat,
  /// Test hook only (wc_mw_pkg::Bug*).
  parameter int unsigned Bug       = wc_mw_pkg::BugNone,
  /// Ways m = 2n + 1. Derived; do not override.
  parameter int unsigned M         = 2 * NumDims + 1,
  /// Width of a driver number. Derived; do not override.
  parameter int unsigned DrvW      = wc_mw_pkg::idx_width(M),
  /// Width of Buf. Derived; do not override.
  parameter int unsigned BufW      = wc_mw_pkg::idx_width(BufN),
  /// Width of the header word. Derived; do not override.
  parameter int unsigned HdrW      = wc_mw_pkg::hdr_width(NumDims, CoordW, IdW, LenW),
  /// Width of a row of obs_o. Derived; do not override.
  parameter int unsigned ObsW      = 7 + DrvW + BufW + 2 * wc_mw_pkg::idx_width(BufLen) +
                                     $clog2(BufLen + 1) + 2 * M + HdrW + BufLen * (2 + IdxW)
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,
  input  logic [DrvW-1:0]           dim_i,       // d
  input  logic [NumDims*CoordW-1:0] low_coord_i,   // channel c
  input  logic [NumDims*CoordW-1:0] high_coord_i,  // channel c + e_d
  // ---- input channel of set s: its lines of this cycle
  input  logic [2*DrvW-1:0]         in_drv_i,
  input  logic [3:0]                in_tag_i,
  input  logic [2*BufW-1:0]         in_buf_i,
  input  logic [2*HdrW-1:0]         in_hdr_i,
  input  logic [2*IdxW-1:0]         in_idx_i,
  input  logic [1:0]                in_newly_i,
  input  logic [1:0]                in_take_i,
  input  logic [1:0]                in_resv_i,
  output logic [1:0]                stat_free_o,
  output logic [2*M*BufN-1:0]       stat_lbl_o,
  output logic [1:0]                stat_full_o,
  output logic [1:0]                res_hit_o,
  output logic [1:0]                blk_o,
  output logic [1:0]                hit_o,
  // ---- output channel of set s
  input  logic [2*M-1:0]            out_free_i,
  input  logic [2*Rows-1:0]         out_rf_i,
  input  logic [1:0]                out_grant_i,
  input  logic [1:0]                out_split_cand_i,
  input  logic [2*M-1:0]            out_take_i,
  input  logic [2*M-1:0]            out_resv_i,
  output logic [1:0]                req_o,
  output logic [3:0]                cand_tag_o,
  output logic [2*BufW-1:0]         cand_buf_o,
  output logic [2*M-1:0]            cand_ways_o,
  output logic [2*HdrW-1:0]         cand_hdr_o,
  output logic [2*IdxW-1:0]         cand_idx_o,
  output logic [1:0]                split_o,
  // ---- the tables of both sets
  output logic [2*Rows*ObsW-1:0]    obs_o
);

  for (genvar s = 0; s < 2; s++) begin : gen_set
    localparam int unsigned RowW = wc_mw_pkg::idx_width(Rows);
    logic [Rows-1:0] post_free, post_full;
    logic            rep_made;
    logic [RowW-1:0] rep_row, rep_orig;

    wc_mw_buffer_set #(
      .Role      (wc_mw_pkg::RoleRouter),
      .NumDims   (NumDims),
      .CoordW    (CoordW),
      .IdW       (IdW),
      .LenW      (LenW),
      .IdxW      (IdxW),
      .Rows      (Rows),
      .BufN      (BufN),
      .BufLen    (BufLen),
      .Algorithm (Algorithm),
      .HeaderBid (HeaderBid),
      .Bug       (Bug)
    ) i_set (
      .clk_i            (clk_i),
      .rst_ni           (rst_ni),
      .in_coord_i       ((s == 0) ? low_coord_i : high_coord_i),
      .out_coord_i      ((s == 0) ? high_coord_i : low_coord_i),
      .way_i            ((dim_i << 1) | DrvW'(s)),
      .in_drv_i         (in_drv_i[s*DrvW +: DrvW]),
      .in_tag_i         (in_tag_i[s*2 +: 2]),
      .in_buf_i         (in_buf_i[s*BufW +: BufW]),
      .in_hdr_i         (in_hdr_i[s*HdrW +: HdrW]),
      .in_idx_i         (in_idx_i[s*IdxW +: IdxW]),
      .in_newly_i       (in_newly_i[s]),
      .in_take_i        (in_take_i[s]),
      .in_resv_i        (in_resv_i[s]),
      .stat_free_o      (stat_free_o[s]),
      .stat_lbl_o       (stat_lbl_o[s*M*BufN +: M*BufN]),
      .stat_full_o      (stat_full_o[s]),
      .res_hit_o        (res_hit_o[s]),
      .blk_o            (blk_o[s]),
      .hit_o            (hit_o[s]),
      .out_free_i       (out_free_i[s*M +: M]),
      .out_rf_i         (out_rf_i[s*Rows +: Rows]),
      .out_grant_i      (out_grant_i[s]),
      .out_split_cand_i (out_split_cand_i[s]),
      .out_take_i       (out_take_i[s*M +: M]),
      .out_resv_i       (out_resv_i[s*M +: M]),
      .req_o            (req_o[s]),
      .cand_tag_o       (cand_tag_o[s*2 +: 2]),
      .cand_buf_o       (cand_buf_o[s*BufW +: BufW]),
      .cand_ways_o      (cand_ways_o[s*M +: M]),
      .cand_hdr_o       (cand_hdr_o[s*HdrW +: HdrW]),
      .cand_idx_o       (cand_idx_o[s*IdxW +: IdxW]),
      .split_o          (split_o[s]),
      .post_free_o      (post_free),
      .post_full_o      (post_full),
      .rep_made_o       (rep_made),
      .rep_row_o        (rep_row),
      .rep_orig_o       (rep_orig),
      .ld_hdr_we_i      (1'b0),
      .ld_row_i         ('0),
      .ld_hdr_i         ('0),
      .ld_report_i      (1'b0),
      .ld_push_i        ('0),
      .ld_slot_i        ('0),
      .obs_o            (obs_o[s*Rows*ObsW +: Rows*ObsW])
    );

    // The loader port of a router set is not used.
    logic unused_post;
    assign unused_post = ^{post_free, post_full, rep_made, rep_row, rep_orig};
  end

endmodule
