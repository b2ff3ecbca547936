// Dimension-order route of docs/router.md 5.2 for a head flit on input port InPort: the output
// port and the dateline VC class, from the router's own coordinates and the flit's dst.
`include "wc_assert.svh"

module wc_route #(
  /// Dimensions n of the network (1..4).
  parameter int unsigned NumDims    = 2,
  /// Radix k_0 of dimension 0.
  parameter int unsigned Radix0     = 8,
  /// Radix k_1 of dimension 1 (ignored if absent).
  parameter int unsigned Radix1     = 8,
  /// Radix k_2 of dimension 2 (ignored if absent).
  parameter int unsigned Radix2     = 2,
  /// Radix k_3 of dimension 3 (ignored if absent).
  parameter int unsigned Radix3     = 2,
  /// Mask of torus dimensions: bit d set = dimension d has wraparound links.
  parameter int unsigned Torus      = 'hf,
  /// Local ports P: 2*NumDims (all-port) or 1 (one-port).
  parameter int unsigned NumLocal   = 2 * NumDims,
  /// 1: two dateline classes (C = 2), so a route through a torus dimension is restricted to the
  /// VCs of one class.
  parameter bit          UseClasses = 1'b1,
  /// The input port the heads arrive on (decides the ejection port of an all-port router).
  parameter int unsigned InPort     = 0
) (
  input  logic [wc_pkg::MaxDims*wc_pkg::CoordW-1:0] my_coord_i,
  input  logic [wc_pkg::FlitDstW-1:0]               dst_i,
  input  logic                                      tie_i,
  output wc_pkg::route_t                            route_o
);

  localparam int unsigned PortW     = wc_pkg::PortIdxW;

  localparam int unsigned NetPorts  = 2 * NumDims;
  // All-port: eject through the local port that matches the last hop (network input p) or
  // through the injection port itself; one-port: the single local port.
  localparam int unsigned EjectPort = (NumLocal == 1) ? NetPorts :
                                      (InPort < NetPorts) ? NetPorts + InPort : InPort;
  // Coordinates are compared 10 bits wide so that t + k fits for k = 256.
  localparam int unsigned CW        = 10;
  localparam logic [4*CW-1:0] RadixVec = {CW'(Radix3), CW'(Radix2), CW'(Radix1), CW'(Radix0)};

  // Destination coordinate d = (dst / stride_d) mod k_d, the mixed-radix digit with dimension 0
  // fastest. Power-of-two radices are a bit slice, so synthesis needs no divider for them.
  logic [4*CW-1:0] tgt;
  logic [31:0]     dst_ext;
  assign dst_ext = {16'b0, dst_i};

  for (genvar d = 0; d < 4; d++) begin : gen_digit
    localparam int unsigned Radix  = (d == 0) ? Radix0 : (d == 1) ? Radix1 :
                                     (d == 2) ? Radix2 : Radix3;
    localparam int unsigned Stride = (d == 0) ? 1 : (d == 1) ? Radix0 :
                                     (d == 2) ? Radix0 * Radix1 : Radix0 * Radix1 * Radix2;
    localparam bit Pow2 = ((Radix & (Radix - 1)) == 0) && ((Stride & (Stride - 1)) == 0);
    if (d >= NumDims) begin : gen_none
      assign tgt[d*CW +: CW] = '0;
    end else if (Pow2) begin : gen_slice
      assign tgt[d*CW +: CW] = CW'(dst_ext[$clog2(Stride) +: $clog2(Radix)]);
    end else begin : gen_divide
      assign tgt[d*CW +: CW] = CW'((dst_ext / Stride) % Radix);
    end
  end

  logic          found, plus;
  logic [CW-1:0] x, t, k, fwd, back;

  always_comb begin
    route_o.port     = PortW'(EjectPort);
    route_o.vc_class = wc_pkg::VcClassLh;
    route_o.class_en = 1'b0;
    found         = 1'b0;
    plus          = 1'b0;
    x             = '0;
    t             = '0;
    k             = '0;
    fwd           = '0;
    back          = '0;
    // The lowest dimension whose coordinate differs decides.
    for (int d = 0; d < NumDims; d++) begin
      if (!found && (CW'(my_coord_i[d*wc_pkg::CoordW +: wc_pkg::CoordW]) != tgt[d*CW +: CW])) begin
        found = 1'b1;
        x     = CW'(my_coord_i[d*wc_pkg::CoordW +: wc_pkg::CoordW]);
        t     = tgt[d*CW +: CW];
        k     = RadixVec[d*CW +: CW];
        if (Torus[d]) begin
          // fwd hops going plus, back hops going minus; on a tie plus unless the tie bit is set.
          fwd  = (t >= x) ? t - x : t + k - x;
          back = k - fwd;
          plus = (fwd < back) || ((fwd == back) && !tie_i);
        end else begin
          plus = t > x;
        end
        route_o.port     = PortW'(2 * d + (plus ? 0 : 1));
        // Class p while the rest of this dimension's path still takes the wraparound link.
        route_o.vc_class = (Torus[d] && (plus ? (x > t) : (x < t))) ? wc_pkg::VcClassP
                                                                     : wc_pkg::VcClassLh;
        route_o.class_en = UseClasses && Torus[d];
      end
    end
  end

  // Coordinates of absent dimensions and high dst bits beyond the network size are not needed.
  logic unused_bits;
  assign unused_bits = ^{my_coord_i, dst_ext};

  // ------------------------------------------------------------------------------------------
  // Rules (for every input: a dst beyond the network still names a port of this router)
  // ------------------------------------------------------------------------------------------
  `WC_ASSERT_COMB(PortInRange_A, 32'(route_o.port) < NetPorts + NumLocal)
  // The class restricts the VC only for a router with two classes, on a network port.
  `WC_ASSERT_COMB(ClassOnlyNetPort_A,
                  !route_o.class_en || (UseClasses && (32'(route_o.port) < NetPorts)))

endmodule
