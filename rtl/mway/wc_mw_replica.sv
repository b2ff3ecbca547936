// Replica engine of a driving buffer set (MST-replica, docs/mway.md section 7). Choice: the
// highest free buffer that the set's allocation unit does not take in the same cycle. Build: the
// replica of the original, as the original will be after this edge's transfers — the header
// with the rest of the ways and the Region they cover (a rectangle, since the rest is a suffix
// of the way order), then a copy of every flit the original holds (a one-cycle block copy from
// flip-flop storage).
module wc_mw_replica #(
  /// Dimensions n.
  parameter int unsigned NumDims = 2,
  /// Bits of one coordinate.
  parameter int unsigned CoordW  = 2,
  /// Bits of the packet id.
  parameter int unsigned IdW     = 32,
  /// Bits of Len.
  parameter int unsigned LenW    = 3,
  /// Buffers of the set.
  parameter int unsigned Rows    = 4,
  /// Flits per buffer, L.
  parameter int unsigned BufLen  = 5,
  /// Bits of one buffered flit (tag and index).
  parameter int unsigned SlotW   = 4,
  /// Ways m. Derived; do not override.
  parameter int unsigned M       = 2 * NumDims + 1,
  /// Width of the header word. Derived; do not override.
  parameter int unsigned HdrW    = wc_mw_pkg::hdr_width(NumDims, CoordW, IdW, LenW),
  /// Width of a row index. Derived; do not override.
  parameter int unsigned RowW    = wc_mw_pkg::idx_width(Rows),
  /// Width of a ring pointer. Derived; do not override.
  parameter int unsigned PtrW    = wc_mw_pkg::idx_width(BufLen),
  /// Width of a flit count. Derived; do not override.
  parameter int unsigned CntW    = $clog2(BufLen + 1)
) (
  // Choice of the replica's buffer.
  input  logic [Rows-1:0]           a_i,          // allocated buffers (state after the last edge)
  input  logic                      pick_en_i,    // the allocation unit takes pick_i this cycle
  input  logic [RowW-1:0]           pick_i,
  output logic                      avail_o,      // a buffer for a replica exists
  output logic [RowW-1:0]           row_o,
  // The original after this edge's transfers, and the ways it passes to the replica.
  input  logic [HdrW-1:0]           orig_hdr_i,
  input  logic [M-1:0]              rest_i,
  input  logic [BufLen*SlotW-1:0]   orig_ring_i,
  input  logic [PtrW-1:0]           orig_fptr_i,
  input  logic [CntW-1:0]           orig_cnt_i,
  input  logic [NumDims*CoordW-1:0] out_coord_i,  // coordinates of the set's output channel
  // The replica's header, flits and pointers (Fptr = 0).
  output logic [HdrW-1:0]           rep_hdr_o,
  output logic [BufLen*SlotW-1:0]   rep_ring_o,
  output logic [CntW-1:0]           rep_cnt_o,
  output logic [PtrW-1:0]           rep_rptr_o
);

  localparam int unsigned CW      = NumDims * CoordW;
  localparam int unsigned LoOff   = IdW + LenW + 2 + CW;
  localparam int unsigned HiOff   = LoOff + CW;
  localparam int unsigned DrvW    = wc_mw_pkg::idx_width(M);
  localparam int unsigned NodeWay = 2 * NumDims;

  always_comb begin
    avail_o = 1'b0;
    row_o   = '0;
    for (int i = 0; i < Rows; i++) begin
      if (!a_i[i] && !(pick_en_i && (pick_i == RowW'(i)))) begin
        avail_o = 1'b1;
        row_o   = RowW'(i);
      end
    end
  end

  // Region covered by the ways from `first` on: dimensions below d pinned to y; from d- the
  // range [lo_d, y_d], from d+ all of R_d; from the node way {y}.
  logic [DrvW-1:0] first;
  logic [CW-1:0]   lo, hi;

  always_comb begin
    first = DrvW'(NodeWay);
    for (int p = M - 1; p >= 0; p--) begin
      if (rest_i[p]) first = DrvW'(p);
    end
    lo = orig_hdr_i[LoOff +: CW];
    hi = orig_hdr_i[HiOff +: CW];
    if (first == DrvW'(NodeWay)) begin
      lo = out_coord_i;
      hi = out_coord_i;
    end else begin
      for (int d = 0; d < NumDims; d++) begin
        if (DrvW'(d) < (first >> 1)) begin
          lo[d*CoordW +: CoordW] = out_coord_i[d*CoordW +: CoordW];
          hi[d*CoordW +: CoordW] = out_coord_i[d*CoordW +: CoordW];
        end else if ((DrvW'(d) == (first >> 1)) && first[0]) begin
          hi[d*CoordW +: CoordW] = out_coord_i[d*CoordW +: CoordW];
        end
      end
    end
    rep_hdr_o = orig_hdr_i;
    rep_hdr_o[LoOff +: CW] = lo;
    rep_hdr_o[HiOff +: CW] = hi;
  end

  // Flit k of the replica is the header (k = 0) or the original's flit k-1 from its front.
  always_comb begin
    rep_ring_o = '0;
    rep_ring_o[0 +: SlotW] = SlotW'({wc_mw_pkg::TagH, {(SlotW - 2){1'b0}}});
    for (int k = 1; k < BufLen; k++) begin
      // (Fptr + k - 1) mod L without a divider: Fptr < L and k < L.
      logic [31:0] j;
      j = 32'(orig_fptr_i) + 32'(k) - 1;
      if (j >= BufLen) j = j - BufLen;
      rep_ring_o[k*SlotW +: SlotW] = orig_ring_i[j*SlotW +: SlotW];
    end
    rep_cnt_o  = orig_cnt_i + CntW'(1);
    rep_rptr_o = (32'(orig_cnt_i) + 1 >= BufLen) ? '0 : PtrW'(orig_cnt_i) + PtrW'(1);
  end

endmodule
