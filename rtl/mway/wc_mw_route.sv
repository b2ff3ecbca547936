// Routing logic of a buffer set (docs/mway.md section 5.4): the header a receiver of way `way_i`
// stores (a tree's sub-Region of that way) and the Ways that header carries on the set's output
// channel (dimension order for unicasts and forwarded copies, the MST ways for a tree).
module wc_mw_route #(
  /// Dimensions n (1..4).
  parameter int unsigned NumDims = 2,
  /// Bits of one coordinate.
  parameter int unsigned CoordW  = 2,
  /// Bits of the packet id in the header.
  parameter int unsigned IdW     = 32,
  /// Bits of Len.
  parameter int unsigned LenW    = 3,
  /// 1: a receiver, the stored header takes the sub-Region of way_i on in_coord_i; 0: the header
  /// is stored as given (the node interface's loader).
  parameter bit          Receive = 1'b1,
  /// 1: the set injects the message (the source already has it: no node way for a tree).
  parameter bit          Source  = 1'b0,
  /// Ways m = 2n + 1. Derived; do not override.
  parameter int unsigned M       = 2 * NumDims + 1,
  /// Width of a way number. Derived; do not override.
  parameter int unsigned DrvW    = wc_mw_pkg::idx_width(M),
  /// Width of the header word. Derived; do not override.
  parameter int unsigned HdrW    = wc_mw_pkg::hdr_width(NumDims, CoordW, IdW, LenW)
) (
  input  logic [HdrW-1:0]           hdr_i,        // the header on the input channel
  input  logic [NumDims*CoordW-1:0] in_coord_i,   // coordinates of the input channel
  input  logic [DrvW-1:0]           way_i,        // the set's way number there
  input  logic [NumDims*CoordW-1:0] out_coord_i,  // coordinates of the output channel
  output logic [HdrW-1:0]           hdr_o,        // the header the set stores
  output logic [M-1:0]              ways_o        // its Ways on the output channel
);

  localparam int unsigned CW      = NumDims * CoordW;
  localparam int unsigned KindOff = IdW + LenW;
  localparam int unsigned DstOff  = KindOff + 2;
  localparam int unsigned LoOff   = DstOff + CW;
  localparam int unsigned HiOff   = LoOff + CW;
  localparam int unsigned NodeWay = 2 * NumDims;

  logic [1:0]    kind;
  logic [CW-1:0] dst, lo, hi, lo_s, hi_s;
  logic          found;

  assign kind = hdr_i[KindOff +: 2];
  assign dst  = hdr_i[DstOff +: CW];
  assign lo   = hdr_i[LoOff +: CW];
  assign hi   = hdr_i[HiOff +: CW];

  // Sub-Region of way p = 2d+dir on channel y: dimensions below d pinned to y, dimension d the
  // part beyond y on the way's side; the node way's is {y}.
  always_comb begin
    lo_s = lo;
    hi_s = hi;
    if (Receive && (kind == wc_mw_pkg::KindTree)) begin
      if (way_i == DrvW'(NodeWay)) begin
        lo_s = in_coord_i;
        hi_s = in_coord_i;
      end else begin
        for (int d = 0; d < NumDims; d++) begin
          if (DrvW'(d) < (way_i >> 1)) begin
            lo_s[d*CoordW +: CoordW] = in_coord_i[d*CoordW +: CoordW];
            hi_s[d*CoordW +: CoordW] = in_coord_i[d*CoordW +: CoordW];
          end else if (DrvW'(d) == (way_i >> 1)) begin
            if (way_i[0]) begin
              hi_s[d*CoordW +: CoordW] = in_coord_i[d*CoordW +: CoordW] - CoordW'(1);
            end else begin
              lo_s[d*CoordW +: CoordW] = in_coord_i[d*CoordW +: CoordW] + CoordW'(1);
            end
          end
        end
      end
    end
    hdr_o = hdr_i;
    hdr_o[LoOff +: CW] = lo_s;
    hdr_o[HiOff +: CW] = hi_s;
  end

  // Ways on the output channel y: a tree goes d+ while hi_d > y_d and d- while lo_d < y_d, and to
  // the node unless it is the source; a unicast takes the lowest dimension in which y differs
  // from dst, or the node way at dst.
  always_comb begin
    ways_o = '0;
    found  = 1'b0;
    if (kind == wc_mw_pkg::KindTree) begin
      for (int d = 0; d < NumDims; d++) begin
        if (hi_s[d*CoordW +: CoordW] > out_coord_i[d*CoordW +: CoordW]) ways_o[2*d] = 1'b1;
        if (lo_s[d*CoordW +: CoordW] < out_coord_i[d*CoordW +: CoordW]) ways_o[2*d+1] = 1'b1;
      end
      ways_o[NodeWay] = !Source;
    end else begin
      for (int d = 0; d < NumDims; d++) begin
        if (!found && (dst[d*CoordW +: CoordW] != out_coord_i[d*CoordW +: CoordW])) begin
          found = 1'b1;
          if (dst[d*CoordW +: CoordW] > out_coord_i[d*CoordW +: CoordW]) begin
            ways_o[2*d] = 1'b1;
          end else begin
            ways_o[2*d+1] = 1'b1;
          end
        end
      end
      if (!found) ways_o[NodeWay] = 1'b1;
    end
  end

endmodule
