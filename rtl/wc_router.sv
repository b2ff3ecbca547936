// Wormhole virtual-channel torus router of docs/router.md: input units with a buffer per VC
// (route at arrival), separable VC and switch allocation (input-first, output-first or iSLIP),
// credit flow control, Moore outputs. This module composes the units and does the switch
// traversal:
//
//   wc_input_port  x NumPorts  route unit, arrival history, wc_input_vc x NumVcs
//   wc_sep_alloc     i_va      VC allocation: input VCs over output VCs
//   wc_sep_alloc     i_sa      switch allocation: input ports over output ports
//   wc_credit_pipe x NumPorts  credit return pipeline and counters of the output VCs
//   here                       allocated flags of the output VCs, crossbar, credit outputs
//
// Cycle t of the contract is the cycle after clock edge t. The registers after edge t hold the
// contract's state after edge t; every output of cycle t is combinational from those registers
// only (no input-to-output path), and edge t+1 commits section 6. Reset (rst_ni, active low,
// asynchronous) gives the state of a freshly constructed SystemC router: buffers empty, VCs idle,
// credits = BufDepth, nothing allocated, every arbiter pointer 0. Buffer storage is not reset.
//
// PipelineStaged (router.pipeline, docs/router.md section 11) chooses the pipeline; with
// d = R - 1 (+ Ld on a network port), per clock edge e (cycle e):
//   lumped  A flit written at edge t competes from edge t + d. Route, VC allocation and switch
//           allocation share the edge: a VC-allocation winner requests the switch at e.
//   staged  (R >= 3) A head written at edge t is VC-ready from edge t + d - 1, a body or tail
//           flit switch-ready from t + d - 2 (wc_input_port). A VC-allocation winner holds its
//           output VC from e + 1 and does not request the switch at e (wc_input_vc act_now_o);
//           its switch allocation is at e + 1 at the earliest. A flit that wins the switch at e
//           traverses at e (its credit goes upstream in cycle e). After a flit left at e, the
//           next body or tail flit of its input VC competes from e + 1; a head behind a tail is
//           VC-ready from e + 2 (it routes at e + 1). A tail that traverses at e frees its output
//           VC (allocated, below): VC allocation sees it free at e + 1, and the next packet's
//           head traverses on it at e + 2 at the earliest. Link and credit delays, the credit
//           counts and the VC re-allocation policy (VcReallocTail) are the lumped pipeline's.
`include "wc_assert.svh"

module wc_router #(
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
  /// Link delay Ld in cycles (0..8), added to the delay of the network input ports.
  parameter int unsigned LinkDelay     = 0,
  /// Credit return delay Cd in cycles (0..8).
  parameter int unsigned CreditDelay   = 0,
  /// VC re-allocation policy (router.vc_realloc, docs/router.md 5.3): 0 = empty, an output VC is
  /// free once it is unallocated and all its credits are back; nonzero = tail, free once the tail
  /// has been sent, so that several packets may queue in one downstream VC buffer.
  parameter int unsigned VcReallocTail = 0,
  /// Pipeline (router.pipeline, docs/router.md section 11): 0 = lumped, nonzero = staged
  /// (BookSim2's input-queued stages; needs RouterDelay >= 3), see the header.
  parameter int unsigned PipelineStaged = 0,
  /// Bypass lengths k of an interlaced bypass torus iBT(n^d; <b1..bk>) (docs/router.md section
  /// 10), 0..4; 0: a torus or mesh without bypass ports. Nonzero adds the network ports bypass+
  /// (2n) and bypass- (2n+1); every dimension is then a torus of radix n = Radix0.
  parameter int unsigned IbtLens       = 0,
  /// Bypass length b1 (ignored unless IbtLens >= 1).
  parameter int unsigned IbtLen0       = 4,
  /// Bypass length b2 (ignored unless IbtLens >= 2).
  parameter int unsigned IbtLen1       = 4,
  /// Bypass length b3 (ignored unless IbtLens >= 3).
  parameter int unsigned IbtLen2       = 4,
  /// Bypass length b4 (ignored unless IbtLens = 4).
  parameter int unsigned IbtLen3       = 4,
  /// Unicast routing with bypass ports (ibt.routing): wc_pkg::IbtRoutingDor (0) or
  /// wc_pkg::IbtRoutingBypass (1).
  parameter int unsigned IbtRouting    = 0,
  /// Separable allocator of VC and switch allocation (router.allocator, docs/router.md 5.6):
  /// wc_pkg::AllocatorInputFirst (0), AllocatorOutputFirst (1) or AllocatorIslip (2).
  parameter int unsigned Allocator     = 0,
  /// Iterations I of the islip allocator (router.islip_iterations, 1..8; ignored otherwise).
  parameter int unsigned IslipIters    = 1,
  /// Under islip, nonzero: the switch allocator's input ports accept by output port
  /// (router.switch_accept = port, docs/router.md section 11); zero: by VC (vc).
  parameter int unsigned SwitchAcceptPort = 0,
  /// Test hook only: nonzero makes the bypass plan of an iBT router prefer minus on a tie of plus
  /// and minus (wc_route), breaking the contract on purpose for the iBT lockstep test.
  parameter int unsigned BugIbtTie     = 0,
  /// Test hook only: nonzero keeps the switch allocator's output pointers on the winner instead
  /// of moving them past it. It breaks the contract on purpose so that the lockstep test can
  /// prove it notices.
  parameter int unsigned BugSaPtr      = 0,
  /// Dateline class rule (router.vc_class, docs/router.md section 11): 0 = hop, the class of a
  /// torus hop decided at every router from the rest of the dimension's path; nonzero = entry,
  /// decided where the head enters the dimension (class 1 if x_d > t_d) and kept while it
  /// continues in it (wc_route). Only with two dateline classes and no bypass ports.
  parameter int unsigned VcClassEntry  = 0,
  /// Ports, 2*NumDims (+ 2 bypass ports) + NumLocal. Derived (a parameter so that the port
  /// widths can use it); do not override.
  parameter int unsigned NumPorts      = 2 * NumDims + ((IbtLens != 0) ? 2 : 0) + NumLocal
) (
  input  logic                                      clk_i,
  input  logic                                      rst_ni,
  // Own coordinates, 8 bits per dimension (dimension d at bits 8d+7:8d), so that one model
  // serves every node of a network.
  input  logic [wc_pkg::MaxDims*wc_pkg::CoordW-1:0] my_coord_i,
  input  logic [NumPorts*wc_pkg::FlitW-1:0]         flit_i,    // port p at bits 64p+63:64p
  output logic [NumPorts*wc_pkg::FlitW-1:0]         flit_o,
  input  logic [NumPorts*wc_pkg::CreditW-1:0]       credit_i,  // port p at bits 5p+4:5p
  output logic [NumPorts*wc_pkg::CreditW-1:0]       credit_o
);

  // ------------------------------------------------------------------------------------------
  // Derived sizes (docs/router.md section 1)
  // ------------------------------------------------------------------------------------------
  localparam int unsigned TorusPorts = 2 * NumDims;
  localparam int unsigned NetPorts   = TorusPorts + ((IbtLens != 0) ? 2 : 0);
  localparam int unsigned TorusDims  = Torus & ((1 << NumDims) - 1);  // bits of absent dims off
  localparam bit          AnyTorus   = TorusDims != 0;
  localparam int unsigned NumClasses = ((Dateline != 0) && AnyTorus) ? 2 : 1;
  localparam int unsigned NumVcs     = NumClasses * VcsPerClass;
  // Input VC i = p*NumVcs + v; output VC k = o*NumVcs + w (the same count).
  localparam int unsigned NumIvc     = NumPorts * NumVcs;
  localparam int unsigned PortW      = wc_pkg::idx_width(NumPorts);
  localparam int unsigned VcW        = wc_pkg::idx_width(NumVcs);
  localparam int unsigned IvcW       = wc_pkg::idx_width(NumIvc);
  localparam int unsigned EntryW     = wc_pkg::EntryW;
  localparam int unsigned FlitW      = wc_pkg::FlitW;
  localparam int unsigned CreditW    = wc_pkg::CreditW;

`ifndef SYNTHESIS
  // Parameter ranges of docs/router.md section 1 that the structure relies on.
  if (NumDims < 1 || NumDims > wc_pkg::MaxDims) begin : gen_bad_dims
    $error("wc_router: NumDims must be 1..4");
  end
  if (NumLocal != 1 && NumLocal != NetPorts) begin : gen_bad_local
    $error("wc_router: NumLocal must be 1 (one-port) or the network ports (all-port)");
  end
  // iBT(n^d; <b1..bk>) rules (sw/topology/ibt.h): n x ... x n, every dimension a torus, each b_j
  // a positive multiple of d*k below n/2, n a multiple of d*k.
  if (IbtLens != 0) begin : gen_ibt_checks
    localparam int unsigned Species = NumDims * IbtLens;
    if (IbtLens > wc_pkg::MaxIbtLens || TorusDims != (1 << NumDims) - 1 ||
        (NumDims > 1 && Radix1 != Radix0) || (NumDims > 2 && Radix2 != Radix0) ||
        (NumDims > 3 && Radix3 != Radix0) || (Radix0 % Species) != 0 ||
        IbtRouting > wc_pkg::IbtRoutingBypass) begin : gen_bad_ibt
      $error("wc_router: iBT needs IbtLens 1..4, equal radices, every dimension a torus, d*k | n, IbtRouting 0..1");
    end
    for (genvar j = 0; j < IbtLens; j++) begin : gen_len
      localparam int unsigned Len = (j == 0) ? IbtLen0 : (j == 1) ? IbtLen1 :
                                    (j == 2) ? IbtLen2 : IbtLen3;
      if (Len == 0 || (Len % Species) != 0 || 2 * Len >= Radix0) begin : gen_bad_len
        $error("wc_router: each iBT bypass length must be a positive multiple of d*k below n/2");
      end
    end
  end
  // The entry rule chooses between the two dateline classes of a torus dimension (as
  // router.vc_class = entry needs router.dateline = true and a torus dimension); the iBT
  // family's routing decides its own classes.
  if (VcClassEntry != 0 && (NumClasses != 2 || IbtLens != 0)) begin : gen_bad_vc_class
    $error("wc_router: VcClassEntry needs Dateline, a torus dimension and IbtLens = 0");
  end
  if (NumVcs < 1 || NumVcs > wc_pkg::MaxVcs) begin : gen_bad_vcs
    $error("wc_router: NumVcs = classes * VcsPerClass must be 1..16");
  end
  if (NumPorts > wc_pkg::MaxPorts) begin : gen_bad_ports
    $error("wc_router: at most 16 ports");
  end
  if (BufDepth < 1 || BufDepth > 64 || RouterDelay < 1 || RouterDelay > 8 || LinkDelay > 8 ||
      CreditDelay > 8) begin : gen_bad_timing
    $error("wc_router: BufDepth 1..64, RouterDelay 1..8, LinkDelay and CreditDelay 0..8");
  end
  if (PipelineStaged != 0 && RouterDelay < 3) begin : gen_bad_staged
    $error("wc_router: the staged pipeline needs RouterDelay 3..8");
  end
  // The package spells the struct widths out (see wc_pkg).
  if ($bits(wc_pkg::flit_t) != FlitW || $bits(wc_pkg::credit_t) != CreditW ||
      $bits(wc_pkg::route_t) != wc_pkg::RouteW ||
      $bits(wc_pkg::entry_t) != EntryW) begin : gen_bad_pkg
    $error("wc_router: wc_pkg struct widths disagree with the width constants");
  end
