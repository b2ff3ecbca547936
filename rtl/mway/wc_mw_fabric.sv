// A k-ary m-way mesh (docs/mway.md section 2) in hardware: one wc_mw_channel per grid point, one
// wc_mw_router per pair of adjacent channels, one wc_mw_node_if per channel. It is the RTL twin of
// the SystemC MwayFabric behind the fabric interface (docs/mway.md section 11): the nodes' source
// queues feed it, its deliveries leave it, and the obs_* outputs show every channel's lines and
// every buffer-state table for the lockstep comparison.
//
//   wc_mw_channel  gen_ch[c].i_ch            x NumCh
//   wc_mw_node_if  gen_ch[c].i_ni            x NumCh
//   wc_mw_router   gen_ch[c].gen_d[d].gen_rt.i_rt   for every c not on the high edge of d
//
// Channel ids are mixed radix, dimension 0 fastest; a tap p = 2d + dir of channel c is wired as
// docs/mway.md section 2.1 says, taps at the mesh border are tied off. The per-channel signals
// are kept in one vector per stage of the cycle (Stat; candidates; lines; reservation look-up;
// ok/newly; Spl; take/resv) so that no vector depends on itself.
module wc_mw_fabric #(
  /// Dimensions n (1..4).
  parameter int unsigned NumDims    = 2,
  /// Radix k_0 (2..256).
  parameter int unsigned Radix0     = 4,
  /// Radix k_1 (ignored if absent).
  parameter int unsigned Radix1     = 4,
  /// Radix k_2 (ignored if absent).
  parameter int unsigned Radix2     = 2,
  /// Radix k_3 (ignored if absent).
  parameter int unsigned Radix3     = 2,
  /// Buffers per router buffer set (mway.buffers, 1..32).
  parameter int unsigned Buffers    = 4,
  /// Flits per buffer, L (mway.buffer_length).
  parameter int unsigned BufLen     = 5,
  /// Injection buffers (mway.injection_buffers, 1..32).
  parameter int unsigned InjBuffers = 4,
  /// Ejection buffers (mway.ejection_buffers, 1..32).
  parameter int unsigned EjBuffers  = 4,
  /// Longest message in flits, header included (nic.max_packet, 2..4096).
  parameter int unsigned MaxMsgLen  = 5,
  /// wc_mw_pkg::Alg*: 0 unicast, 1 mst, 2 mst-safe, 3 mst-replica, 4 mst-unicast, 5 rd.
  parameter int unsigned Algorithm  = wc_mw_pkg::AlgMstSafe,
  /// wc_mw_pkg::BidStat (0) or BidBlind (1) (mway.header_bid).
  parameter int unsigned HeaderBid  = wc_mw_pkg::BidStat,
  /// Bits of the packet id a header carries.
  parameter int unsigned IdW        = 32,
  /// Test hook only (wc_mw_pkg::Bug*): a deliberately broken build for the lockstep test.
  parameter int unsigned Bug        = wc_mw_pkg::BugNone,
  // ---- Derived; do not override (parameters so that the port widths can use them).
  /// Radices of absent dimensions count as 1.
  parameter int unsigned K1         = (NumDims > 1) ? Radix1 : 1,
  parameter int unsigned K2         = (NumDims > 2) ? Radix2 : 1,
  parameter int unsigned K3         = (NumDims > 3) ? Radix3 : 1,
  /// Channels (= nodes).
  parameter int unsigned NumCh      = Radix0 * K1 * K2 * K3,
  /// Ways m = 2n + 1.
  parameter int unsigned M          = 2 * NumDims + 1,
  /// Bits of one coordinate.
  parameter int unsigned CoordW     = wc_mw_pkg::idx_width(
                                        (Radix0 > K1 ? (Radix0 > K2 ? (Radix0 > K3 ? Radix0 : K3) :
                                                                      (K2 > K3 ? K2 : K3)) :
                                                       (K1 > K2 ? (K1 > K3 ? K1 : K3) : (K2 > K3 ? K2 : K3)))),
  /// Bits of Len and of a flit index.
  parameter int unsigned LenW       = $clog2(MaxMsgLen + 1),
  parameter int unsigned IdxW       = wc_mw_pkg::idx_width(MaxMsgLen),
  /// The range of Buf on a channel: the larger of a router set and an injection set.
  parameter int unsigned BufN       = (Buffers > InjBuffers) ? Buffers : InjBuffers,
  parameter int unsigned DrvW       = wc_mw_pkg::idx_width(M),
  parameter int unsigned BufW       = wc_mw_pkg::idx_width(BufN),
  parameter int unsigned HdrW       = wc_mw_pkg::hdr_width(NumDims, CoordW, IdW, LenW),
  /// Widths of one row of a driving set's table, an ejection row, a loader, a channel.
  parameter int unsigned SetObsW    = 7 + DrvW + BufW + 2 * wc_mw_pkg::idx_width(BufLen) +
                                      $clog2(BufLen + 1) + 2 * M + HdrW + BufLen * (2 + IdxW),
  parameter int unsigned EjObsW     = 3 + DrvW + BufW + HdrW,
  parameter int unsigned LdObsW     = InjBuffers + LenW,
  parameter int unsigned ChObsW     = DrvW + 2 + BufW + 8 * M + 2
) (
  input  logic                                      clk_i,
  input  logic                                      rst_ni,
  // ---- the nodes' source queues: the front message of node c (offered from the edge after
  // the cycle it was created in), and whether this edge takes it
  input  logic [NumCh-1:0]                          src_valid_i,
  input  logic [NumCh*HdrW-1:0]                     src_hdr_i,
  input  logic [NumCh-1:0]                          src_report_i,
  output logic [NumCh-1:0]                          src_take_o,
  // ---- deliveries of the coming edge: the flit node c receives
  output logic [NumCh-1:0]                          dlv_valid_o,
  output logic [NumCh-1:0]                          dlv_head_o,
  output logic [NumCh-1:0]                          dlv_tail_o,
  output logic [NumCh*IdxW-1:0]                     dlv_idx_o,
  output logic [NumCh*HdrW-1:0]                     dlv_hdr_o,
  // ---- observation (tb/rtl/mway/mw_layout.h): channel c; the router whose low channel is c
  // in dimension d at slot c*NumDims + d (zeros where there is none), DIM+ then DIM-; node c
  output logic [NumCh*ChObsW-1:0]                   obs_ch_o,
  output logic [NumCh*NumDims*2*Buffers*SetObsW-1:0] obs_rt_o,
  output logic [NumCh*InjBuffers*SetObsW-1:0]       obs_inj_o,
  output logic [NumCh*EjBuffers*EjObsW-1:0]         obs_ej_o,
  output logic [NumCh*LdObsW-1:0]                   obs_ld_o
);

  localparam int unsigned S1 = Radix0;
  localparam int unsigned S2 = Radix0 * K1;
  localparam int unsigned S3 = Radix0 * K1 * K2;
  localparam int unsigned LblW = M * BufN;
  localparam int unsigned RtObsW = 2 * Buffers * SetObsW;

