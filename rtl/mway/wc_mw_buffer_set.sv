// A buffer set that drives a channel (the paper's Fig. 2): a DIM+ or DIM- set of an m-way router
// (Role = RoleRouter), or a node interface's injection set (RoleInjection, written by the
// loader). It holds the buffer-state table of Fig. 4 (A, F, Drv, Buf, Fptr, Rptr, RF, and R, T of
// docs/mway.md section 5) with the flits and the header of every buffer, and composes:
//
//   wc_mw_amu      i_amu      allocation/mapping unit on the input channel (RoleRouter)
//   wc_mw_route    i_rx_route routing logic of a header received (RoleRouter)
//   wc_mw_route    i_ld_route routing logic of a header the loader writes (RoleInjection)
//   wc_mw_buf_arb  i_arb      buffer arbiter for the output channel
//   wc_mw_replica  i_rep      replica engine (MST-replica)
//
// The registers after edge t hold the table after edge t. The next state follows the model's
// order of one edge (docs/mway.md section 4): (1) the transfers of both channels (a header or a
// flit written from the input channel, a reservation, the output channel's pop and header
// bookkeeping), (2) the replica, built from the original as step 1 left it, (3) the loader's
// write (RoleInjection), which sees the table as steps 1 and 2 left it.
// Why one file of this length: the units above are modules of their own already; what remains is
// the buffer-state table and its one next-state order (steps 1-3), which must be read in one piece.
`include "wc_assert.svh"

module wc_mw_buffer_set #(
  /// wc_mw_pkg::RoleRouter or RoleInjection.
  parameter int unsigned Role      = wc_mw_pkg::RoleRouter,
  /// Dimensions n (1..4).
  parameter int unsigned NumDims   = 2,
  /// Bits of one coordinate.
  parameter int unsigned CoordW    = 2,
  /// Bits of the packet id.
  parameter int unsigned IdW       = 32,
  /// Bits of Len (a message length 2..MaxMsgLen).
  parameter int unsigned LenW      = 3,
  /// Bits of a flit index (0..MaxMsgLen-1).
  parameter int unsigned IdxW      = 3,
  /// Buffers of this set.
  parameter int unsigned Rows      = 4,
  /// Buffers a driver set may have anywhere (the range of Buf on a channel).
  parameter int unsigned BufN      = 4,
  /// Flits per buffer, L (mway.buffer_length).
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
  /// Width of a row index. Derived; do not override.
  parameter int unsigned RowW      = wc_mw_pkg::idx_width(Rows),
  /// Width of the header word. Derived; do not override.
  parameter int unsigned HdrW      = wc_mw_pkg::hdr_width(NumDims, CoordW, IdW, LenW),
  /// Width of a buffered flit: tag (top two bits) and index. Derived; do not override.
  parameter int unsigned SlotW     = 2 + IdxW,
  /// Width of a ring pointer. Derived; do not override.
  parameter int unsigned PtrW      = wc_mw_pkg::idx_width(BufLen),
  /// Width of a flit count. Derived; do not override.
  parameter int unsigned CntW      = $clog2(BufLen + 1),
  /// Width of one row of obs_o. Derived; do not override.
  parameter int unsigned ObsW      = 7 + DrvW + BufW + 2 * PtrW + CntW + 2 * M + HdrW + BufLen * SlotW
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,
  input  logic [NumDims*CoordW-1:0] in_coord_i,   // input channel (RoleRouter)
  input  logic [NumDims*CoordW-1:0] out_coord_i,  // output channel
  input  logic [DrvW-1:0]           way_i,        // the set's way number on the input channel
  // ---- input channel: the lines of this cycle (RoleRouter; tied off for RoleInjection)
  input  logic [DrvW-1:0]           in_drv_i,
  input  logic [1:0]                in_tag_i,
  input  logic [BufW-1:0]           in_buf_i,
  input  logic [HdrW-1:0]           in_hdr_i,
  input  logic [IdxW-1:0]           in_idx_i,
  input  logic                      in_newly_i,   // this way allocates a buffer now
  input  logic                      in_take_i,    // this way writes the header
  input  logic                      in_resv_i,    // this way reserves its new buffer
  // Stat and Ack_out of this set on the input channel
  output logic                      stat_free_o,
  output logic [M*BufN-1:0]         stat_lbl_o,
  output logic                      stat_full_o,
  output logic                      res_hit_o,    // holds a reservation for the line's header
  output logic                      blk_o,        // a buffer the line's body flit matches is full
  output logic                      hit_o,        // some buffer takes the line's body flit
  // ---- output channel
  input  logic [M-1:0]              out_free_i,   // Stat: receiver set p has a free buffer
  input  logic [Rows-1:0]           out_rf_i,     // Stat: some receiver of buffer i is full (RF)
  input  logic                      out_grant_i,  // the set won the channel
  input  logic                      out_split_cand_i,  // the header may split (MST-replica)
  input  logic [M-1:0]              out_take_i,   // the ways that write the header
  input  logic [M-1:0]              out_resv_i,   // the ways that reserve for it
  output logic                      req_o,        // Pri
  output logic [1:0]                cand_tag_o,   // the candidate's flit ...
  output logic [BufW-1:0]           cand_buf_o,
  output logic [M-1:0]              cand_ways_o,
  output logic [HdrW-1:0]           cand_hdr_o,
  output logic [IdxW-1:0]           cand_idx_o,
  output logic                      split_o,      // the replica engine takes the rest of the ways
  // ---- loader (RoleInjection): the table as steps 1 and 2 leave it, and its writes
  output logic [Rows-1:0]           post_free_o,
  output logic [Rows-1:0]           post_full_o,
  output logic                      rep_made_o,
  output logic [RowW-1:0]           rep_row_o,
  output logic [RowW-1:0]           rep_orig_o,
  input  logic                      ld_hdr_we_i,  // write a new message's header ...
  input  logic [RowW-1:0]           ld_row_i,     // ... into this free buffer
  input  logic [HdrW-1:0]           ld_hdr_i,
  input  logic                      ld_report_i,  // its first header leaving is an injection
  input  logic [Rows-1:0]           ld_push_i,    // append ld_slot_i to these buffers
  input  logic [SlotW-1:0]          ld_slot_i,
  // ---- the table, row i at bits i*ObsW+ObsW-1:i*ObsW (tb/rtl/mway/mw_layout.h)
  output logic [Rows*ObsW-1:0]      obs_o
);

  localparam bit          IsRouter = Role == wc_mw_pkg::RoleRouter;
  localparam int unsigned KindOff  = IdW + LenW;
  localparam int unsigned RingW    = BufLen * SlotW;

`ifndef SYNTHESIS
  if (Role != wc_mw_pkg::RoleRouter && Role != wc_mw_pkg::RoleInjection) begin : gen_bad_role
    $error("wc_mw_buffer_set: Role must be RoleRouter or RoleInjection");
  end
  if (Rows > BufN) begin : gen_bad_rows
    $error("wc_mw_buffer_set: Rows must be at most BufN");
  end
