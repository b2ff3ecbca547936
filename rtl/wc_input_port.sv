// Input unit of one router port: routes every arriving flit (docs/router.md 5.2), keeps the
// history of recent arrivals that tells which buffered flits are still too young to compete
// (5.1), and holds the port's input VCs (wc_input_vc).
//
// With D = Delay (R, plus Ld on a network port), a flit that arrived in cycle a competes from
// cycle a + D on in the lumped pipeline. In the staged one (PipelineStaged, docs/router.md
// section 11) a head is VC-ready from cycle a + D - 1 (its route and VC-allocation stages come
// before its switch allocation) and a body or tail flit switch-ready from a + D - 2 (it skips
// those two stages); D >= 3.
//
// Routing at arrival instead of at the buffer front gives the same decision (it depends only on
// the flit and the input port) with one route unit per port instead of one per VC; the route is
// stored with the flit.
`include "wc_assert.svh"

module wc_input_port #(
  /// Dimensions n of the network (1..4).
  parameter int unsigned NumDims     = 2,
  /// Radix k_0 of dimension 0.
  parameter int unsigned Radix0      = 8,
  /// Radix k_1 of dimension 1 (ignored if absent).
  parameter int unsigned Radix1      = 8,
  /// Radix k_2 of dimension 2 (ignored if absent).
  parameter int unsigned Radix2      = 2,
  /// Radix k_3 of dimension 3 (ignored if absent).
  parameter int unsigned Radix3      = 2,
  /// Mask of torus dimensions (bits of absent dimensions clear).
  parameter int unsigned Torus       = 'h3,
  /// Local ports P: one per network port (all-port) or 1 (one-port).
  parameter int unsigned NumLocal    = 2 * NumDims,
  /// Bypass lengths k of an interlaced bypass torus (0..4; 0: no bypass ports), see wc_route.
  parameter int unsigned IbtLens     = 0,
  /// Bypass length b1 (ignored unless IbtLens >= 1).
  parameter int unsigned IbtLen0     = 4,
  /// Bypass length b2 (ignored unless IbtLens >= 2).
  parameter int unsigned IbtLen1     = 4,
  /// Bypass length b3 (ignored unless IbtLens >= 3).
  parameter int unsigned IbtLen2     = 4,
  /// Bypass length b4 (ignored unless IbtLens = 4).
  parameter int unsigned IbtLen3     = 4,
  /// Unicast routing with bypass ports (wc_pkg::IbtRoutingDor / IbtRoutingBypass).
  parameter int unsigned IbtRouting  = wc_pkg::IbtRoutingDor,
  /// Test hook only: the deliberately broken bypass plan (wc_route).
  parameter int unsigned BugIbtTie   = 0,
  /// Dateline class rule (router.vc_class): 0 = hop, nonzero = entry (wc_route).
  parameter int unsigned VcClassEntry = 0,
  /// Dateline VC classes C: 2 (dateline classes on a torus) or 1.
  parameter int unsigned NumClasses  = 2,
  /// VCs per dateline class, V.
  parameter int unsigned VcsPerClass = 1,
  /// Buffer slots per VC, B.
  parameter int unsigned BufDepth    = 4,
  /// This port's number (port = 2*dim + dir, then the bypass ports of an iBT, then the local
  /// ports).
  parameter int unsigned InPort      = 0,
  /// Cycles from arrival to the first cycle a flit may compete in the lumped pipeline: R, plus Ld
  /// on a network port.
  parameter int unsigned Delay       = 1,
  /// Pipeline (router.pipeline): 0 = lumped, nonzero = staged (needs Delay >= 3).
  parameter int unsigned PipelineStaged = 0,
  /// Width of an output port index.
  parameter int unsigned PortW       = 3,
  /// VCs per port, C*V. Derived; do not override.
  parameter int unsigned NumVcs      = NumClasses * VcsPerClass,
  /// Width of a VC index. Derived; do not override.
  parameter int unsigned VcW         = wc_pkg::idx_width(NumVcs)
) (
  input  logic                                      clk_i,
  input  logic                                      rst_ni,
  input  logic [wc_pkg::MaxDims*wc_pkg::CoordW-1:0] my_coord_i,
  input  wc_pkg::flit_t                             flit_i,
  // Per VC v, at bits v*W+W-1:v*W of each vector (see wc_input_vc for the meaning).
  output logic [NumVcs*wc_pkg::EntryW-1:0]          front_o,
  output logic [NumVcs-1:0]                         eligible_o,
  output logic [NumVcs*NumVcs-1:0]                  allowed_o,
  output logic [NumVcs-1:0]                         active_o,
  input  logic [NumVcs-1:0]                         va_won_i,
  input  logic [NumVcs*VcW-1:0]                     va_vc_i,
  output logic [NumVcs-1:0]                         act_now_o,
  output logic [NumVcs*PortW-1:0]                   out_port_o,
  output logic [NumVcs*VcW-1:0]                     out_vc_o,
  input  logic [NumVcs-1:0]                         pop_i
);

  localparam int unsigned AgeW     = 5;  // counts up to 15 young flits (delay <= 16)

  // ------------------------------------------------------------------------------------------
  // Route at arrival
  // ------------------------------------------------------------------------------------------
  wc_pkg::route_t route;
  wc_pkg::entry_t entry;

  wc_route #(
    .NumDims    (NumDims),
    .Radix0     (Radix0),
    .Radix1     (Radix1),
    .Radix2     (Radix2),
    .Radix3     (Radix3),
    .Torus      (Torus),
    .NumLocal   (NumLocal),
    .UseClasses (NumClasses == 2),
    .InPort     (InPort),
    .IbtLens    (IbtLens),
    .IbtLen0    (IbtLen0),
    .IbtLen1    (IbtLen1),
    .IbtLen2    (IbtLen2),
    .IbtLen3    (IbtLen3),
    .IbtRouting (IbtRouting),
    .BugIbtTie  (BugIbtTie),
    .VcClassEntry (VcClassEntry)
  ) i_route (
    .my_coord_i (my_coord_i),
    .dst_i      (flit_i.dst),
    .tie_i      (flit_i.tie),
    .in_lh_i    ((NumClasses == 2) && (32'(flit_i.vc[VcW-1:0]) >= VcsPerClass)),
    .route_o    (route)
  );

  always_comb begin
    entry         = '0;
    entry.route   = route;
    entry.payload = flit_i.payload;
    entry.dst     = flit_i.dst;
    entry.tie     = flit_i.tie;
    entry.tail    = flit_i.tail;
    entry.head    = flit_i.head;
  end

  // The vc field's bits above VcW and the reserved bits carry nothing for this configuration.
  logic unused_flit_bits;
  assign unused_flit_bits = ^{flit_i.rsvd, flit_i.vc};

  // ------------------------------------------------------------------------------------------
  // 5.1 Flits too young to compete
  // ------------------------------------------------------------------------------------------
  // A flit that arrived in cycle a competes from cycle a + D - s on (s: the stages it skips, 0 in
  // the lumped pipeline; staged, 1 for a head and 2 for a body or tail flit). It sits in its
  // buffer from edge a+1, so it is too young exactly while it is among this port's last D-1-s
  // arrivals. Those are the newest flits of their buffer (nothing overtakes inside a VC), so the
  // front of VC v is eligible iff its count > young[v] counted over the front's horizon: every
  // flit of v within it is still buffered while an older front is (a flit leaves only after all
  // older flits of its VC did).
  // The head's horizon; the body's is the same (lumped) or one arrival shorter (staged).
  localparam int unsigned HeadSkip = (PipelineStaged != 0) ? 1 : 0;
  localparam int unsigned HeadLen  = (Delay > 1 + HeadSkip) ? Delay - 1 - HeadSkip : 0;

`ifndef SYNTHESIS
  if (PipelineStaged != 0 && Delay < 3) begin : gen_bad_staged
    $error("wc_input_port: the staged pipeline needs Delay >= 3 (RouterDelay >= 3)");
  end