`ifndef SYNTHESIS
  if (NumDims < 1 || NumDims > wc_mw_pkg::MaxDims) begin : gen_bad_dims
    $error("wc_mw_fabric: NumDims must be 1..4");
  end
  if (Radix0 < 2 || K1 < 1 || K2 < 1 || K3 < 1 || Radix0 > 256 || K1 > 256 || K2 > 256 ||
      K3 > 256 || (NumDims > 1 && K1 < 2) || (NumDims > 2 && K2 < 2) || (NumDims > 3 && K3 < 2))
      begin : gen_bad_radix
    $error("wc_mw_fabric: every radix must be 2..256");
  end
  if (Buffers < 1 || Buffers > 32 || InjBuffers < 1 || InjBuffers > 32 || EjBuffers < 1 ||
      EjBuffers > 32 || BufLen < 1 || MaxMsgLen < 2 || Algorithm > 5 || HeaderBid > 1)
      begin : gen_bad_params
    $error("wc_mw_fabric: parameter out of range (docs/mway.md section 1)");
  end
  if ((Algorithm == wc_mw_pkg::AlgMstSafe || Algorithm == wc_mw_pkg::AlgMstReplica) &&
      BufLen < MaxMsgLen) begin : gen_bad_cut_through
    $error("wc_mw_fabric: MST-safe and MST-replica need BufLen >= MaxMsgLen");
  end
`endif

  // ------------------------------------------------------------------------------------------
  // Per-channel signals, tap p of channel c at index c*M + p, one vector per stage
  // ------------------------------------------------------------------------------------------
  // Stat (from the tables only)
  logic [NumCh*M-1:0]      rx_free, rx_full;
  logic [NumCh*M*LblW-1:0] rx_lbl;
  logic [NumCh*LblW-1:0]   ch_lbl;
  // Candidates and Pri
  logic [NumCh*M-1:0]      tx_req;
  logic [NumCh*M*2-1:0]    tx_tag;
  logic [NumCh*M*BufW-1:0] tx_buf;
  logic [NumCh*M*M-1:0]    tx_ways;
  logic [NumCh*M*HdrW-1:0] tx_hdr;
  logic [NumCh*M*IdxW-1:0] tx_idx;
  // Lines
  logic [NumCh*M-1:0]      ch_grant;
  logic [NumCh*DrvW-1:0]   ch_drv;
  logic [NumCh*2-1:0]      ch_tag;
  logic [NumCh*BufW-1:0]   ch_buf;
  logic [NumCh*HdrW-1:0]   ch_hdr;
  logic [NumCh*IdxW-1:0]   ch_idx;
  logic [NumCh*M-1:0]      ch_ways;
  logic [NumCh-1:0]        ch_ack;
  // Receivers' look-up on the lines
  logic [NumCh*M-1:0]      rx_res, rx_blk, rx_hit;
  // Outcome per way, Spl, take and resv
  logic [NumCh*M-1:0]      ch_ok, ch_newly, tx_split, ch_take, ch_resv;
  logic [NumCh-1:0]        ch_split_cand;

  // The lines the sets do not read (Ways, Ack and ok reach them as take and resv; Stat labels of
  // unwired drivers and of rows a set does not have) are in obs_ch_o.
  logic unused_lines;
  assign unused_lines = ^{ch_ways, ch_ack, ch_ok, ch_lbl};

  for (genvar c = 0; c < NumCh; c++) begin : gen_ch
    logic [NumDims*CoordW-1:0] coord;
    for (genvar d = 0; d < NumDims; d++) begin : gen_coord
      localparam int unsigned Stride = (d == 0) ? 1 : (d == 1) ? S1 : (d == 2) ? S2 : S3;
      localparam int unsigned K      = (d == 0) ? Radix0 : (d == 1) ? K1 : (d == 2) ? K2 : K3;
      assign coord[d*CoordW +: CoordW] = CoordW'((c / Stride) % K);
    end

    wc_mw_channel #(
      .NumDims   (NumDims),
      .CoordW    (CoordW),
      .IdW       (IdW),
      .LenW      (LenW),
      .IdxW      (IdxW),
      .BufN      (BufN),
      .Algorithm (Algorithm),
      .Bug       (Bug)
    ) i_ch (
      .clk_i        (clk_i),
      .rst_ni       (rst_ni),
      .req_i        (tx_req[c*M +: M]),
      .cand_tag_i   (tx_tag[c*M*2 +: M*2]),
      .cand_buf_i   (tx_buf[c*M*BufW +: M*BufW]),
      .cand_ways_i  (tx_ways[c*M*M +: M*M]),
      .cand_hdr_i   (tx_hdr[c*M*HdrW +: M*HdrW]),
      .cand_idx_i   (tx_idx[c*M*IdxW +: M*IdxW]),
      .split_i      (tx_split[c*M +: M]),
      .grant_o      (ch_grant[c*M +: M]),
      .split_cand_o (ch_split_cand[c]),
      .take_o       (ch_take[c*M +: M]),
      .resv_o       (ch_resv[c*M +: M]),
      .free_i       (rx_free[c*M +: M]),
      .lbl_i        (rx_lbl[c*M*LblW +: M*LblW]),
      .full_i       (rx_full[c*M +: M]),
      .res_hit_i    (rx_res[c*M +: M]),
      .blk_i        (rx_blk[c*M +: M]),
      .hit_i        (rx_hit[c*M +: M]),
      .lbl_o        (ch_lbl[c*LblW +: LblW]),
      .drv_o        (ch_drv[c*DrvW +: DrvW]),
      .tag_o        (ch_tag[c*2 +: 2]),
      .buf_o        (ch_buf[c*BufW +: BufW]),
      .ways_o       (ch_ways[c*M +: M]),
      .hdr_o        (ch_hdr[c*HdrW +: HdrW]),
      .idx_o        (ch_idx[c*IdxW +: IdxW]),
      .ack_o        (ch_ack[c]),
      .ok_o         (ch_ok[c*M +: M]),
      .newly_o      (ch_newly[c*M +: M]),
      .obs_o        (obs_ch_o[c*ChObsW +: ChObsW])
    );

    // ---- The node interface: driver and way 2n.
    localparam int unsigned Node = 2 * NumDims;
    wc_mw_node_if #(
      .NumDims   (NumDims),
      .CoordW    (CoordW),
      .IdW       (IdW),
      .LenW      (LenW),
      .IdxW      (IdxW),
      .InjRows   (InjBuffers),
      .EjRows    (EjBuffers),
      .BufN      (BufN),
      .BufLen    (BufLen),
      .Algorithm (Algorithm),
      .HeaderBid (HeaderBid),
      .Bug       (Bug)
    ) i_ni (
      .clk_i            (clk_i),
      .rst_ni           (rst_ni),
      .coord_i          (coord),
      .line_drv_i       (ch_drv[c*DrvW +: DrvW]),
      .line_tag_i       (ch_tag[c*2 +: 2]),
      .line_buf_i       (ch_buf[c*BufW +: BufW]),
      .line_hdr_i       (ch_hdr[c*HdrW +: HdrW]),
      .line_idx_i       (ch_idx[c*IdxW +: IdxW]),
      .ej_newly_i       (ch_newly[c*M+Node]),
      .ej_take_i        (ch_take[c*M+Node]),
      .ej_resv_i        (ch_resv[c*M+Node]),
      .ej_free_o        (rx_free[c*M+Node]),
      .ej_lbl_o         (rx_lbl[(c*M+Node)*LblW +: LblW]),
      .ej_full_o        (rx_full[c*M+Node]),
      .ej_res_hit_o     (rx_res[c*M+Node]),
      .ej_blk_o         (rx_blk[c*M+Node]),
      .ej_hit_o         (rx_hit[c*M+Node]),
      .inj_free_i       (rx_free[c*M +: M]),
      .inj_rf_i         (ch_lbl[c*LblW+Node*BufN +: InjBuffers]),
      .inj_grant_i      (ch_grant[c*M+Node]),
      .inj_split_cand_i (ch_split_cand[c]),
      .inj_take_i       (ch_take[c*M +: M]),
      .inj_resv_i       (ch_resv[c*M +: M]),
      .inj_req_o        (tx_req[c*M+Node]),
      .inj_tag_o        (tx_tag[(c*M+Node)*2 +: 2]),
      .inj_buf_o        (tx_buf[(c*M+Node)*BufW +: BufW]),
      .inj_ways_o       (tx_ways[(c*M+Node)*M +: M]),
      .inj_hdr_o        (tx_hdr[(c*M+Node)*HdrW +: HdrW]),
      .inj_idx_o        (tx_idx[(c*M+Node)*IdxW +: IdxW]),
      .inj_split_o      (tx_split[c*M+Node]),
      .src_valid_i      (src_valid_i[c]),
      .src_hdr_i        (src_hdr_i[c*HdrW +: HdrW]),
      .src_report_i     (src_report_i[c]),
      .src_take_o       (src_take_o[c]),
      .dlv_valid_o      (dlv_valid_o[c]),
      .dlv_head_o       (dlv_head_o[c]),
      .dlv_tail_o       (dlv_tail_o[c]),
      .dlv_idx_o        (dlv_idx_o[c*IdxW +: IdxW]),
      .dlv_hdr_o        (dlv_hdr_o[c*HdrW +: HdrW]),
      .obs_inj_o        (obs_inj_o[c*InjBuffers*SetObsW +: InjBuffers*SetObsW]),
      .obs_ej_o         (obs_ej_o[c*EjBuffers*EjObsW +: EjBuffers*EjObsW]),
      .obs_ld_o         (obs_ld_o[c*LdObsW +: LdObsW])
    );

    // ---- The routers whose low channel is c, one per dimension d where c is not on the high
    // edge: DIM+ is way 2d on c and driver 2d on c + e_d; DIM- is way 2d+1 on c + e_d and driver
    // 2d+1 on c.
    for (genvar d = 0; d < NumDims; d++) begin : gen_d
      localparam int unsigned Stride = (d == 0) ? 1 : (d == 1) ? S1 : (d == 2) ? S2 : S3;
      localparam int unsigned K      = (d == 0) ? Radix0 : (d == 1) ? K1 : (d == 2) ? K2 : K3;
      localparam int unsigned X      = (c / Stride) % K;
      localparam int unsigned Lo     = c;
      localparam int unsigned Pp     = 2 * d;      // DIM+
      localparam int unsigned Pm     = 2 * d + 1;  // DIM-

      if (X + 1 < K) begin : gen_rt
        localparam int unsigned Hi = c + Stride;
        logic [NumDims*CoordW-1:0] hi_coord;  // channel c + e_d
        for (genvar j = 0; j < NumDims; j++) begin : gen_hi_coord
          assign hi_coord[j*CoordW +: CoordW] = (j == d) ? CoordW'(X + 1) :
                                                coord[j*CoordW +: CoordW];
        end
        logic [2*DrvW-1:0]      in_drv;
        logic [3:0]             in_tag;
        logic [2*BufW-1:0]      in_buf;
        logic [2*HdrW-1:0]      in_hdr;
        logic [2*IdxW-1:0]      in_idx;
        logic [1:0]             in_newly, in_take, in_resv, stat_free, stat_full, res_hit, blk, hit;
        logic [2*LblW-1:0]      stat_lbl;
        logic [2*M-1:0]         out_free, out_take, out_resv, cand_ways;
        logic [2*Buffers-1:0]   out_rf;
        logic [1:0]             out_grant, out_split_cand, req, split;
        logic [3:0]             cand_tag;
        logic [2*BufW-1:0]      cand_buf;
        logic [2*HdrW-1:0]      cand_hdr;
        logic [2*IdxW-1:0]      cand_idx;

        // Set 0 (DIM+) hears channel Lo and drives Hi; set 1 (DIM-) hears Hi and drives Lo.
        assign in_drv   = {ch_drv[Hi*DrvW +: DrvW], ch_drv[Lo*DrvW +: DrvW]};
        assign in_tag   = {ch_tag[Hi*2 +: 2], ch_tag[Lo*2 +: 2]};
        assign in_buf   = {ch_buf[Hi*BufW +: BufW], ch_buf[Lo*BufW +: BufW]};
        assign in_hdr   = {ch_hdr[Hi*HdrW +: HdrW], ch_hdr[Lo*HdrW +: HdrW]};
        assign in_idx   = {ch_idx[Hi*IdxW +: IdxW], ch_idx[Lo*IdxW +: IdxW]};
        assign in_newly = {ch_newly[Hi*M+Pm], ch_newly[Lo*M+Pp]};
        assign in_take  = {ch_take[Hi*M+Pm], ch_take[Lo*M+Pp]};
        assign in_resv  = {ch_resv[Hi*M+Pm], ch_resv[Lo*M+Pp]};
        assign rx_free[Lo*M+Pp] = stat_free[0];
        assign rx_free[Hi*M+Pm] = stat_free[1];
        assign rx_full[Lo*M+Pp] = stat_full[0];
        assign rx_full[Hi*M+Pm] = stat_full[1];
        assign rx_lbl[(Lo*M+Pp)*LblW +: LblW] = stat_lbl[0 +: LblW];
        assign rx_lbl[(Hi*M+Pm)*LblW +: LblW] = stat_lbl[LblW +: LblW];
        assign rx_res[Lo*M+Pp] = res_hit[0];
        assign rx_res[Hi*M+Pm] = res_hit[1];
        assign rx_blk[Lo*M+Pp] = blk[0];
        assign rx_blk[Hi*M+Pm] = blk[1];
        assign rx_hit[Lo*M+Pp] = hit[0];
        assign rx_hit[Hi*M+Pm] = hit[1];

        assign out_free       = {rx_free[Lo*M +: M], rx_free[Hi*M +: M]};
        assign out_rf         = {ch_lbl[Lo*LblW+Pm*BufN +: Buffers], ch_lbl[Hi*LblW+Pp*BufN +: Buffers]};
        assign out_grant      = {ch_grant[Lo*M+Pm], ch_grant[Hi*M+Pp]};
        assign out_split_cand = {ch_split_cand[Lo], ch_split_cand[Hi]};
        assign out_take       = {ch_take[Lo*M +: M], ch_take[Hi*M +: M]};
        assign out_resv       = {ch_resv[Lo*M +: M], ch_resv[Hi*M +: M]};
        assign tx_req[Hi*M+Pp] = req[0];
        assign tx_req[Lo*M+Pm] = req[1];
        assign tx_tag[(Hi*M+Pp)*2 +: 2] = cand_tag[0 +: 2];
        assign tx_tag[(Lo*M+Pm)*2 +: 2] = cand_tag[2 +: 2];
        assign tx_buf[(Hi*M+Pp)*BufW +: BufW] = cand_buf[0 +: BufW];
        assign tx_buf[(Lo*M+Pm)*BufW +: BufW] = cand_buf[BufW +: BufW];
        assign tx_ways[(Hi*M+Pp)*M +: M] = cand_ways[0 +: M];
        assign tx_ways[(Lo*M+Pm)*M +: M] = cand_ways[M +: M];
        assign tx_hdr[(Hi*M+Pp)*HdrW +: HdrW] = cand_hdr[0 +: HdrW];
        assign tx_hdr[(Lo*M+Pm)*HdrW +: HdrW] = cand_hdr[HdrW +: HdrW];
        assign tx_idx[(Hi*M+Pp)*IdxW +: IdxW] = cand_idx[0 +: IdxW];
        assign tx_idx[(Lo*M+Pm)*IdxW +: IdxW] = cand_idx[IdxW +: IdxW];
        assign tx_split[Hi*M+Pp] = split[0];
        assign tx_split[Lo*M+Pm] = split[1];

        wc_mw_router #(
          .NumDims   (NumDims),
          .CoordW    (CoordW),
          .IdW       (IdW),
          .LenW      (LenW),
          .IdxW      (IdxW),
          .Rows      (Buffers),
          .BufN      (BufN),
          .BufLen    (BufLen),
          .Algorithm (Algorithm),
          .HeaderBid (HeaderBid),
          .Bug       (Bug)
        ) i_rt (
          .clk_i            (clk_i),
          .rst_ni           (rst_ni),
          .dim_i            (DrvW'(d)),
          .low_coord_i      (coord),
          .high_coord_i     (hi_coord),
          .in_drv_i         (in_drv),
          .in_tag_i         (in_tag),
          .in_buf_i         (in_buf),
          .in_hdr_i         (in_hdr),
          .in_idx_i         (in_idx),
          .in_newly_i       (in_newly),
          .in_take_i        (in_take),
          .in_resv_i        (in_resv),
          .stat_free_o      (stat_free),
          .stat_lbl_o       (stat_lbl),
          .stat_full_o      (stat_full),
          .res_hit_o        (res_hit),
          .blk_o            (blk),
          .hit_o            (hit),
          .out_free_i       (out_free),
          .out_rf_i         (out_rf),
          .out_grant_i      (out_grant),
          .out_split_cand_i (out_split_cand),
          .out_take_i       (out_take),
          .out_resv_i       (out_resv),
          .req_o            (req),
          .cand_tag_o       (cand_tag),
          .cand_buf_o       (cand_buf),
          .cand_ways_o      (cand_ways),
          .cand_hdr_o       (cand_hdr),
          .cand_idx_o       (cand_idx),
          .split_o          (split),
          .obs_o            (obs_rt_o[(c*NumDims+d)*RtObsW +: RtObsW])
        );
      end else begin : gen_edge
        assign obs_rt_o[(c*NumDims+d)*RtObsW +: RtObsW] = '0;
      end

      // Taps at the mesh border: way 2d (DIM+) and driver 2d+1 (DIM-) need a router above c,
      // way 2d+1 and driver 2d a router below it.
      for (genvar dir = 0; dir < 2; dir++) begin : gen_border
        localparam int unsigned P        = 2 * d + dir;
        localparam bit          RxWired = (dir == 0) ? (X + 1 < K) : (X > 0);
        localparam bit          TxWired = (dir == 0) ? (X > 0) : (X + 1 < K);
        if (!RxWired) begin : gen_no_rx
          assign rx_free[Lo*M+P] = 1'b0;
          assign rx_full[Lo*M+P] = 1'b0;
          assign rx_lbl[(Lo*M+P)*LblW +: LblW] = '0;
          assign rx_res[Lo*M+P] = 1'b0;
          assign rx_blk[Lo*M+P] = 1'b0;
          assign rx_hit[Lo*M+P] = 1'b0;
        end
        if (!TxWired) begin : gen_no_tx
          assign tx_req[Lo*M+P] = 1'b0;
          assign tx_tag[(Lo*M+P)*2 +: 2] = '0;
          assign tx_buf[(Lo*M+P)*BufW +: BufW] = '0;
          assign tx_ways[(Lo*M+P)*M +: M] = '0;
          assign tx_hdr[(Lo*M+P)*HdrW +: HdrW] = '0;
          assign tx_idx[(Lo*M+P)*IdxW +: IdxW] = '0;
          assign tx_split[Lo*M+P] = 1'b0;
        end
      end
    end
  end

endmodule