`endif

  // ------------------------------------------------------------------------------------------
  // Input units (5.1, 5.2, the input half of section 6)
  // ------------------------------------------------------------------------------------------
  // Unpacked arrays are of plain vectors, and struct members are read only from variables
  // declared at module level: what Yosys 0.23 supports of structs.
  logic [EntryW-1:0] front    [NumIvc];  // front flit (wc_pkg::entry_t) of input VC i
  logic [NumIvc-1:0] eligible;           // it may compete
  logic [NumVcs-1:0] allowed  [NumIvc];  // output VCs its route admits
  logic [NumIvc-1:0] active;             // VC state after the last edge
  logic [NumIvc-1:0] act_now;            // it may request the switch (lumped: with this cycle's grants)
  logic [PortW-1:0]  port_now [NumIvc];
  logic [VcW-1:0]    vc_now   [NumIvc];

  logic [NumIvc-1:0]     va_won;   // input VC i won an output VC
  logic [NumIvc*VcW-1:0] va_pick;  // the output VC w it picked
  logic [NumIvc-1:0]     pop;      // the front flit of input VC i leaves

  for (genvar p = 0; p < NumPorts; p++) begin : gen_in
    logic [NumVcs*EntryW-1:0] port_front;
    logic [NumVcs*NumVcs-1:0] port_allowed;
    logic [NumVcs*PortW-1:0]  port_out_port;
    logic [NumVcs*VcW-1:0]    port_out_vc;

    wc_input_port #(
      .NumDims     (NumDims),
      .Radix0      (Radix0),
      .Radix1      (Radix1),
      .Radix2      (Radix2),
      .Radix3      (Radix3),
      .Torus       (TorusDims),
      .NumLocal    (NumLocal),
      .NumClasses  (NumClasses),
      .VcsPerClass (VcsPerClass),
      .BufDepth    (BufDepth),
      .IbtLens     (IbtLens),
      .IbtLen0     (IbtLen0),
      .IbtLen1     (IbtLen1),
      .IbtLen2     (IbtLen2),
      .IbtLen3     (IbtLen3),
      .IbtRouting  (IbtRouting),
      .BugIbtTie   (BugIbtTie),
      .VcClassEntry (VcClassEntry),
      .InPort      (p),
      .Delay       ((p < NetPorts) ? RouterDelay + LinkDelay : RouterDelay),
      .PipelineStaged (PipelineStaged),
      .PortW       (PortW)
    ) i_in (
      .clk_i      (clk_i),
      .rst_ni     (rst_ni),
      .my_coord_i (my_coord_i),
      .flit_i     (flit_i[p*FlitW +: FlitW]),
      .front_o    (port_front),
      .eligible_o (eligible[p*NumVcs +: NumVcs]),
      .allowed_o  (port_allowed),
      .active_o   (active[p*NumVcs +: NumVcs]),
      .va_won_i   (va_won[p*NumVcs +: NumVcs]),
      .va_vc_i    (va_pick[p*NumVcs*VcW +: NumVcs*VcW]),
      .act_now_o  (act_now[p*NumVcs +: NumVcs]),
      .out_port_o (port_out_port),
      .out_vc_o   (port_out_vc),
      .pop_i      (pop[p*NumVcs +: NumVcs])
    );

    for (genvar v = 0; v < NumVcs; v++) begin : gen_vc
      assign front[p*NumVcs + v]    = port_front[v*EntryW +: EntryW];
      assign allowed[p*NumVcs + v]  = port_allowed[v*NumVcs +: NumVcs];
      assign port_now[p*NumVcs + v] = port_out_port[v*PortW +: PortW];
      assign vc_now[p*NumVcs + v]   = port_out_vc[v*VcW +: VcW];
    end
  end

  // ------------------------------------------------------------------------------------------
  // Output VC state: credits (wc_credit_pipe) and allocated flags
  // ------------------------------------------------------------------------------------------
  logic [NumIvc-1:0] credit_avail;  // output VC k has a credit
  logic [NumIvc-1:0] credit_full;   // ... all B of them
  logic [NumIvc-1:0] ovc_spend;     // the flit sent on output VC k spends a credit
  logic [NumIvc-1:0] ovc_release;   // ... and it is a tail: the output VC becomes unallocated
  logic [NumIvc-1:0] alloc_d, alloc_q;
  logic [NumIvc-1:0] va_granted;    // output VC k was allocated in this cycle

  for (genvar o = 0; o < NumPorts; o++) begin : gen_out
    wc_credit_pipe #(
      .NumVcs      (NumVcs),
      .BufDepth    (BufDepth),
      .CreditDelay (CreditDelay)
    ) i_credit (
      .clk_i    (clk_i),
      .rst_ni   (rst_ni),
      .credit_i (credit_i[o*CreditW +: CreditW]),
      .spend_i  (ovc_spend[o*NumVcs +: NumVcs]),
      .avail_o  (credit_avail[o*NumVcs +: NumVcs]),
      .full_o   (credit_full[o*NumVcs +: NumVcs])
    );
  end

  // ------------------------------------------------------------------------------------------
  // 5.6 The allocators' rules (wc_sep_alloc)
  // ------------------------------------------------------------------------------------------
  // input-first: both allocators input-first. output-first and islip: VC allocation by the
  // iterated output-first rule (output-first: one iteration), and switch allocation by the same
  // rule, or under islip with SwitchAcceptPort by iSLIP whose input ports accept by output port.
  localparam bit          IsIslip    = Allocator == wc_pkg::AllocatorIslip;
  localparam int unsigned VaRule     = (Allocator == wc_pkg::AllocatorInputFirst) ?
                                       wc_pkg::AllocRuleInputFirst : wc_pkg::AllocRuleIslip;
  localparam int unsigned SaRule     = (IsIslip && SwitchAcceptPort != 0) ?
                                       wc_pkg::AllocRuleIslipPort : VaRule;
  localparam int unsigned AllocIters = IsIslip ? IslipIters : 1;

`ifndef SYNTHESIS
  if (Allocator > wc_pkg::AllocatorIslip || IslipIters < 1 || IslipIters > 8) begin : gen_bad_alloc
    $error("wc_router: Allocator must be 0..2 and IslipIters 1..8");
  end
