// Top of the router for Verilator --sc: one 64-bit flit port and one credit port per router port
// for the largest router (16 ports), so every top-level port maps to uint64_t/uint32_t/bool and
// one C++ adapter fits every configuration. Ports NumPorts..15 are tied off: inputs ignored,
// outputs zero.
module wc_router_top #(
  /// Dimensions n of the network (1..4).
  parameter int unsigned NumDims       = 2,
  /// Radix k_0 of dimension 0.
  parameter int unsigned Radix0        = 8,
  /// Radix k_1 of dimension 1 (ignored if absent).
  parameter int unsigned Radix1        = 8,
  /// Radix k_2 of dimension 2 (ignored if absent).
  parameter int unsigned Radix2        = 2,
  /// Radix k_3 of dimension 3 (ignored if absent).
  parameter int unsigned Radix3        = 2,
  /// Mask of torus dimensions: bit d set = dimension d has wraparound links.
  parameter int unsigned Torus         = 'hf,
  /// Local ports P: 2*NumDims (all-port) or 1 (one-port).
  parameter int unsigned NumLocal      = 2 * NumDims,
  /// VCs per dateline class, V.
  parameter int unsigned VcsPerClass   = 1,
  /// Nonzero: two dateline VC classes when some dimension is a torus.
  parameter int unsigned Dateline      = 1,
  /// Buffer slots per input VC, B (1..64).
  parameter int unsigned BufDepth      = 4,
  /// Router delay R in cycles (1..8).
  parameter int unsigned RouterDelay   = 1,
  /// Link delay Ld in cycles (0..8).
  parameter int unsigned LinkDelay     = 0,
  /// Credit return delay Cd in cycles (0..8).
  parameter int unsigned CreditDelay   = 0,
  /// VC re-allocation policy: 0 = empty, nonzero = tail (an output VC is free once its tail left).
  parameter int unsigned VcReallocTail = 0,
  /// Pipeline (router.pipeline): 0 = lumped, nonzero = staged (needs RouterDelay >= 3; wc_router).
  parameter int unsigned PipelineStaged = 0,
  /// Bypass lengths k of an interlaced bypass torus iBT(n^d; <b1..bk>), 0..4 (0: no bypass
  /// ports; nonzero: ports 2n and 2n+1 are bypass+ and bypass-, docs/router.md section 10).
  parameter int unsigned IbtLens       = 0,
  /// Bypass length b1 (ignored unless IbtLens >= 1).
  parameter int unsigned IbtLen0       = 4,
  /// Bypass length b2 (ignored unless IbtLens >= 2).
  parameter int unsigned IbtLen1       = 4,
  /// Bypass length b3 (ignored unless IbtLens >= 3).
  parameter int unsigned IbtLen2       = 4,
  /// Bypass length b4 (ignored unless IbtLens = 4).
  parameter int unsigned IbtLen3       = 4,
  /// Unicast routing with bypass ports: 0 = dor, 1 = bypass (ibt.routing).
  parameter int unsigned IbtRouting    = 0,
  /// Separable allocator: 0 = input-first, 1 = output-first, 2 = islip (router.allocator).
  parameter int unsigned Allocator     = 0,
  /// Iterations of the islip allocator, 1..8 (router.islip_iterations).
  parameter int unsigned IslipIters    = 1,
  /// Under islip, nonzero: the switch allocator accepts by output port (router.switch_accept).
  parameter int unsigned SwitchAcceptPort = 0,
  /// Test hook only: nonzero builds the deliberately broken switch allocator (wc_router).
  parameter int unsigned BugSaPtr      = 0,
  /// Test hook only: nonzero builds the deliberately broken iBT bypass plan (wc_route).
  parameter int unsigned BugIbtTie     = 0,
  /// Dateline class rule (router.vc_class): 0 = hop, nonzero = entry (wc_router, wc_route).
  parameter int unsigned VcClassEntry  = 0
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic [31:0] my_coord_i,  // coordinate d at bits 8d+7:8d
  input  logic [63:0] flit_i_0,
  input  logic [63:0] flit_i_1,
  input  logic [63:0] flit_i_2,
  input  logic [63:0] flit_i_3,
  input  logic [63:0] flit_i_4,
  input  logic [63:0] flit_i_5,
  input  logic [63:0] flit_i_6,
  input  logic [63:0] flit_i_7,
  input  logic [63:0] flit_i_8,
  input  logic [63:0] flit_i_9,
  input  logic [63:0] flit_i_10,
  input  logic [63:0] flit_i_11,
  input  logic [63:0] flit_i_12,
  input  logic [63:0] flit_i_13,
  input  logic [63:0] flit_i_14,
  input  logic [63:0] flit_i_15,
  output logic [63:0] flit_o_0,
  output logic [63:0] flit_o_1,
  output logic [63:0] flit_o_2,
  output logic [63:0] flit_o_3,
  output logic [63:0] flit_o_4,
  output logic [63:0] flit_o_5,
  output logic [63:0] flit_o_6,
  output logic [63:0] flit_o_7,
  output logic [63:0] flit_o_8,
  output logic [63:0] flit_o_9,
  output logic [63:0] flit_o_10,
  output logic [63:0] flit_o_11,
  output logic [63:0] flit_o_12,
  output logic [63:0] flit_o_13,
  output logic [63:0] flit_o_14,
  output logic [63:0] flit_o_15,
  input  logic [4:0] credit_i_0,
  input  logic [4:0] credit_i_1,
  input  logic [4:0] credit_i_2,
  input  logic [4:0] credit_i_3,
  input  logic [4:0] credit_i_4,
  input  logic [4:0] credit_i_5,
  input  logic [4:0] credit_i_6,
  input  logic [4:0] credit_i_7,
  input  logic [4:0] credit_i_8,
  input  logic [4:0] credit_i_9,
  input  logic [4:0] credit_i_10,
  input  logic [4:0] credit_i_11,
  input  logic [4:0] credit_i_12,
  input  logic [4:0] credit_i_13,
  input  logic [4:0] credit_i_14,
  input  logic [4:0] credit_i_15,
  output logic [4:0] credit_o_0,
  output logic [4:0] credit_o_1,
  output logic [4:0] credit_o_2,
  output logic [4:0] credit_o_3,
  output logic [4:0] credit_o_4,
  output logic [4:0] credit_o_5,
  output logic [4:0] credit_o_6,
  output logic [4:0] credit_o_7,
  output logic [4:0] credit_o_8,
  output logic [4:0] credit_o_9,
  output logic [4:0] credit_o_10,
  output logic [4:0] credit_o_11,
  output logic [4:0] credit_o_12,
  output logic [4:0] credit_o_13,
  output logic [4:0] credit_o_14,
  output logic [4:0] credit_o_15
);

  // Port numbering: port = 2*dim + dir (dir 0 = plus, 1 = minus), then bypass+ and bypass- of
  // an iBT, then the local ports.
  localparam int unsigned NumPorts = 2 * NumDims + ((IbtLens != 0) ? 2 : 0) + NumLocal;
  localparam int unsigned MaxPorts = wc_pkg::MaxPorts;
  localparam int unsigned FlitW    = wc_pkg::FlitW;
  localparam int unsigned CreditW  = wc_pkg::CreditW;

  logic [MaxPorts*FlitW-1:0]   flit_in, flit_out;
  logic [MaxPorts*CreditW-1:0] credit_in, credit_out;

  assign flit_in = {flit_i_15, flit_i_14, flit_i_13, flit_i_12, flit_i_11, flit_i_10, flit_i_9, flit_i_8, flit_i_7, flit_i_6, flit_i_5, flit_i_4, flit_i_3, flit_i_2, flit_i_1, flit_i_0};
  assign credit_in = {credit_i_15, credit_i_14, credit_i_13, credit_i_12, credit_i_11, credit_i_10, credit_i_9, credit_i_8, credit_i_7, credit_i_6, credit_i_5, credit_i_4, credit_i_3, credit_i_2, credit_i_1, credit_i_0};
  assign flit_o_0 = flit_out[0*FlitW +: FlitW];
  assign flit_o_1 = flit_out[1*FlitW +: FlitW];
  assign flit_o_2 = flit_out[2*FlitW +: FlitW];
  assign flit_o_3 = flit_out[3*FlitW +: FlitW];
  assign flit_o_4 = flit_out[4*FlitW +: FlitW];
  assign flit_o_5 = flit_out[5*FlitW +: FlitW];
  assign flit_o_6 = flit_out[6*FlitW +: FlitW];
  assign flit_o_7 = flit_out[7*FlitW +: FlitW];
  assign flit_o_8 = flit_out[8*FlitW +: FlitW];
  assign flit_o_9 = flit_out[9*FlitW +: FlitW];
  assign flit_o_10 = flit_out[10*FlitW +: FlitW];
  assign flit_o_11 = flit_out[11*FlitW +: FlitW];
  assign flit_o_12 = flit_out[12*FlitW +: FlitW];
  assign flit_o_13 = flit_out[13*FlitW +: FlitW];
  assign flit_o_14 = flit_out[14*FlitW +: FlitW];
  assign flit_o_15 = flit_out[15*FlitW +: FlitW];
  assign credit_o_0 = credit_out[0*CreditW +: CreditW];
  assign credit_o_1 = credit_out[1*CreditW +: CreditW];
  assign credit_o_2 = credit_out[2*CreditW +: CreditW];
  assign credit_o_3 = credit_out[3*CreditW +: CreditW];
  assign credit_o_4 = credit_out[4*CreditW +: CreditW];
  assign credit_o_5 = credit_out[5*CreditW +: CreditW];
  assign credit_o_6 = credit_out[6*CreditW +: CreditW];
  assign credit_o_7 = credit_out[7*CreditW +: CreditW];
  assign credit_o_8 = credit_out[8*CreditW +: CreditW];
  assign credit_o_9 = credit_out[9*CreditW +: CreditW];
  assign credit_o_10 = credit_out[10*CreditW +: CreditW];
  assign credit_o_11 = credit_out[11*CreditW +: CreditW];
  assign credit_o_12 = credit_out[12*CreditW +: CreditW];
  assign credit_o_13 = credit_out[13*CreditW +: CreditW];
  assign credit_o_14 = credit_out[14*CreditW +: CreditW];
  assign credit_o_15 = credit_out[15*CreditW +: CreditW];

  wc_router #(
    .NumDims       (NumDims),
    .Radix0        (Radix0),
    .Radix1        (Radix1),
    .Radix2        (Radix2),
    .Radix3        (Radix3),
    .Torus         (Torus),
    .NumLocal      (NumLocal),
    .VcsPerClass   (VcsPerClass),
    .Dateline      (Dateline),
    .BufDepth      (BufDepth),
    .RouterDelay   (RouterDelay),
    .LinkDelay     (LinkDelay),
    .CreditDelay   (CreditDelay),
    .VcReallocTail (VcReallocTail),
    .PipelineStaged (PipelineStaged),
    .IbtLens       (IbtLens),
    .IbtLen0       (IbtLen0),
    .IbtLen1       (IbtLen1),
    .IbtLen2       (IbtLen2),
    .IbtLen3       (IbtLen3),
    .IbtRouting    (IbtRouting),
    .Allocator     (Allocator),
    .IslipIters    (IslipIters),
    .SwitchAcceptPort (SwitchAcceptPort),
    .BugSaPtr      (BugSaPtr),
    .BugIbtTie     (BugIbtTie),
    .VcClassEntry  (VcClassEntry)
  ) i_router (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .my_coord_i (my_coord_i),
    .flit_i     (flit_in[NumPorts*FlitW-1:0]),
    .flit_o     (flit_out[NumPorts*FlitW-1:0]),
    .credit_i   (credit_in[NumPorts*CreditW-1:0]),
    .credit_o   (credit_out[NumPorts*CreditW-1:0])
  );

  if (NumPorts < MaxPorts) begin : gen_tie_off
    assign flit_out[MaxPorts*FlitW-1:NumPorts*FlitW]       = '0;
    assign credit_out[MaxPorts*CreditW-1:NumPorts*CreditW] = '0;
    // Inputs of ports this configuration does not have.
    logic unused_ports;
    assign unused_ports = ^{flit_in[MaxPorts*FlitW-1:NumPorts*FlitW],
                            credit_in[MaxPorts*CreditW-1:NumPorts*CreditW]};
  end

endmodule
