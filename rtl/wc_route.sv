// Route of docs/router.md 5.2 for a head flit on input port InPort: the output port and the
// dateline VC class, from the router's own coordinates and the flit's dst. Dimension order; on an
// interlaced bypass torus (IbtLens > 0) under bypass routing, a head injected here or arriving on a
// bypass port first takes the bypass hops that shorten its path (docs/router.md section 10); one
// that arrived on a bypass port goes on in its direction, and not across a second dateline link
// once its ring's dateline is behind it (it arrived in class l/h, or by that link).
//
// The dateline class of a torus hop (two classes) follows one of two rules (router.vc_class,
// docs/router.md 5.2 and section 11):
// - hop (VcClassEntry = 0): decided afresh at every router from the rest of the dimension's path:
//   class p (0) while the path still takes the wraparound link (plus and x > t, minus and x < t),
//   else l/h (1).
// - entry (VcClassEntry != 0): decided where the head enters the dimension, kept through it. A
//   head that arrived on a network port of the dimension it leaves by (InPort / 2 = d) keeps the
//   class of the input VC it holds (in_lh_i: its VC on the incoming link is in the second class);
//   one injected here (a local port) or arriving from another dimension takes class 1 if x_d >
//   t_d, else 0. So going plus class 1 holds the packets that take the wraparound link, going
//   minus class 0 does; the enum's names (p, l/h) are those of the hop rule, its values the
//   class numbers. The input VC is that of the flit's buffer, so the decision depends only on the
//   flit and the input port, and computing it at arrival (edge a+1, stored in route_t with the
//   flit) gives the class the SystemC router computes when the head reaches the buffer front.
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
  /// The input port the heads arrive on (decides the ejection port of an all-port router, and
  /// whether a head may plan bypass hops).
  parameter int unsigned InPort     = 0,
  /// Bypass lengths k of an interlaced bypass torus iBT(n^d; <b1..bk>), 0..4; 0: no bypass ports.
  /// Every dimension is then a torus of radix n = Radix0.
  parameter int unsigned IbtLens    = 0,
  /// Bypass length b1 (ignored unless IbtLens >= 1).
  parameter int unsigned IbtLen0    = 4,
  /// Bypass length b2 (ignored unless IbtLens >= 2).
  parameter int unsigned IbtLen1    = 4,
  /// Bypass length b3 (ignored unless IbtLens >= 3).
  parameter int unsigned IbtLen2    = 4,
  /// Bypass length b4 (ignored unless IbtLens = 4).
  parameter int unsigned IbtLen3    = 4,
  /// Unicast routing with bypass ports: wc_pkg::IbtRoutingDor or wc_pkg::IbtRoutingBypass.
  parameter int unsigned IbtRouting = wc_pkg::IbtRoutingDor,
  /// Test hook only: nonzero makes the bypass plan prefer minus on a tie of j = a and j = -a
  /// (the contract prefers plus). It breaks the contract on purpose so that the lockstep test of
  /// the iBT router can prove it notices.
  parameter int unsigned BugIbtTie  = 0,
  /// Dateline class rule (router.vc_class): 0 = hop, nonzero = entry (see above). Only with two
  /// classes and no bypass ports (wc_router checks it).
  parameter int unsigned VcClassEntry = 0
) (
  input  logic [wc_pkg::MaxDims*wc_pkg::CoordW-1:0] my_coord_i,
  input  logic [wc_pkg::FlitDstW-1:0]               dst_i,
  input  logic                                      tie_i,
  /// The head arrived in dateline class l/h (its VC in the second class of a two-class router):
  /// the class an iBT head keeps on its ring, and under the entry rule in its dimension.
  input  logic                                      in_lh_i,
  output wc_pkg::route_t                            route_o
);

  localparam int unsigned PortW     = wc_pkg::PortIdxW;

  localparam int unsigned TorusPorts = 2 * NumDims;
  localparam int unsigned NetPorts  = TorusPorts + ((IbtLens != 0) ? 2 : 0);
  localparam int unsigned BypassPlus = TorusPorts;  // bypass+; bypass- is BypassPlus + 1
  // Entry rule: the dimension of a torus input port (a head from it keeps its class there).
  localparam bit          FromTorus  = InPort < TorusPorts;
  localparam int unsigned InDim      = InPort / 2;
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

  // ------------------------------------------------------------------------------------------
  // Bypass hops (docs/router.md section 10, ibt.routing = bypass)
  // ------------------------------------------------------------------------------------------
  // A head injected here or arriving on a bypass port takes j hops on this router's bypass ring,
  // the signed j (|j| b < n) that minimises |j| + (ring distance left in the bypass dimension);
  // the first strict minimum in the order j = 1, -1, 2, -2, ... wins (fewest hops, then plus).
  // A head from a torus port never plans, so only those input ports have this logic.
  localparam bit PlanBypass = (IbtLens != 0) && (IbtRouting == wc_pkg::IbtRoutingBypass) &&
                              (InPort >= TorusPorts);
  // A head on bypass- travels plus (it left its last router by bypass+), one on bypass+ minus.
  localparam bit AlongPlus  = (IbtLens != 0) && (InPort == TorusPorts + 1);
  localparam bit AlongMinus = (IbtLens != 0) && (InPort == TorusPorts);

  logic bp_take;   // the head leaves on a bypass port
  logic bp_plus;   // ... bypass+ (else bypass-)
  logic bp_wraps;  // its planned bypass hops still cross the ring's dateline link (class p)

  if (PlanBypass) begin : gen_plan
    // Ring arithmetic in RW bits: every value is below 2n (n = Radix0, all radices equal).
    localparam int unsigned RW         = $clog2(Radix0) + 1;
    localparam int unsigned SW         = $clog2(Radix0) + 2;  // the sum of d <= 4 coordinates
    localparam logic [RW-1:0] RingN    = RW'(Radix0);
    localparam int unsigned NumSpecies = NumDims * IbtLens;
    localparam logic [4*RW-1:0] LenVec = {RW'(IbtLen3), RW'(IbtLen2), RW'(IbtLen1),
                                          RW'(IbtLen0)};
    // Most bypass hops a ring may plan (a b < n), for the shortest length.
    localparam int unsigned Len1    = (IbtLens >= 2) ? IbtLen1 : Radix0;
    localparam int unsigned Len2    = (IbtLens >= 3) ? IbtLen2 : Radix0;
    localparam int unsigned Len3    = (IbtLens >= 4) ? IbtLen3 : Radix0;
    localparam int unsigned Min01   = (IbtLen0 < Len1) ? IbtLen0 : Len1;
    localparam int unsigned Min23   = (Len2 < Len3) ? Len2 : Len3;
    localparam int unsigned MinLen  = (Min01 < Min23) ? Min01 : Min23;
    localparam int unsigned MaxHops = (Radix0 - 1) / ((MinLen > 0) ? MinLen : 1);

    // The shorter way round the ring for a forward distance f (0 <= f < n).
    function automatic [RW-1:0] ring_dist(input logic [RW-1:0] f);
      ring_dist = (f < RingN - f) ? f : RingN - f;
    endfunction

    logic [SW-1:0] sum;
    logic [RW-1:0] species, lensel, bdim, blen, bx, bt, fwd0, w, v, cost, best, hops;
    logic          at_dst, plus_best, wraps_best, beyond, cand_plus, cand_wraps, crossed;

    always_comb begin
      // Species s = (x1 + ... + xd) mod (d k); bypass dimension s mod d, length b[s div d]. (The
      // router's own coordinates are constant while it runs: with coordinates fixed at
      // synthesis this part folds to constants.)
      sum = '0;
      for (int d = 0; d < NumDims; d++) begin
        sum = sum + SW'(my_coord_i[d*wc_pkg::CoordW +: wc_pkg::CoordW]);
      end
      species = RW'(sum % SW'(NumSpecies));
      bdim    = species % RW'(NumDims);
      lensel  = species / RW'(NumDims);
      blen    = '0;
      for (int j = 0; j < wc_pkg::MaxIbtLens; j++) begin
        if (lensel == RW'(j)) begin
          blen = LenVec[j*RW +: RW];
        end
      end
      bx     = '0;
      bt     = '0;
      at_dst = 1'b1;
      for (int d = 0; d < NumDims; d++) begin
        if (RW'(d) == bdim) begin
          bx = RW'(my_coord_i[d*wc_pkg::CoordW +: wc_pkg::CoordW]);
          bt = RW'(tgt[d*CW +: CW]);
        end
        if (CW'(my_coord_i[d*wc_pkg::CoordW +: wc_pkg::CoordW]) != tgt[d*CW +: CW]) begin
          at_dst = 1'b0;
        end
      end
      // Forward distance to the target coordinate; a hops plus leave fwd0 - a b (mod n), a hops
      // minus fwd0 + a b (mod n). A candidate wraps (crosses the ring's coordinate wrap, its
      // dateline link) when x + a b >= n going plus, x < a b going minus.
      fwd0       = (bt >= bx) ? bt - bx : bt + RingN - bx;
      // Its ring's dateline is behind a head that arrived in class l/h or by the dateline link
      // (from x - b < 0 going plus, from x + b >= n going minus).
      crossed    = (AlongPlus || AlongMinus) &&
                   (in_lh_i || (AlongPlus ? (bx < blen) : (bx + blen >= RingN)));
      cand_wraps = 1'b0;
      best       = ring_dist(fwd0);
      hops       = '0;
      plus_best  = 1'b0;
      wraps_best = 1'b0;
      w          = '0;
      v          = '0;
      cost       = '0;
      beyond     = 1'b0;
      cand_plus  = 1'b0;
      for (int a = 1; a <= MaxHops; a++) begin
        if (!beyond) begin
          w = w + blen;  // a b (below n + b < 2n: no overflow)
        end
        beyond = w >= RingN;
        if (!beyond) begin
          // j = a (plus) first, then j = -a (minus); the test hook swaps the two.
          for (int m = 0; m < 2; m++) begin
            cand_plus = (m == 0) == (BugIbtTie == 0);
            if (cand_plus) begin
              v = (fwd0 >= w) ? fwd0 - w : fwd0 + RingN - w;
            end else begin
              v = (fwd0 + w >= RingN) ? fwd0 + w - RingN : fwd0 + w;
            end
            cost       = RW'(a) + ring_dist(v);
            cand_wraps = cand_plus ? (bx + w >= RingN) : (bx < w);
            if ((cost < best) && !(AlongPlus && !cand_plus) && !(AlongMinus && cand_plus) &&
                !(crossed && cand_wraps)) begin
              best       = cost;
              hops       = RW'(a);
              plus_best  = cand_plus;
              wraps_best = cand_wraps;
            end
          end
        end
      end
    end

    assign bp_take  = !at_dst && (hops != '0);
    assign bp_plus  = plus_best;
    assign bp_wraps = wraps_best;

    // The plan shortens the path in the bypass dimension, with fewer than n / b hops.
    `WC_ASSERT_COMB(PlanShortens_A, !bp_take || (best < ring_dist(fwd0)))
    `WC_ASSERT_COMB(PlanWithinRing_A, (32'(hops) * 32'(blen)) < Radix0)
  end else begin : gen_no_plan
    assign bp_take  = 1'b0;
    assign bp_plus  = 1'b0;
    assign bp_wraps = 1'b0;
    logic unused_in_lh;
    assign unused_in_lh = in_lh_i;
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
        if ((VcClassEntry != 0) && Torus[d]) begin
          // Entry rule: continuing in its dimension the class of its input VC, else x > t.
          if (FromTorus && (InDim == 32'(d))) begin
            route_o.vc_class = in_lh_i ? wc_pkg::VcClassLh : wc_pkg::VcClassP;
          end else begin
            route_o.vc_class = (x > t) ? wc_pkg::VcClassLh : wc_pkg::VcClassP;
          end
        end
        route_o.class_en = UseClasses && Torus[d];
      end
    end
    if (bp_take) begin
      route_o.port     = PortW'(bp_plus ? BypassPlus : BypassPlus + 1);
      route_o.vc_class = bp_wraps ? wc_pkg::VcClassP : wc_pkg::VcClassLh;
      route_o.class_en = UseClasses;
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