`endif

  // ------------------------------------------------------------------------------------------
  // 5.3 VC allocation
  // ------------------------------------------------------------------------------------------
  // Output VC (o, w) is free iff the previous packet's tail has left and, under the empty policy,
  // all its credits are back. An idle input VC with an eligible head requests the free allowed
  // VCs of its routed port (port_now of an idle VC); request w names output VC port*NumVcs + w.
  logic [NumVcs-1:0]            port_free [NumPorts];
  logic [NumIvc*NumVcs-1:0]     va_req;
  logic [NumIvc*NumVcs*IvcW-1:0] va_res;

  always_comb begin
    for (int o = 0; o < NumPorts; o++) begin
      port_free[o] = ~alloc_q[o*NumVcs +: NumVcs] &
                     ((VcReallocTail != 0) ? '1 : credit_full[o*NumVcs +: NumVcs]);
    end
  end

  for (genvar i = 0; i < NumIvc; i++) begin : gen_va_req
    assign va_req[i*NumVcs +: NumVcs] =
        (!active[i] && eligible[i]) ? (port_free[port_now[i]] & allowed[i]) : '0;
    for (genvar w = 0; w < NumVcs; w++) begin : gen_res
      assign va_res[(i*NumVcs + w)*IvcW +: IvcW] = IvcW'(32'(port_now[i]) * NumVcs + w);
    end
  end

  logic [NumIvc*NumVcs-1:0] unused_va_gnt;    // the VC state takes the pick, not the one-hot
  logic [NumIvc*IvcW-1:0]   unused_va_group;  // the input VC knows it won

  wc_sep_alloc #(
    .NumGroups (NumIvc),
    .NumReqs   (NumVcs),
    .NumRes    (NumIvc),
    .Rule      (VaRule),
    .Iters     (AllocIters)
  ) i_va (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .req_i       (va_req),
    .res_i       (va_res),
    .won_o       (va_won),
    .pick_o      (va_pick),
    .gnt_o       (unused_va_gnt),
    .res_valid_o (va_granted),
    .res_group_o (unused_va_group)
  );

  // ------------------------------------------------------------------------------------------
  // 5.4 Switch allocation
  // ------------------------------------------------------------------------------------------
  // Input VC (p, v) requests if it is active (lumped: with this cycle's grants; staged: from an
  // earlier edge), its front flit is eligible and its output VC has a credit; request v of input
  // port p names that output port.
  logic [NumIvc-1:0]         sa_req;
  logic [NumIvc*PortW-1:0]   sa_res;
  logic [NumPorts-1:0]       sa_won;    // input port p's pick won its output port
  logic [NumPorts*VcW-1:0]   sa_pick;   // the input VC v it picked
  logic [NumPorts-1:0]       out_valid; // output port o sends a flit
  logic [NumPorts*PortW-1:0] out_src;   // from input port

  for (genvar i = 0; i < NumIvc; i++) begin : gen_sa_req
    assign sa_req[i] = act_now[i] && eligible[i] &&
                       credit_avail[32'(port_now[i]) * NumVcs + 32'(vc_now[i])];
    assign sa_res[i*PortW +: PortW] = port_now[i];
  end

  wc_sep_alloc #(
    .NumGroups      (NumPorts),
    .NumReqs        (NumVcs),
    .NumRes         (NumPorts),
    .Rule           (SaRule),
    .Iters          (AllocIters),
    .ResPtrOnWinner (BugSaPtr != 0)
  ) i_sa (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .req_i       (sa_req),
    .res_i       (sa_res),
    .won_o       (sa_won),
    .pick_o      (sa_pick),
    .gnt_o       (pop),
    .res_valid_o (out_valid),
    .res_group_o (out_src)
  );

  // ------------------------------------------------------------------------------------------
  // 5.5 Switch traversal and outputs of this cycle: the switch winners, everything else zero
  // ------------------------------------------------------------------------------------------
  logic [EntryW-1:0] sel_entry [NumPorts];  // front flit of input port p's picked VC
  logic [VcW-1:0]    sel_ovc   [NumPorts];  // its output VC
  logic [EntryW-1:0] out_entry [NumPorts];  // the flit output port o sends
  logic [VcW-1:0]    out_vc    [NumPorts];  // on this output VC
  logic [NumPorts-1:0] out_tail;            // it is a tail

  always_comb begin
    for (int p = 0; p < NumPorts; p++) begin
      sel_entry[p] = front[p*NumVcs + 32'(sa_pick[p*VcW +: VcW])];
      sel_ovc[p]   = vc_now[p*NumVcs + 32'(sa_pick[p*VcW +: VcW])];
    end
    for (int o = 0; o < NumPorts; o++) begin
      out_entry[o] = sel_entry[out_src[o*PortW +: PortW]];
      out_vc[o]    = sel_ovc[out_src[o*PortW +: PortW]];
    end
  end

  // The output words, assembled in loop temporaries declared at module level (see front).
  wc_pkg::entry_t  entry_word;
  wc_pkg::flit_t   flit_word;
  wc_pkg::credit_t credit_word;

  always_comb begin
    entry_word = '0;
    flit_word  = '0;
    out_tail   = '0;
    for (int o = 0; o < NumPorts; o++) begin
      entry_word  = out_entry[o];
      out_tail[o] = entry_word.tail;
      flit_word   = '0;
      if (out_valid[o]) begin
        flit_word.payload = entry_word.payload;
        flit_word.dst     = entry_word.dst;
        flit_word.vc      = wc_pkg::FlitVcW'(out_vc[o]);
        flit_word.tie     = entry_word.tie;
        flit_word.tail    = entry_word.tail;
        flit_word.head    = entry_word.head;
        flit_word.valid   = 1'b1;
      end
      flit_o[o*FlitW +: FlitW] = flit_word;
    end
  end

  // The route of a flit that leaves served its input unit.
  logic unused_out_route;
  assign unused_out_route = ^entry_word.route;

  // The input VC that sent returns a credit upstream.
  always_comb begin
    credit_word = '0;
    for (int p = 0; p < NumPorts; p++) begin
      credit_word = '0;
      if (sa_won[p]) begin
        credit_word.vc    = wc_pkg::CreditVcW'(sa_pick[p*VcW +: VcW]);
        credit_word.valid = 1'b1;
      end
      credit_o[p*CreditW +: CreditW] = credit_word;
    end
  end

  // ------------------------------------------------------------------------------------------
  // Section 6: output VC state at the edge
  // ------------------------------------------------------------------------------------------
  // The winner of output port o spends a credit of its output VC; its tail frees the VC.
  always_comb begin
    for (int o = 0; o < NumPorts; o++) begin
      ovc_spend[o*NumVcs +: NumVcs]   = out_valid[o] ? (NumVcs'(1) << out_vc[o]) : '0;
      ovc_release[o*NumVcs +: NumVcs] = out_tail[o] ? ovc_spend[o*NumVcs +: NumVcs] : '0;
    end
    alloc_d = (alloc_q | va_granted) & ~ovc_release;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      alloc_q <= '0;
    end else begin
      alloc_q <= alloc_d;
    end
  end

  // ------------------------------------------------------------------------------------------
  // Rules
  // ------------------------------------------------------------------------------------------
  // VC allocation grants only free output VCs: unallocated and, under the empty policy, with
  // all credits back.
  `WC_ASSERT(GrantOnlyUnallocated_A, (va_granted & alloc_q) == '0)
  `WC_ASSERT(GrantOnlyEmpty_A, (VcReallocTail != 0) || ((va_granted & ~credit_full) == '0))
  // A flit is sent only on an output VC allocated to its packet, and its tail frees it.
  `WC_ASSERT(SendOnlyAllocated_A, (ovc_spend & ~(alloc_q | va_granted)) == '0)
  `WC_ASSERT(ReleaseOnlySent_A, (ovc_release & ~ovc_spend) == '0)
  // Every sent flit leaves one input VC and returns one credit upstream.
  `WC_ASSERT(OneCreditPerFlit_A, $countones(out_valid) == $countones(sa_won))
  `WC_ASSERT(PopPerWin_A, $countones(pop) == $countones(sa_won))
  // Staged: a VC-allocation winner does not request the switch in the same cycle, so no flit is
  // sent on an output VC granted in this cycle (a freed output VC carries the next packet's head
  // two edges after the tail at the earliest).
  `WC_ASSERT(StagedVaNotSa_A, (PipelineStaged == 0) || ((va_won & sa_req) == '0))
  `WC_ASSERT(StagedSendNotAtGrant_A, (PipelineStaged == 0) || ((ovc_spend & va_granted) == '0))

  // iBT (docs/router.md section 10): a packet takes its bypass hops first, so a flit that came in
  // on a torus port never leaves on a bypass port (the first step of the deadlock-freedom
  // argument); under dor no flit leaves on a bypass port at all.
  if (IbtLens != 0) begin : gen_ibt_rules
    logic [1:0] bypass_out;         // bypass+ / bypass- sends a flit
    logic [1:0] bypass_from_torus;  // ... one that arrived on a torus port

    always_comb begin
      for (int b = 0; b < 2; b++) begin
        bypass_out[b]        = out_valid[TorusPorts + b];
        bypass_from_torus[b] = out_valid[TorusPorts + b] &&
                               (32'(out_src[(TorusPorts + b)*PortW +: PortW]) < TorusPorts);
      end
    end

    `WC_ASSERT(BypassNotFromTorus_A, bypass_from_torus == '0)
    `WC_ASSERT(DorNoBypass_A, (IbtRouting != wc_pkg::IbtRoutingDor) || (bypass_out == '0))
  end

endmodule
