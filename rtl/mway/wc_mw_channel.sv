// An m-way channel (the paper's Fig. 1 and section 2.4, docs/mway.md sections 3-5): m taps, each
// the driver and receiver interface of one buffer set, over one set of shared lines:
//
//   wc_mw_chan_arb  i_arb       channel arbiter on Pri (rotating priority)
//   wc_mw_tap       gen_tap[p]  tap p: its driver on the wired-OR lines, its Ack_out
//   wc_mw_chan_res  i_res       wired-OR of the lines and Stat labels, wired-AND of Ack
//   wc_mw_order     i_order     ordered reservation over the ways a header names
//
// Lines of cycle t (Moore: from the state after edge t): Drv (all ones when idle), Tag, Buf,
// Ways (header only), the header word, the flit index, Ack; Pri (the requesters) and Stat (per
// set p: a free buffer; F of every live receiver buffer labelled by its (Drv, Buf)). Beside
// Ack the channel returns every way's outcome: ok (Ack_out of set p), newly (ok by a buffer it
// allocates now), take (the ways that write the header at the edge) and resv (the ways that
// reserve for it). Spl is a line of the winning driver: its replica engine takes the ways that
// are not ok (MST-replica), so the ok ways take the header instead of reserving.
`include "wc_assert.svh"

module wc_mw_channel #(
  /// Dimensions n (1..4); the channel has m = 2n + 1 taps.
  parameter int unsigned NumDims   = 2,
  /// Bits of one coordinate.
  parameter int unsigned CoordW    = 2,
  /// Bits of the packet id.
  parameter int unsigned IdW       = 32,
  /// Bits of Len.
  parameter int unsigned LenW      = 3,
  /// Bits of a flit index.
  parameter int unsigned IdxW      = 3,
  /// Buffers a driver set may have anywhere (the range of Buf).
  parameter int unsigned BufN      = 4,
  /// wc_mw_pkg::Alg*.
  parameter int unsigned Algorithm = wc_mw_pkg::AlgMstSafe,
  /// Test hook only (wc_mw_pkg::Bug*).
  parameter int unsigned Bug       = wc_mw_pkg::BugNone,
  /// Taps m = 2n + 1. Derived; do not override.
  parameter int unsigned M         = 2 * NumDims + 1,
  /// Width of a driver number. Derived; do not override.
  parameter int unsigned DrvW      = wc_mw_pkg::idx_width(M),
  /// Width of Buf. Derived; do not override.
  parameter int unsigned BufW      = wc_mw_pkg::idx_width(BufN),
  /// Width of the header word. Derived; do not override.
  parameter int unsigned HdrW      = wc_mw_pkg::hdr_width(NumDims, CoordW, IdW, LenW),
  /// Width of obs_o. Derived; do not override.
  parameter int unsigned ObsW      = DrvW + 2 + BufW + 8 * M + 2
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  // ---- drivers: tap p at bits p*W+W-1:p*W
  input  logic [M-1:0]          req_i,        // Pri
  input  logic [M*2-1:0]        cand_tag_i,
  input  logic [M*BufW-1:0]     cand_buf_i,
  input  logic [M*M-1:0]        cand_ways_i,
  input  logic [M*HdrW-1:0]     cand_hdr_i,
  input  logic [M*IdxW-1:0]     cand_idx_i,
  input  logic [M-1:0]          split_i,      // Spl of driver p (read from the winner only)
  output logic [M-1:0]          grant_o,
  output logic                  split_cand_o, // the header's ok ways are a proper prefix (MST-replica)
  output logic [M-1:0]          take_o,
  output logic [M-1:0]          resv_o,
  // ---- receivers
  input  logic [M-1:0]          free_i,       // Stat: set p has a free buffer
  input  logic [M*M*BufN-1:0]   lbl_i,        // Stat labels of set p
  input  logic [M-1:0]          full_i,       // set p has a full buffer (trace only)
  input  logic [M-1:0]          res_hit_i,    // set p holds a reservation for the header
  input  logic [M-1:0]          blk_i,        // a buffer of set p the body flit matches is full
  input  logic [M-1:0]          hit_i,        // set p takes the body flit
  output logic [M*BufN-1:0]     lbl_o,        // Stat: F of receivers, by the driver's (Drv, Buf)
  // ---- the lines
  output logic [DrvW-1:0]       drv_o,
  output logic [1:0]            tag_o,
  output logic [BufW-1:0]       buf_o,
  output logic [M-1:0]          ways_o,
  output logic [HdrW-1:0]       hdr_o,
  output logic [IdxW-1:0]       idx_o,
  output logic                  ack_o,
  output logic [M-1:0]          ok_o,
  output logic [M-1:0]          newly_o,
  // ---- observation (tb/rtl/mway/mw_layout.h)
  output logic [ObsW-1:0]       obs_o
);

  localparam int unsigned LineW   = 2 + BufW + M + HdrW + IdxW;
  localparam int unsigned KindOff = IdW + LenW;

  logic            valid;
  logic [DrvW-1:0] win;

  wc_mw_chan_arb #(
    .M (M)
  ) i_arb (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .pri_i   (req_i),
    .valid_o (valid),
    .drv_o   (win),
    .grant_o (grant_o)
  );

  logic [M*LineW-1:0] tap_line;
  logic [M-1:0]       tap_ack;
  logic [LineW-1:0]   line;
  logic               ack_and, header, unordered, split, progress;

  for (genvar p = 0; p < M; p++) begin : gen_tap
    wc_mw_tap #(
      .LineW (LineW)
    ) i_tap (
      .grant_i  (grant_o[p]),
      .cand_i   ({cand_tag_i[p*2 +: 2], cand_buf_i[p*BufW +: BufW], cand_ways_i[p*M +: M],
                  cand_hdr_i[p*HdrW +: HdrW], cand_idx_i[p*IdxW +: IdxW]}),
      .line_o   (tap_line[p*LineW +: LineW]),
      .header_i (header),
      .named_i  (ways_o[p]),
      .ok_i     (ok_o[p]),
      .blk_i    (blk_i[p]),
      .ack_o    (tap_ack[p])
    );
  end

  wc_mw_chan_res #(
    .NumTaps (M),
    .LineW   (LineW),
    .LblW    (M * BufN)
  ) i_res (
    .line_i (tap_line),
    .ack_i  (tap_ack),
    .lbl_i  (lbl_i),
    .line_o (line),
    .ack_o  (ack_and),
    .lbl_o  (lbl_o)
  );

  assign {tag_o, buf_o, ways_o, hdr_o, idx_o} = line;
  assign drv_o     = valid ? win : '1;
  assign header    = tag_o == wc_mw_pkg::TagH;
  assign unordered = (Algorithm == wc_mw_pkg::AlgMst) && (hdr_o[KindOff +: 2] == wc_mw_pkg::KindTree);

  wc_mw_order #(
    .M       (M),
    .BugSwap (Bug == wc_mw_pkg::BugOrderSwap)
  ) i_order (
    .ways_i      (ways_o),
    .res_i       (res_hit_i),
    .free_i      (free_i),
    .unordered_i (unordered),
    .ok_o        (ok_o),
    .newly_o     (newly_o)
  );

  // Spl is driven by the winner only (wired-OR of the granted tap).
  assign split        = (split_i & grant_o) != '0;
  assign ack_o        = valid && ack_and;
  assign split_cand_o = header && !ack_o && (Algorithm == wc_mw_pkg::AlgMstReplica) &&
                        (hdr_o[KindOff +: 2] == wc_mw_pkg::KindTree) && (ok_o != '0);
  // The ok ways take the header when all are ok (Ack), when the rest goes to a replica, or under
  // plain MST's rules a and b; otherwise the ways ok by a new buffer reserve it.
  assign progress     = ack_o || split || unordered;
  assign take_o       = (header && progress) ? ok_o : '0;
  assign resv_o       = (header && !progress) ? newly_o : '0;

  assign obs_o = {split, resv_o, take_o, newly_o, ok_o, full_i, free_i, req_i, ways_o, ack_o,
                  buf_o, tag_o, drv_o};

  // ------------------------------------------------------------------------------------------
  // Rules
  // ------------------------------------------------------------------------------------------
  logic body;
  logic [M-1:0] missing, below_missing;
  assign body          = (tag_o == wc_mw_pkg::TagB) || (tag_o == wc_mw_pkg::TagT);
  assign missing       = ways_o & ~ok_o;
  assign below_missing = (missing & (~missing + M'(1))) - M'(1);  // bits below the lowest missing way

  // Lines only with a winner, Ways only with a header.
  `WC_ASSERT(LinesOnlyWithDriver_A, valid || (line == '0))
  `WC_ASSERT(WaysOnlyOnHeader_A, header || (ways_o == '0))
  // A body or tail flit bids only when no receiver buffer of it is full, so it is always taken,
  // and by at least one buffer.
  `WC_ASSERT(BodyAcked_A, !body || ack_o)
  `WC_ASSERT(BodyReceived_A, !body || (hit_i != '0))
  // Ok only for named ways; ordered: the ok ways are a prefix of Ways in the way order.
  `WC_ASSERT(OkNamed_A, (ok_o & ~ways_o) == '0)
  `WC_ASSERT(OkIsPrefix_A, unordered || (Bug == wc_mw_pkg::BugOrderSwap) || (missing == '0) ||
                           ((ok_o & ~below_missing) == '0))
  `WC_ASSERT(SplitOnlyCandidate_A, !split || split_cand_o)

endmodule
