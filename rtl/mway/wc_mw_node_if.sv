// Node interface of an m-way channel (docs/mway.md section 6): driver 2n and way 2n of its
// channel. It composes:
//
//   wc_mw_buffer_set i_inj  injection set (RoleInjection), driver 2n
//   wc_mw_loader     i_ld   loads the source queue's front message into it
//   wc_mw_ej_set     i_ej   ejection set, way 2n, delivering to the node
//
// The source queue itself (messages and the follow-up copies of forwarded ones) is the node's:
// it offers its front message on src_valid_i and learns at src_take_o that the edge takes it.
module wc_mw_node_if #(
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
  /// Injection buffers.
  parameter int unsigned InjRows   = 4,
  /// Ejection buffers.
  parameter int unsigned EjRows    = 4,
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
  /// Width of an injection row of obs_inj_o. Derived; do not override.
  parameter int unsigned InjObsW   = 7 + DrvW + BufW + 2 * wc_mw_pkg::idx_width(BufLen) +
                                     $clog2(BufLen + 1) + 2 * M + HdrW + BufLen * (2 + IdxW),
  /// Width of an ejection row of obs_ej_o. Derived; do not override.
  parameter int unsigned EjObsW    = 3 + DrvW + BufW + HdrW
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,
  input  logic [NumDims*CoordW-1:0] coord_i,
  // ---- the channel's lines of this cycle (ejection side)
  input  logic [DrvW-1:0]           line_drv_i,
  input  logic [1:0]                line_tag_i,
  input  logic [BufW-1:0]           line_buf_i,
  input  logic [HdrW-1:0]           line_hdr_i,
  input  logic [IdxW-1:0]           line_idx_i,
  input  logic                      ej_newly_i,
  input  logic                      ej_take_i,
  input  logic                      ej_resv_i,
  output logic                      ej_free_o,
  output logic [M*BufN-1:0]         ej_lbl_o,
  output logic                      ej_full_o,
  output logic                      ej_res_hit_o,
  output logic                      ej_blk_o,
  output logic                      ej_hit_o,
  // ---- the channel (injection side, driver 2n)
  input  logic [M-1:0]              inj_free_i,
  input  logic [InjRows-1:0]        inj_rf_i,
  input  logic                      inj_grant_i,
  input  logic                      inj_split_cand_i,
  input  logic [M-1:0]              inj_take_i,
  input  logic [M-1:0]              inj_resv_i,
  output logic                      inj_req_o,
  output logic [1:0]                inj_tag_o,
  output logic [BufW-1:0]           inj_buf_o,
  output logic [M-1:0]              inj_ways_o,
  output logic [HdrW-1:0]           inj_hdr_o,
  output logic [IdxW-1:0]           inj_idx_o,
  output logic                      inj_split_o,
  // ---- the node: source queue and deliveries
  input  logic                      src_valid_i,
  input  logic [HdrW-1:0]           src_hdr_i,
  input  logic                      src_report_i,  // its first header out is an injection
  output logic                      src_take_o,
  output logic                      dlv_valid_o,
  output logic                      dlv_head_o,
  output logic                      dlv_tail_o,
  output logic [IdxW-1:0]           dlv_idx_o,
  output logic [HdrW-1:0]           dlv_hdr_o,
  // ---- observation
  output logic [InjRows*InjObsW-1:0] obs_inj_o,
  output logic [EjRows*EjObsW-1:0]  obs_ej_o,
  output logic [InjRows+LenW-1:0]   obs_ld_o     // loader: next flit index, rows being written
);

  localparam int unsigned RowW  = wc_mw_pkg::idx_width(InjRows);
  localparam int unsigned SlotW = 2 + IdxW;

  logic [InjRows-1:0] post_free, post_full, ld_push, targets;
  logic               rep_made, ld_hdr_we;
  logic [RowW-1:0]    rep_row, rep_orig, ld_row;
  logic [SlotW-1:0]   ld_slot;
  logic [LenW-1:0]    next;
  // The injection set has no input channel.
  logic               inj_in_free, inj_in_full, inj_in_hit, inj_in_blk, inj_in_take;
  logic [M*BufN-1:0]  inj_in_lbl;

  wc_mw_buffer_set #(
    .Role      (wc_mw_pkg::RoleInjection),
    .NumDims   (NumDims),
    .CoordW    (CoordW),
    .IdW       (IdW),
    .LenW      (LenW),
    .IdxW      (IdxW),
    .Rows      (InjRows),
    .BufN      (BufN),
    .BufLen    (BufLen),
    .Algorithm (Algorithm),
    .HeaderBid (HeaderBid),
    .Bug       (Bug)
  ) i_inj (
    .clk_i            (clk_i),
    .rst_ni           (rst_ni),
    .in_coord_i       (coord_i),
    .out_coord_i      (coord_i),
    .way_i            (DrvW'(2 * NumDims)),
    .in_drv_i         ('1),
    .in_tag_i         (wc_mw_pkg::TagI),
    .in_buf_i         ('0),
    .in_hdr_i         ('0),
    .in_idx_i         ('0),
    .in_newly_i       (1'b0),
    .in_take_i        (1'b0),
    .in_resv_i        (1'b0),
    .stat_free_o      (inj_in_free),
    .stat_lbl_o       (inj_in_lbl),
    .stat_full_o      (inj_in_full),
    .res_hit_o        (inj_in_hit),
    .blk_o            (inj_in_blk),
    .hit_o            (inj_in_take),
    .out_free_i       (inj_free_i),
    .out_rf_i         (inj_rf_i),
    .out_grant_i      (inj_grant_i),
    .out_split_cand_i (inj_split_cand_i),
    .out_take_i       (inj_take_i),
    .out_resv_i       (inj_resv_i),
    .req_o            (inj_req_o),
    .cand_tag_o       (inj_tag_o),
    .cand_buf_o       (inj_buf_o),
    .cand_ways_o      (inj_ways_o),
    .cand_hdr_o       (inj_hdr_o),
    .cand_idx_o       (inj_idx_o),
    .split_o          (inj_split_o),
    .post_free_o      (post_free),
    .post_full_o      (post_full),
    .rep_made_o       (rep_made),
    .rep_row_o        (rep_row),
    .rep_orig_o       (rep_orig),
    .ld_hdr_we_i      (ld_hdr_we),
    .ld_row_i         (ld_row),
    .ld_hdr_i         (src_hdr_i),
    .ld_report_i      (src_report_i),
    .ld_push_i        (ld_push),
    .ld_slot_i        (ld_slot),
    .obs_o            (obs_inj_o)
  );

  logic unused_inj_in;
  assign unused_inj_in = ^{inj_in_free, inj_in_lbl, inj_in_full, inj_in_hit, inj_in_blk, inj_in_take};

  wc_mw_loader #(
    .Rows (InjRows),
    .LenW (LenW),
    .IdxW (IdxW)
  ) i_ld (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .valid_i    (src_valid_i),
    .len_i      (src_hdr_i[IdW +: LenW]),
    .take_o     (src_take_o),
    .free_i     (post_free),
    .full_i     (post_full),
    .rep_made_i (rep_made),
    .rep_row_i  (rep_row),
    .rep_orig_i (rep_orig),
    .hdr_we_o   (ld_hdr_we),
    .row_o      (ld_row),
    .push_o     (ld_push),
    .slot_o     (ld_slot),
    .targets_o  (targets),
    .next_o     (next)
  );

  assign obs_ld_o = {next, targets};

  wc_mw_ej_set #(
    .NumDims (NumDims),
    .CoordW  (CoordW),
    .IdW     (IdW),
    .LenW    (LenW),
    .IdxW    (IdxW),
    .Rows    (EjRows),
    .BufN    (BufN),
    .Bug     (Bug)
  ) i_ej (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .coord_i     (coord_i),
    .in_drv_i    (line_drv_i),
    .in_tag_i    (line_tag_i),
    .in_buf_i    (line_buf_i),
    .in_hdr_i    (line_hdr_i),
    .in_idx_i    (line_idx_i),
    .in_newly_i  (ej_newly_i),
    .in_take_i   (ej_take_i),
    .in_resv_i   (ej_resv_i),
    .stat_free_o (ej_free_o),
    .stat_lbl_o  (ej_lbl_o),
    .stat_full_o (ej_full_o),
    .res_hit_o   (ej_res_hit_o),
    .blk_o       (ej_blk_o),
    .hit_o       (ej_hit_o),
    .dlv_valid_o (dlv_valid_o),
    .dlv_head_o  (dlv_head_o),
    .dlv_tail_o  (dlv_tail_o),
    .dlv_idx_o   (dlv_idx_o),
    .dlv_hdr_o   (dlv_hdr_o),
    .obs_o       (obs_ej_o)
  );

endmodule