`endif

  // ------------------------------------------------------------------------------------------
  // State: the buffer-state table (F is Count == L), the header and flits of every buffer
  // ------------------------------------------------------------------------------------------
  logic [Rows-1:0]      a_q, r_q, t_q, hdone_q, rep_q;
  logic [Rows*DrvW-1:0] drv_q;
  logic [Rows*BufW-1:0] buf_q;
  logic [Rows*PtrW-1:0] fptr_q, rptr_q;
  logic [Rows*CntW-1:0] cnt_q;
  logic [Rows*M-1:0]    pend_q, resv_q;  // ways still to reach, ways holding a reservation
  logic [Rows*HdrW-1:0] pkt_q;
  logic [Rows*RingW-1:0] ring_q;

  logic [Rows-1:0]      a_d, r_d, t_d, hdone_d, rep_d;
  logic [Rows*DrvW-1:0] drv_d;
  logic [Rows*BufW-1:0] buf_d;
  logic [Rows*PtrW-1:0] fptr_d, rptr_d;
  logic [Rows*CntW-1:0] cnt_d;
  logic [Rows*M-1:0]    pend_d, resv_d;
  logic [Rows*HdrW-1:0] pkt_d;
  logic [Rows*RingW-1:0] ring_d;

  // ------------------------------------------------------------------------------------------
  // The front of every buffer
  // ------------------------------------------------------------------------------------------
  logic [Rows-1:0]      f, nonempty, front_h, front_t, tree;
  logic [Rows*SlotW-1:0] front;

  always_comb begin
    for (int i = 0; i < Rows; i++) begin
      f[i]        = cnt_q[i*CntW +: CntW] == CntW'(BufLen);
      nonempty[i] = cnt_q[i*CntW +: CntW] != '0;
      front[i*SlotW +: SlotW] = ring_q[i*RingW + 32'(fptr_q[i*PtrW +: PtrW])*SlotW +: SlotW];
      front_h[i] = front[i*SlotW+IdxW +: 2] == wc_mw_pkg::TagH;
      front_t[i] = front[i*SlotW+IdxW +: 2] == wc_mw_pkg::TagT;
      tree[i]    = pkt_q[i*HdrW+KindOff +: 2] == wc_mw_pkg::KindTree;
    end
  end

  // ------------------------------------------------------------------------------------------
  // Input channel: allocation/mapping unit and routing logic (section 5)
  // ------------------------------------------------------------------------------------------
  logic            free_any, res_hit;
  logic [RowW-1:0] pick, res_idx;
  logic [Rows-1:0] match;
  logic [HdrW-1:0] rx_hdr;
  logic [M-1:0]    rx_ways;

  if (IsRouter) begin : gen_rx
    wc_mw_amu #(
      .Rows    (Rows),
      .M       (M),
      .BufN    (BufN),
      .BugTail (Bug == wc_mw_pkg::BugCamTail)
    ) i_amu (
      .a_i         (a_q),
      .r_i         (r_q),
      .t_i         (t_q),
      .f_i         (f),
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

    wc_mw_route #(
      .NumDims (NumDims),
      .CoordW  (CoordW),
      .IdW     (IdW),
      .LenW    (LenW),
      .Receive (1'b1),
      .Source  (1'b0)
    ) i_rx_route (
      .hdr_i       (in_hdr_i),
      .in_coord_i  (in_coord_i),
      .way_i       (way_i),
      .out_coord_i (out_coord_i),
      .hdr_o       (rx_hdr),
      .ways_o      (rx_ways)
    );
  end else begin : gen_no_rx
    assign free_any    = 1'b0;
    assign pick        = '0;
    assign res_hit     = 1'b0;
    assign res_idx     = '0;
    assign match       = '0;
    assign blk_o       = 1'b0;
    assign stat_lbl_o  = '0;
    assign stat_full_o = 1'b0;
    assign rx_hdr      = '0;
    assign rx_ways     = '0;
    // An injection set has no input channel.
    logic unused_in;
    assign unused_in = ^{in_coord_i, way_i, in_drv_i, in_tag_i, in_buf_i, in_hdr_i, in_idx_i,
                         in_newly_i, in_take_i, in_resv_i};
  end

  assign stat_free_o = free_any;
  assign res_hit_o   = res_hit;
  assign hit_o       = match != '0;

  logic [M-1:0] ld_ways;
  logic [HdrW-1:0] ld_hdr;

  if (!IsRouter) begin : gen_ld
    wc_mw_route #(
      .NumDims (NumDims),
      .CoordW  (CoordW),
      .IdW     (IdW),
      .LenW    (LenW),
      .Receive (1'b0),
      .Source  (1'b1)
    ) i_ld_route (
      .hdr_i       (ld_hdr_i),
      .in_coord_i  (out_coord_i),
      .way_i       (DrvW'(2 * NumDims)),
      .out_coord_i (out_coord_i),
      .hdr_o       (ld_hdr),
      .ways_o      (ld_ways)
    );
  end else begin : gen_no_ld
    assign ld_ways = '0;
    assign ld_hdr  = '0;
    logic unused_ld;
    assign unused_ld = ^{ld_hdr_we_i, ld_row_i, ld_hdr_i, ld_report_i, ld_push_i, ld_slot_i};
  end

  // ------------------------------------------------------------------------------------------
  // Output channel: buffer arbiter (section 4.1) and the candidate's flit
  // ------------------------------------------------------------------------------------------
  logic [Rows-1:0] elig;
  logic [RowW-1:0] cand;
  logic            unused_elig;
  assign unused_elig = ^elig;  // in the waveform: which buffers bid

  wc_mw_buf_arb #(
    .Rows      (Rows),
    .M         (M),
    .Algorithm (Algorithm),
    .HeaderBid (HeaderBid)
  ) i_arb (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .nonempty_i (nonempty),
    .front_h_i  (front_h),
    .tree_i     (tree),
    .pending_i  (pend_q),
    .reserved_i (resv_q),
    .hdone_i    (hdone_q),
    .rf_i       (out_rf_i),
    .free_i     (out_free_i),
    .won_i      (out_grant_i),
    .elig_o     (elig),
    .req_o      (req_o),
    .cand_o     (cand)
  );

  always_comb begin
    cand_tag_o  = front[32'(cand)*SlotW+IdxW +: 2];
    cand_idx_o  = front[32'(cand)*SlotW +: IdxW];
    cand_ways_o = front_h[cand] ? pend_q[32'(cand)*M +: M] : '0;
    cand_hdr_o  = front_h[cand] ? pkt_q[32'(cand)*HdrW +: HdrW] : '0;
    cand_buf_o  = BufW'(cand);
  end

  // ------------------------------------------------------------------------------------------
  // Replica engine (section 7)
  // ------------------------------------------------------------------------------------------
  logic            rep_avail;
  logic [RowW-1:0] rep_row;
  logic [HdrW-1:0] orig_hdr;
  logic [M-1:0]    rest;
  logic [RingW-1:0] orig_ring, rep_ring;
  logic [PtrW-1:0] orig_fptr, rep_rptr;
  logic [CntW-1:0] orig_cnt, rep_cnt;
  logic [HdrW-1:0] rep_hdr;

  wc_mw_replica #(
    .NumDims (NumDims),
    .CoordW  (CoordW),
    .IdW     (IdW),
    .LenW    (LenW),
    .Rows    (Rows),
    .BufLen  (BufLen),
    .SlotW   (SlotW)
  ) i_rep (
    .a_i         (a_q),
    .pick_en_i   (IsRouter && in_newly_i),
    .pick_i      (pick),
    .avail_o     (rep_avail),
    .row_o       (rep_row),
    .orig_hdr_i  (orig_hdr),
    .rest_i      (rest),
    .orig_ring_i (orig_ring),
    .orig_fptr_i (orig_fptr),
    .orig_cnt_i  (orig_cnt),
    .out_coord_i (out_coord_i),
    .rep_hdr_o   (rep_hdr),
    .rep_ring_o  (rep_ring),
    .rep_cnt_o   (rep_cnt),
    .rep_rptr_o  (rep_rptr)
  );

  assign split_o = (Algorithm == wc_mw_pkg::AlgMstReplica) && out_grant_i && out_split_cand_i &&
                   rep_avail;

  // ------------------------------------------------------------------------------------------
  // Step 1: the transfers of this edge (section 5.5)
  // ------------------------------------------------------------------------------------------
  logic [Rows-1:0]      a_1, r_1, t_1, hdone_1, rep_1;
  logic [Rows*DrvW-1:0] drv_1;
  logic [Rows*BufW-1:0] buf_1;
  logic [Rows*PtrW-1:0] fptr_1, rptr_1;
  logic [Rows*CntW-1:0] cnt_1;
  logic [Rows*M-1:0]    pend_1, resv_1;
  logic [Rows*RingW-1:0] ring_1;
  // What happens to each buffer this edge.
  logic [Rows-1:0] rx_hdr_we, rx_reserve, rx_push, tx_pop, tx_free;

  always_comb begin
    a_1 = a_q;  r_1 = r_q;  t_1 = t_q;  hdone_1 = hdone_q;  rep_1 = rep_q;
    drv_1 = drv_q;  buf_1 = buf_q;  fptr_1 = fptr_q;  rptr_1 = rptr_q;  cnt_1 = cnt_q;
    pend_1 = pend_q;  resv_1 = resv_q;  ring_1 = ring_q;
    for (int i = 0; i < Rows; i++) begin
      logic tx, hdr_pop;
      logic [M-1:0] pend;
      // Input channel: a header into its reserved buffer or the allocation unit's pick, a
      // reservation of the pick, a body or tail flit into every buffer the content search matched.
      rx_hdr_we[i]  = IsRouter && in_take_i && (res_hit ? (res_idx == RowW'(i)) : (pick == RowW'(i)));
      rx_reserve[i] = IsRouter && in_resv_i && (pick == RowW'(i));
      rx_push[i]    = IsRouter && ((in_tag_i == wc_mw_pkg::TagB) || (in_tag_i == wc_mw_pkg::TagT)) &&
                      match[i];
      // Output channel: the header's ways that wrote it or reserved for it; the front flit leaves
      // when it is a body or tail flit, or a header that reached its last way (or split).
      tx   = out_grant_i && (cand == RowW'(i));
      pend = pend_q[i*M +: M] & ~out_take_i;
      hdr_pop    = tx && front_h[i] && (out_take_i != '0) && ((pend == '0) || split_o);
      tx_pop[i]  = hdr_pop || (tx && !front_h[i]);
      tx_free[i] = tx && front_t[i];
      if (tx && front_h[i]) begin
        if (out_take_i != '0) begin
          pend_1[i*M +: M] = split_o ? '0 : pend;
          resv_1[i*M +: M] = resv_q[i*M +: M] & ~out_take_i;
          rep_1[i]         = 1'b0;
          if (hdr_pop) hdone_1[i] = 1'b1;
        end
        resv_1[i*M +: M] = resv_1[i*M +: M] | out_resv_i;
      end
      if (rx_hdr_we[i]) begin
        a_1[i] = 1'b1;
        r_1[i] = 1'b0;
        t_1[i] = 1'b0;
        hdone_1[i] = 1'b0;
        rep_1[i] = 1'b0;
        drv_1[i*DrvW +: DrvW] = in_drv_i;
        buf_1[i*BufW +: BufW] = in_buf_i;
        pend_1[i*M +: M] = rx_ways;
        resv_1[i*M +: M] = '0;
        fptr_1[i*PtrW +: PtrW] = '0;
        rptr_1[i*PtrW +: PtrW] = (BufLen == 1) ? '0 : PtrW'(1);
        cnt_1[i*CntW +: CntW] = CntW'(1);
        ring_1[i*RingW +: SlotW] = SlotW'({wc_mw_pkg::TagH, {IdxW{1'b0}}});
      end else if (rx_reserve[i]) begin
        a_1[i] = 1'b1;
        r_1[i] = 1'b1;
        t_1[i] = 1'b0;
        drv_1[i*DrvW +: DrvW] = in_drv_i;
        buf_1[i*BufW +: BufW] = in_buf_i;
      end else begin
        if (rx_push[i]) begin
          ring_1[i*RingW + 32'(rptr_q[i*PtrW +: PtrW])*SlotW +: SlotW] = {in_tag_i, in_idx_i};
          rptr_1[i*PtrW +: PtrW] = (rptr_q[i*PtrW +: PtrW] == PtrW'(BufLen - 1)) ? '0 :
                                   rptr_q[i*PtrW +: PtrW] + PtrW'(1);
          if (in_tag_i == wc_mw_pkg::TagT) t_1[i] = 1'b1;
        end
        if (tx_pop[i]) begin
          fptr_1[i*PtrW +: PtrW] = (fptr_q[i*PtrW +: PtrW] == PtrW'(BufLen - 1)) ? '0 :
                                   fptr_q[i*PtrW +: PtrW] + PtrW'(1);
        end
        cnt_1[i*CntW +: CntW] = cnt_q[i*CntW +: CntW] + CntW'(rx_push[i]) - CntW'(tx_pop[i]);
        // Section 5.3: a buffer is free once its tail has left.
        if (tx_free[i]) begin
          a_1[i] = 1'b0;
          r_1[i] = 1'b0;
          t_1[i] = 1'b0;
          hdone_1[i] = 1'b0;
          rep_1[i] = 1'b0;
          drv_1[i*DrvW +: DrvW] = '1;
          buf_1[i*BufW +: BufW] = '1;
          fptr_1[i*PtrW +: PtrW] = '0;
          rptr_1[i*PtrW +: PtrW] = '0;
          pend_1[i*M +: M] = '0;
          resv_1[i*M +: M] = '0;
        end
      end
    end
  end

  // The original of a replica is the candidate, as step 1 left it.
  always_comb begin
    orig_hdr  = pkt_q[32'(cand)*HdrW +: HdrW];
    rest      = pend_q[32'(cand)*M +: M] & ~out_take_i;
    orig_ring = ring_1[32'(cand)*RingW +: RingW];
    orig_fptr = fptr_1[32'(cand)*PtrW +: PtrW];
    orig_cnt  = cnt_1[32'(cand)*CntW +: CntW];
  end

  // ------------------------------------------------------------------------------------------
  // Step 2: the replica (section 7), then step 3: the loader (section 6)
  // ------------------------------------------------------------------------------------------
  logic [Rows-1:0]      a_2, r_2, t_2, hdone_2, rep_2;
  logic [Rows*DrvW-1:0] drv_2;
  logic [Rows*BufW-1:0] buf_2;
  logic [Rows*PtrW-1:0] fptr_2, rptr_2;
  logic [Rows*CntW-1:0] cnt_2;
  logic [Rows*M-1:0]    pend_2, resv_2;
  logic [Rows*RingW-1:0] ring_2;
  logic [Rows*HdrW-1:0] pkt_1, pkt_2;

  always_comb begin
    pkt_1 = pkt_q;
    for (int i = 0; i < Rows; i++) begin
      if (rx_hdr_we[i]) pkt_1[i*HdrW +: HdrW] = rx_hdr;
      if (tx_free[i] && !rx_hdr_we[i]) pkt_1[i*HdrW +: HdrW] = '0;
    end
  end

  always_comb begin
    a_2 = a_1;  r_2 = r_1;  t_2 = t_1;  hdone_2 = hdone_1;  rep_2 = rep_1;
    drv_2 = drv_1;  buf_2 = buf_1;  fptr_2 = fptr_1;  rptr_2 = rptr_1;  cnt_2 = cnt_1;
    pend_2 = pend_1;  resv_2 = resv_1;  ring_2 = ring_1;  pkt_2 = pkt_1;
    for (int i = 0; i < Rows; i++) begin
      if (split_o && (rep_row == RowW'(i))) begin
        a_2[i] = 1'b1;
        r_2[i] = 1'b0;
        hdone_2[i] = 1'b0;
        rep_2[i] = 1'b0;
        pend_2[i*M +: M] = rest;
        resv_2[i*M +: M] = '0;
        pkt_2[i*HdrW +: HdrW] = rep_hdr;
        ring_2[i*RingW +: RingW] = rep_ring;
        fptr_2[i*PtrW +: PtrW] = '0;
        rptr_2[i*PtrW +: PtrW] = rep_rptr;
        cnt_2[i*CntW +: CntW] = rep_cnt;
        t_2[i] = t_1[cand];
        drv_2[i*DrvW +: DrvW] = drv_1[32'(cand)*DrvW +: DrvW];
        buf_2[i*BufW +: BufW] = buf_1[32'(cand)*BufW +: BufW];
      end
    end
  end

  // Step 3, apart from step 2: the loader decides from what step 2 leaves.
  always_comb begin
    a_d = a_2;  r_d = r_2;  t_d = t_2;  hdone_d = hdone_2;  rep_d = rep_2;
    drv_d = drv_2;  buf_d = buf_2;  fptr_d = fptr_2;  rptr_d = rptr_2;  cnt_d = cnt_2;
    pend_d = pend_2;  resv_d = resv_2;  ring_d = ring_2;  pkt_d = pkt_2;
    for (int i = 0; i < Rows; i++) begin
      if (!IsRouter && ld_hdr_we_i && (ld_row_i == RowW'(i))) begin
        a_d[i] = 1'b1;
        r_d[i] = 1'b0;
        t_d[i] = 1'b0;
        hdone_d[i] = 1'b0;
        rep_d[i] = ld_report_i;
        drv_d[i*DrvW +: DrvW] = '1;
        buf_d[i*BufW +: BufW] = '1;
        pend_d[i*M +: M] = ld_ways;
        resv_d[i*M +: M] = '0;
        pkt_d[i*HdrW +: HdrW] = ld_hdr;
        fptr_d[i*PtrW +: PtrW] = '0;
        rptr_d[i*PtrW +: PtrW] = (BufLen == 1) ? '0 : PtrW'(1);
        cnt_d[i*CntW +: CntW] = CntW'(1);
        ring_d[i*RingW +: SlotW] = SlotW'({wc_mw_pkg::TagH, {IdxW{1'b0}}});
      end
      if (!IsRouter && ld_push_i[i]) begin
        ring_d[i*RingW + 32'(rptr_2[i*PtrW +: PtrW])*SlotW +: SlotW] = ld_slot_i;
        rptr_d[i*PtrW +: PtrW] = (rptr_2[i*PtrW +: PtrW] == PtrW'(BufLen - 1)) ? '0 :
                                 rptr_2[i*PtrW +: PtrW] + PtrW'(1);
        cnt_d[i*CntW +: CntW] = cnt_2[i*CntW +: CntW] + CntW'(1);
        if (ld_slot_i[IdxW +: 2] == wc_mw_pkg::TagT) t_d[i] = 1'b1;
      end
    end
  end

  always_comb begin
    post_free_o = ~a_2;
    for (int i = 0; i < Rows; i++) begin
      post_full_o[i] = cnt_2[i*CntW +: CntW] == CntW'(BufLen);
    end
  end
  assign rep_made_o = split_o;
  assign rep_row_o  = rep_row;
  assign rep_orig_o = cand;

  // ------------------------------------------------------------------------------------------
  // State
  // ------------------------------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      a_q     <= '0;
      r_q     <= '0;
      t_q     <= '0;
      hdone_q <= '0;
      rep_q   <= '0;
      drv_q   <= '1;
      buf_q   <= '1;
      fptr_q  <= '0;
      rptr_q  <= '0;
      cnt_q   <= '0;
      pend_q  <= '0;
      resv_q  <= '0;
      pkt_q   <= '0;
    end else begin
      a_q     <= a_d;
      r_q     <= r_d;
      t_q     <= t_d;
      hdone_q <= hdone_d;
      rep_q   <= rep_d;
      drv_q   <= drv_d;
      buf_q   <= buf_d;
      fptr_q  <= fptr_d;
      rptr_q  <= rptr_d;
      cnt_q   <= cnt_d;
      pend_q  <= pend_d;
      resv_q  <= resv_d;
      pkt_q   <= pkt_d;
    end
  end

  // Flit storage needs no reset: a slot is read only after it was written.
  always_ff @(posedge clk_i) begin
    ring_q <= ring_d;
  end

  // ------------------------------------------------------------------------------------------
  // Observation: every row of the table (lockstep comparison, waveforms)
  // ------------------------------------------------------------------------------------------
  always_comb begin
    for (int i = 0; i < Rows; i++) begin
      obs_o[i*ObsW +: ObsW] = {ring_q[i*RingW +: RingW], pkt_q[i*HdrW +: HdrW],
                               resv_q[i*M +: M], pend_q[i*M +: M], cnt_q[i*CntW +: CntW],
                               rptr_q[i*PtrW +: PtrW], fptr_q[i*PtrW +: PtrW],
                               buf_q[i*BufW +: BufW], drv_q[i*DrvW +: DrvW], rep_q[i],
                               hdone_q[i], out_rf_i[i], t_q[i], r_q[i], f[i], a_q[i]};
    end
  end

  // ------------------------------------------------------------------------------------------
  // Rules of the buffer-state table
  // ------------------------------------------------------------------------------------------
`ifndef SYNTHESIS
  logic [Rows-1:0] ptr_ok, idle_ok, hdr_ok, src_unique;
  always_comb begin
    for (int i = 0; i < Rows; i++) begin
      // Rptr is Fptr + Count (mod L): the rear never passes the front (and NoOverflow_A keeps
      // Count at most L).
      ptr_ok[i] = (32'(fptr_q[i*PtrW +: PtrW]) + 32'(cnt_q[i*CntW +: CntW])) % BufLen ==
                  32'(rptr_q[i*PtrW +: PtrW]);
      // A free buffer holds nothing; a reservation holds no flit and no tail.
      idle_ok[i] = (a_q[i] || (!r_q[i] && !t_q[i] && !nonempty[i] && !hdone_q[i])) &&
                   (!r_q[i] || (!nonempty[i] && !t_q[i]));
      // A header that reached every way is pending nowhere; reservations only for pending ways.
      hdr_ok[i] = (!hdone_q[i] || (pend_q[i*M +: M] == '0)) &&
                  ((resv_q[i*M +: M] & ~pend_q[i*M +: M]) == '0);
      src_unique[i] = 1'b1;
      for (int j = 0; j < Rows; j++) begin
        // Two live buffers (allocated, tail not in) of one source (Drv, Buf): only an original
        // and its replicas under MST-replica, never a reservation and another buffer.
        if (IsRouter && (j != i) && a_q[i] && a_q[j] && !t_q[i] && !t_q[j] &&
            (drv_q[i*DrvW +: DrvW] == drv_q[j*DrvW +: DrvW]) &&
            (buf_q[i*BufW +: BufW] == buf_q[j*BufW +: BufW]) &&
            (r_q[i] || (Algorithm != wc_mw_pkg::AlgMstReplica))) begin
          src_unique[i] = 1'b0;
        end
      end
    end
  end
`endif

  `WC_ASSERT(RptrTracksFptr_A, &ptr_ok)
  `WC_ASSERT(IdleRowsEmpty_A, &idle_ok)
  `WC_ASSERT(OneLiveRowPerSource_A, &src_unique)
  `WC_ASSERT(DoneHeaderNotPending_A, &hdr_ok)
  // A header goes into a free buffer or the one reserved for it; a reservation into a free one.
  `WC_ASSERT(HeaderIntoFreeOrReserved_A, (rx_hdr_we & a_q & ~r_q) == '0)
  `WC_ASSERT(ReserveFreeRow_A, (rx_reserve & a_q) == '0)
  // No flit into a full buffer; no pop from an empty one.
  `WC_ASSERT(NoOverflow_A, (rx_push & f) == '0)
  `WC_ASSERT(PopNonEmpty_A, (tx_pop & ~nonempty) == '0)
  // A replica goes into a free buffer and fits (virtual cut-through).
  `WC_ASSERT(ReplicaFits_A, !split_o || (!a_q[rep_row] && (32'(orig_cnt) + 1 <= BufLen)))
  // The loader writes a header only into a free buffer and appends only where there is room.
  `WC_ASSERT(LoaderIntoFree_A, !ld_hdr_we_i || IsRouter || post_free_o[ld_row_i])
  `WC_ASSERT(LoaderRoom_A, IsRouter || ((ld_push_i & post_full_o) == '0))

endmodule
