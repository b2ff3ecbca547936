// Shared constants of the router RTL: flit and credit bit layout (docs/router.md section 3),
// port numbering and the limits the top wrapper is built for.
package wc_pkg;

  // Port numbering is one scheme everywhere: port = 2*dim + dir, dir 0 = plus, 1 = minus;
  // the P local ports follow at 2n .. 2n+P-1 (the same comment as sw/topology/topology.h).
  localparam int unsigned MaxDims  = 4;
  localparam int unsigned MaxPorts = 16;  // 2*MaxDims network ports + 2*MaxDims local ports
  localparam int unsigned MaxVcs   = 16;  // the vc field is 4 bits
  localparam int unsigned CoordW   = 8;   // radix <= 256: one coordinate in 8 bits

  // Flit word, identical to Flit::pack()/unpack() in systemc/torus/flit.h.
  localparam int unsigned FlitW          = 64;
  localparam int unsigned FlitValidBit   = 0;   // the wire carries a flit this cycle
  localparam int unsigned FlitHeadBit    = 1;   // first flit of a packet
  localparam int unsigned FlitTailBit    = 2;   // last flit of a packet
  localparam int unsigned FlitTieBit     = 3;   // distance-k/2 dimension: take minus
  localparam int unsigned FlitVcLsb      = 4;   // bits 7:4, VC on this link
  localparam int unsigned FlitVcW        = 4;
  localparam int unsigned FlitDstLsb     = 8;   // bits 23:8, destination node id
  localparam int unsigned FlitDstW       = 16;
  localparam int unsigned FlitPayloadLsb = 24;  // bits 55:24, opaque to the router
  localparam int unsigned FlitPayloadW   = 32;
  // Bits 63:56 are unused: ignored on inputs, zero on outputs.

  // Credit word, identical to Credit::pack()/unpack().
  localparam int unsigned CreditW        = 5;
  localparam int unsigned CreditValidBit = 0;
  localparam int unsigned CreditVcLsb    = 1;   // bits 4:1
  localparam int unsigned CreditVcW      = 4;

  // Largest arbiter: all input VCs of the largest router (MaxPorts * MaxVcs).
  localparam int unsigned MaxArbN = MaxPorts * MaxVcs;

  // Bit i set iff bit b of the number i is set: OR-ing a one-hot vector under this mask gives
  // bit b of its index (a one-hot-to-binary encoder without a loop over the requesters).
  function automatic [MaxArbN-1:0] index_bit_mask(input integer b);
    integer i;
    for (i = 0; i < MaxArbN; i = i + 1) begin
      index_bit_mask[i] = ((i >> b) & 1) != 0;
    end
  endfunction

  // Index width for n things; at least 1 so that a 1-entry vector still has a valid type.
  function automatic integer idx_width(input integer n);
    idx_width = (n > 1) ? $clog2(n) : 1;
  endfunction

endpackage