`endif

  logic [AgeW-1:0] young_head [NumVcs];  // horizon D-1 (staged D-2): for a head front
  logic [AgeW-1:0] young_body [NumVcs];  // horizon D-1 (staged D-3): for a body or tail front

  if (HeadLen > 0) begin : gen_young
    logic [HeadLen-1:0] hist_valid_q;
    logic [VcW-1:0]     hist_vc_q [HeadLen];

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        hist_valid_q <= '0;
        for (int j = 0; j < HeadLen; j++) begin
          hist_vc_q[j] <= '0;
        end
      end else begin
        hist_valid_q[0] <= flit_i.valid;
        hist_vc_q[0]    <= flit_i.vc[VcW-1:0];
        for (int j = 1; j < HeadLen; j++) begin
          hist_valid_q[j] <= hist_valid_q[j-1];
          hist_vc_q[j]    <= hist_vc_q[j-1];
        end
      end
    end

    // Staged, the body horizon is the head's without its oldest arrival.
    always_comb begin
      for (int v = 0; v < NumVcs; v++) begin
        young_head[v] = '0;
        for (int j = 0; j < HeadLen; j++) begin
          if (hist_valid_q[j] && (hist_vc_q[j] == VcW'(v))) begin
            young_head[v] = young_head[v] + AgeW'(1);
          end
        end
        young_body[v] = young_head[v];
        if ((PipelineStaged != 0) && hist_valid_q[HeadLen-1] && (hist_vc_q[HeadLen-1] == VcW'(v))) begin
          young_body[v] = young_head[v] - AgeW'(1);
        end
      end
    end
  end else begin : gen_no_young
    always_comb begin
      for (int v = 0; v < NumVcs; v++) begin
        young_head[v] = '0;
        young_body[v] = '0;
      end
    end
  end

  // ------------------------------------------------------------------------------------------
  // Input VCs
  // ------------------------------------------------------------------------------------------
  for (genvar v = 0; v < NumVcs; v++) begin : gen_vc
    wc_input_vc #(
      .NumVcs      (NumVcs),
      .VcsPerClass (VcsPerClass),
      .BufDepth    (BufDepth),
      .PipelineStaged (PipelineStaged),
      .AgeW        (AgeW),
      .PortW       (PortW)
    ) i_vc (
      .clk_i      (clk_i),
      .rst_ni     (rst_ni),
      .push_i     (flit_i.valid && (flit_i.vc[VcW-1:0] == VcW'(v))),
      .entry_i    (entry),
      .young_head_i (young_head[v]),
      .young_body_i (young_body[v]),
      .front_o    (front_o[v*wc_pkg::EntryW +: wc_pkg::EntryW]),
      .eligible_o (eligible_o[v]),
      .allowed_o  (allowed_o[v*NumVcs +: NumVcs]),
      .active_o   (active_o[v]),
      .va_won_i   (va_won_i[v]),
      .va_vc_i    (va_vc_i[v*VcW +: VcW]),
      .act_now_o  (act_now_o[v]),
      .out_port_o (out_port_o[v*PortW +: PortW]),
      .out_vc_o   (out_vc_o[v*VcW +: VcW]),
      .pop_i      (pop_i[v])
    );
  end

  // ------------------------------------------------------------------------------------------
  // Rules
  // ------------------------------------------------------------------------------------------
  // The upstream sends only on this port's VCs.
  `WC_ASSERT(VcInRange_A, !flit_i.valid || (32'(flit_i.vc) < NumVcs))

endmodule
