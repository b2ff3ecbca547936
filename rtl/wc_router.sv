// Wormhole virtual-channel torus router of docs/router.md: input FIFOs per VC, route at arrival,
// separable input-first VC and switch allocation, credit flow control, Moore outputs.
//
// Cycle t of the contract is the cycle after clock edge t. The registers after edge t hold the
// contract's state after edge t; every output of cycle t is combinational from those registers
// only (no input-to-output path), and edge t+1 commits section 6. Reset (rst_ni, active low,
// asynchronous) gives the state of a freshly constructed SystemC router: FIFOs empty, VCs idle,
// credits = BufDepth, nothing allocated, every arbiter pointer 0. FIFO storage is not reset.
module wc_router #(
  parameter int unsigned NumDims     = 2,
  parameter int unsigned Radix0      = 8,
  parameter int unsigned Radix1      = 8,
  parameter int unsigned Radix2      = 2,
  parameter int unsigned Radix3      = 2,
  parameter int unsigned Torus       = 'hf,  // bit d set: dimension d has wraparound links
  parameter int unsigned NumLocal    = 2 * NumDims,  // P: 2*NumDims (all-port) or 1 (one-port)
  parameter int unsigned VcsPerClass = 1,
  parameter int unsigned Dateline    = 1,     // nonzero: dateline VC classes on tori
  parameter int unsigned BufDepth    = 4,
  parameter int unsigned RouterDelay = 1,
  parameter int unsigned LinkDelay   = 0,
  parameter int unsigned CreditDelay = 0,
  // VC re-allocation policy (router.vc_realloc, docs/router.md 5.3): 0 = empty, an output VC is
  // free once it is unallocated and all its credits are back; nonzero = tail, free once the tail
  // has been sent, so that several packets may queue in one downstream VC buffer.
  parameter int unsigned VcReallocTail = 0,
  // Derived; do not override.
  parameter int unsigned NumPorts    = 2 * NumDims + NumLocal
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
  localparam int unsigned NetPorts   = 2 * NumDims;
  localparam int unsigned TorusDims  = Torus & ((1 << NumDims) - 1);  // bits of absent dims off
  localparam bit          AnyTorus   = TorusDims != 0;
  localparam int unsigned NumClasses = ((Dateline != 0) && AnyTorus) ? 2 : 1;
  localparam int unsigned NumVcs     = NumClasses * VcsPerClass;
  // Input VC i = p*NumVcs + v; output VC k = o*NumVcs + w (the same count).
  localparam int unsigned NumIvc     = NumPorts * NumVcs;
  localparam int unsigned PortW      = wc_pkg::idx_width(NumPorts);
  localparam int unsigned VcW        = wc_pkg::idx_width(NumVcs);
  localparam int unsigned IvcW       = wc_pkg::idx_width(NumIvc);
  localparam int unsigned SlotW      = wc_pkg::idx_width(BufDepth);
  localparam int unsigned CntW       = $clog2(BufDepth + 1);
  // A flit competes RouterDelay (+ LinkDelay on network inputs) cycles after it arrived; the
  // last Delay-1 arrivals of a port are therefore still too young (see gen_young).
  localparam int unsigned NetDelay   = RouterDelay + LinkDelay;
  localparam int unsigned AgeW       = 5;  // counts up to 15 young flits (delay <= 16)

  // Stored flit: everything but valid and vc (the VC is implied by the FIFO, and rewritten on
  // the way out), plus the route computed at arrival.
  localparam int unsigned DataW      = 3 + wc_pkg::FlitDstW + wc_pkg::FlitPayloadW;
  localparam int unsigned EHead      = 0;
  localparam int unsigned ETail      = 1;
  localparam int unsigned ETie       = 2;
  localparam int unsigned EDst       = 3;
  localparam int unsigned EPayload   = 3 + wc_pkg::FlitDstW;
  localparam int unsigned EPort      = DataW;              // output port of a head
  localparam int unsigned EClass     = DataW + PortW;      // its dateline class
  localparam int unsigned EClassEn   = DataW + PortW + 1;  // the class restricts the VC
  localparam int unsigned EntryW     = DataW + PortW + 2;

`ifndef SYNTHESIS
  // Parameter ranges of docs/router.md section 1 that the structure relies on.
  if (NumDims < 1 || NumDims > wc_pkg::MaxDims) begin : gen_bad_dims
    $error("wc_router: NumDims must be 1..4");
  end
  if (NumLocal != 1 && NumLocal != 2 * NumDims) begin : gen_bad_local
    $error("wc_router: NumLocal must be 1 (one-port) or 2*NumDims (all-port)");
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
`endif

`ifdef WC_BUG_SA_PTR
  localparam bit SaPtrBug = 1'b1;
`else
  localparam bit SaPtrBug = 1'b0;
`endif

  // ------------------------------------------------------------------------------------------
  // State
  // ------------------------------------------------------------------------------------------
  logic [EntryW-1:0] fifo_q    [NumIvc][BufDepth];
  logic [SlotW-1:0]  rd_q      [NumIvc];
  logic [SlotW-1:0]  wr_q      [NumIvc];
  logic [CntW-1:0]   cnt_q     [NumIvc];
  logic [NumIvc-1:0] active_q;
  logic [PortW-1:0]  out_port_q [NumIvc];
  logic [VcW-1:0]    out_vc_q  [NumIvc];
  logic [CntW-1:0]   credits_q [NumIvc];  // per output VC
  logic [NumIvc-1:0] alloc_q;             // per output VC

  logic [SlotW-1:0]  rd_d      [NumIvc];
  logic [SlotW-1:0]  wr_d      [NumIvc];
  logic [CntW-1:0]   cnt_d     [NumIvc];
  logic [NumIvc-1:0] active_d;
  logic [PortW-1:0]  out_port_d [NumIvc];
  logic [VcW-1:0]    out_vc_d  [NumIvc];
  logic [CntW-1:0]   credits_d [NumIvc];
  logic [NumIvc-1:0] alloc_d;

  // ------------------------------------------------------------------------------------------
  // Input side: unpack, route at arrival, young-flit history, credit return pipeline
  // ------------------------------------------------------------------------------------------
  logic [NumPorts-1:0]        in_valid;
  logic [NumPorts*VcW-1:0]    in_vc;
  logic [NumPorts*EntryW-1:0] in_entry;
  logic [NumIvc*AgeW-1:0]     young;     // flits of FIFO i that may not compete yet
  logic [NumPorts-1:0]        cret_valid;  // a credit that becomes usable at the next edge
  logic [NumPorts*VcW-1:0]    cret_vc;

  for (genvar p = 0; p < NumPorts; p++) begin : gen_in
    localparam int unsigned Delay = (p < NetPorts) ? NetDelay : RouterDelay;
    logic [wc_pkg::FlitW-1:0] flit;
    logic [PortW-1:0]         route_port;
    logic                     route_class, route_class_en;

    assign flit        = flit_i[p*wc_pkg::FlitW +: wc_pkg::FlitW];
    assign in_valid[p] = flit[wc_pkg::FlitValidBit];
    assign in_vc[p*VcW +: VcW] = flit[wc_pkg::FlitVcLsb +: VcW];

    // Routing at arrival instead of at the FIFO front gives the same decision (it depends only
    // on the flit and the input port) with one route unit per port instead of one per VC.
    wc_route #(
      .NumDims    (NumDims),
      .Radix0     (Radix0),
      .Radix1     (Radix1),
      .Radix2     (Radix2),
      .Radix3     (Radix3),
      .Torus      (TorusDims),
      .NumLocal   (NumLocal),
      .UseClasses (NumClasses == 2),
      .InPort     (p),
      .PortW      (PortW)
    ) i_route (
      .my_coord_i    (my_coord_i),
      .dst_i         (flit[wc_pkg::FlitDstLsb +: wc_pkg::FlitDstW]),
      .tie_i         (flit[wc_pkg::FlitTieBit]),
      .port_o        (route_port),
      .vc_class_o    (route_class),
      .vc_class_en_o (route_class_en)
    );

    assign in_entry[p*EntryW +: EntryW] = {route_class_en, route_class, route_port,
                                           flit[wc_pkg::FlitPayloadLsb +: wc_pkg::FlitPayloadW],
                                           flit[wc_pkg::FlitDstLsb +: wc_pkg::FlitDstW],
                                           flit[wc_pkg::FlitTieBit], flit[wc_pkg::FlitTailBit],
                                           flit[wc_pkg::FlitHeadBit]};

    // The vc field's bits above VcW and bits 63:56 carry nothing for this configuration.
    logic unused_flit_bits;
    assign unused_flit_bits = ^flit;

    // A flit that arrived in cycle a competes from cycle a + Delay on. It sits in its FIFO from
    // edge a+1, so it is too young exactly while it is among this port's last Delay-1 arrivals.
    // Those are the newest flits of their FIFO (nothing overtakes inside a VC and a too-young
    // flit cannot leave), so the front of FIFO i is eligible iff cnt > young[i].
    if (Delay > 1) begin : gen_young
      localparam int unsigned HistLen = Delay - 1;
      logic [HistLen-1:0] hist_valid_q;
      logic [VcW-1:0]     hist_vc_q [HistLen];

      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          hist_valid_q <= '0;
          for (int j = 0; j < HistLen; j++) begin
            hist_vc_q[j] <= '0;
          end
        end else begin
          hist_valid_q[0] <= in_valid[p];
          hist_vc_q[0]    <= in_vc[p*VcW +: VcW];
          for (int j = 1; j < HistLen; j++) begin
            hist_valid_q[j] <= hist_valid_q[j-1];
            hist_vc_q[j]    <= hist_vc_q[j-1];
          end
        end
      end

      always_comb begin
        for (int v = 0; v < NumVcs; v++) begin
          young[(p*NumVcs+v)*AgeW +: AgeW] = '0;
          for (int j = 0; j < HistLen; j++) begin
            if (hist_valid_q[j] && (hist_vc_q[j] == VcW'(v))) begin
              young[(p*NumVcs+v)*AgeW +: AgeW] = young[(p*NumVcs+v)*AgeW +: AgeW] + AgeW'(1);
            end
          end
        end
      end
    end else begin : gen_no_young
      assign young[p*NumVcs*AgeW +: NumVcs*AgeW] = '0;
    end

    // A credit sampled at edge t+1 (cycle t) may be used from cycle t+1+CreditDelay on:
    // CreditDelay register stages, then the counter update.
    logic          cin_valid;
    logic [VcW-1:0] cin_vc;
    assign cin_valid = credit_i[p*wc_pkg::CreditW + wc_pkg::CreditValidBit];
    assign cin_vc    = credit_i[p*wc_pkg::CreditW + wc_pkg::CreditVcLsb +: VcW];
    logic unused_credit_bits;
    assign unused_credit_bits = ^credit_i[p*wc_pkg::CreditW +: wc_pkg::CreditW];

    if (CreditDelay > 0) begin : gen_credit_pipe
      logic [CreditDelay-1:0] pipe_valid_q;
      logic [VcW-1:0]         pipe_vc_q [CreditDelay];

      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          pipe_valid_q <= '0;
          for (int j = 0; j < CreditDelay; j++) begin
            pipe_vc_q[j] <= '0;
          end
        end else begin
          pipe_valid_q[0] <= cin_valid;
          pipe_vc_q[0]    <= cin_vc;
          for (int j = 1; j < CreditDelay; j++) begin
            pipe_valid_q[j] <= pipe_valid_q[j-1];
            pipe_vc_q[j]    <= pipe_vc_q[j-1];
          end
        end
      end
      assign cret_valid[p]          = pipe_valid_q[CreditDelay-1];
      assign cret_vc[p*VcW +: VcW]  = pipe_vc_q[CreditDelay-1];
    end else begin : gen_credit_direct
      assign cret_valid[p]          = cin_valid;
      assign cret_vc[p*VcW +: VcW]  = cin_vc;
    end
  end

  // ------------------------------------------------------------------------------------------
  // 5.1 Front flit of every input VC and its eligibility
  // ------------------------------------------------------------------------------------------
  // Whole-vector operations where possible: a loop that writes single bits of a wide vector
  // costs Verilator one read-modify-write per bit.
  localparam logic [NumVcs-1:0] AllVcs    = '1;
  localparam logic [NumVcs-1:0] ClassMask = NumVcs'((1 << VcsPerClass) - 1);  // class p (0)

  logic [EntryW-1:0] front      [NumIvc];
  logic [NumIvc-1:0] eligible;
  logic [NumIvc-1:0] front_tail;
  logic [PortW-1:0]  front_port [NumIvc];
  logic [NumVcs-1:0] allowed    [NumIvc];  // output VCs the head's route admits (5.2)

  always_comb begin
    for (int i = 0; i < NumIvc; i++) begin
      front[i]      = fifo_q[i][rd_q[i]];
      eligible[i]   = (cnt_q[i] != '0) && (8'(cnt_q[i]) > 8'(young[i*AgeW +: AgeW]));
      front_tail[i] = front[i][ETail];
      front_port[i] = front[i][EPort +: PortW];
      allowed[i]    = !front[i][EClassEn] ? AllVcs :
                      front[i][EClass] ? (ClassMask << VcsPerClass) : ClassMask;
    end
  end

  // ------------------------------------------------------------------------------------------
  // 5.3 VC allocation
  // ------------------------------------------------------------------------------------------
  logic [NumVcs-1:0] port_free [NumPorts];  // free output VCs of each port
  logic [NumIvc-1:0] va_req;                // idle input VCs with an eligible head
  logic [NumVcs-1:0] va1_req   [NumIvc];    // stage 1: input VC i over output VCs w
  logic [NumIvc-1:0] va1_valid;
  logic [VcW-1:0]    va1_vc    [NumIvc];
  logic [NumVcs-1:0] va1_gnt   [NumIvc];
  logic [NumIvc-1:0] to_port   [NumPorts];  // input VCs whose head routes to port o
  logic [NumIvc-1:0] picks_vc  [NumVcs];    // input VCs whose stage 1 picked VC w
  logic [NumIvc-1:0] va2_req   [NumIvc];    // stage 2: output VC k over input VCs i
  logic [NumIvc-1:0] va2_valid;
  logic [IvcW-1:0]   unused_va2_idx [NumIvc];  // the one-hot grant is what stage 2 needs
  logic [NumIvc-1:0] va2_gnt   [NumIvc];
  logic [NumIvc-1:0] va_won;

  always_comb begin
    // Output VC (o, w) is free iff the previous packet's tail has left and, under the empty
    // policy, all its credits are back.
    for (int o = 0; o < NumPorts; o++) begin
      for (int w = 0; w < NumVcs; w++) begin
        port_free[o][w] = !alloc_q[o*NumVcs + w] &&
                          ((VcReallocTail != 0) || (credits_q[o*NumVcs + w] == CntW'(BufDepth)));
      end
    end
    va_req = ~active_q & eligible;
    for (int i = 0; i < NumIvc; i++) begin
      va1_req[i] = va_req[i] ? (port_free[front_port[i]] & allowed[i]) : '0;
    end
  end

  for (genvar i = 0; i < NumIvc; i++) begin : gen_va_in
    wc_rr_arbiter #(
      .N (NumVcs)
    ) i_arb (
      .clk_i     (clk_i),
      .rst_ni    (rst_ni),
      .req_i     (va1_req[i]),
      .advance_i (va_won[i]),
      .valid_o   (va1_valid[i]),
      .idx_o     (va1_vc[i]),
      .gnt_o     (va1_gnt[i])
    );
  end

  always_comb begin
    for (int o = 0; o < NumPorts; o++) begin
      to_port[o] = '0;
    end
    for (int w = 0; w < NumVcs; w++) begin
      picks_vc[w] = '0;
    end
    for (int i = 0; i < NumIvc; i++) begin
      to_port[front_port[i]][i] = 1'b1;
      for (int w = 0; w < NumVcs; w++) begin
        picks_vc[w][i] = va1_gnt[i][w];
      end
    end
    for (int k = 0; k < NumIvc; k++) begin
      va2_req[k] = va1_valid & to_port[k / NumVcs] & picks_vc[k % NumVcs];
    end
  end

  for (genvar k = 0; k < NumIvc; k++) begin : gen_va_out
    wc_rr_arbiter #(
      .N (NumIvc)
    ) i_arb (
      .clk_i     (clk_i),
      .rst_ni    (rst_ni),
      .req_i     (va2_req[k]),
      .advance_i (va2_valid[k]),
      .valid_o   (va2_valid[k]),
      .idx_o     (unused_va2_idx[k]),
      .gnt_o     (va2_gnt[k])
    );
  end

  // VC state including this cycle's grants: a head that gets its VC competes for the switch in
  // the same cycle.
  logic [NumIvc-1:0] act_now;
  logic [PortW-1:0]  port_now [NumIvc];
  logic [VcW-1:0]    vc_now   [NumIvc];

  always_comb begin
    va_won = '0;
    for (int k = 0; k < NumIvc; k++) begin
      va_won = va_won | va2_gnt[k];
    end
    act_now = active_q | va_won;
    for (int i = 0; i < NumIvc; i++) begin
      port_now[i] = active_q[i] ? out_port_q[i] : front_port[i];
      vc_now[i]   = active_q[i] ? out_vc_q[i] : va1_vc[i];
    end
  end

  // ------------------------------------------------------------------------------------------
  // 5.4 Switch allocation
  // ------------------------------------------------------------------------------------------
  logic [NumVcs-1:0]   port_credit [NumPorts];  // output VCs with a credit
  logic [NumIvc-1:0]   sa_req;
  logic [NumPorts-1:0] sa1_valid;
  logic [VcW-1:0]      sa1_vc   [NumPorts];
  logic [NumVcs-1:0]   sa1_gnt  [NumPorts];
  logic [PortW-1:0]    sel_port [NumPorts];  // output port of input p's chosen VC
  logic [VcW-1:0]      sel_ovc  [NumPorts];  // its output VC
  logic [EntryW-1:0]   sel_flit [NumPorts];  // its front flit
  logic [NumPorts-1:0] sa2_req  [NumPorts];  // output o over input ports p
  logic [NumPorts-1:0] sa2_valid;
  logic [PortW-1:0]    sa2_port [NumPorts];
  logic [NumPorts-1:0] sa2_gnt  [NumPorts];
  logic [NumPorts-1:0] sa_won;               // input port p's choice won its output

  always_comb begin
    for (int o = 0; o < NumPorts; o++) begin
      for (int w = 0; w < NumVcs; w++) begin
        port_credit[o][w] = credits_q[o*NumVcs + w] != '0;
      end
    end
    for (int i = 0; i < NumIvc; i++) begin
      sa_req[i] = act_now[i] && eligible[i] && port_credit[port_now[i]][vc_now[i]];
    end
  end

  for (genvar p = 0; p < NumPorts; p++) begin : gen_sa_in
    wc_rr_arbiter #(
      .N (NumVcs)
    ) i_arb (
      .clk_i     (clk_i),
      .rst_ni    (rst_ni),
      .req_i     (sa_req[p*NumVcs +: NumVcs]),
      .advance_i (sa_won[p]),
      .valid_o   (sa1_valid[p]),
      .idx_o     (sa1_vc[p]),
      .gnt_o     (sa1_gnt[p])
    );
  end

  always_comb begin
    for (int p = 0; p < NumPorts; p++) begin
      sel_port[p] = port_now[p*NumVcs + 32'(sa1_vc[p])];
      sel_ovc[p]  = vc_now[p*NumVcs + 32'(sa1_vc[p])];
      sel_flit[p] = front[p*NumVcs + 32'(sa1_vc[p])];
    end
    for (int o = 0; o < NumPorts; o++) begin
      sa2_req[o] = '0;
    end
    for (int p = 0; p < NumPorts; p++) begin
      sa2_req[sel_port[p]][p] = sa1_valid[p];
    end
  end

  for (genvar o = 0; o < NumPorts; o++) begin : gen_sa_out
    wc_rr_arbiter #(
      .N           (NumPorts),
      .PtrOnWinner (SaPtrBug)
    ) i_arb (
      .clk_i     (clk_i),
      .rst_ni    (rst_ni),
      .req_i     (sa2_req[o]),
      .advance_i (sa2_valid[o]),
      .valid_o   (sa2_valid[o]),
      .idx_o     (sa2_port[o]),
      .gnt_o     (sa2_gnt[o])
    );
  end

  always_comb begin
    sa_won = '0;
    for (int o = 0; o < NumPorts; o++) begin
      sa_won = sa_won | sa2_gnt[o];
    end
  end

  // ------------------------------------------------------------------------------------------
  // 5.5 Outputs of this cycle: the switch winners, everything else all-zero
  // ------------------------------------------------------------------------------------------
  logic [EntryW-1:0] out_flit [NumPorts];
  logic [VcW-1:0]    out_vc   [NumPorts];

  always_comb begin
    for (int o = 0; o < NumPorts; o++) begin
      out_flit[o] = sel_flit[sa2_port[o]];
      out_vc[o]   = sel_ovc[sa2_port[o]];
      flit_o[o*wc_pkg::FlitW +: wc_pkg::FlitW] = '0;
      if (sa2_valid[o]) begin
        flit_o[o*wc_pkg::FlitW +: wc_pkg::FlitW] = {
            8'b0,
            out_flit[o][EPayload +: wc_pkg::FlitPayloadW],
            out_flit[o][EDst +: wc_pkg::FlitDstW],
            wc_pkg::FlitVcW'(out_vc[o]),
            out_flit[o][ETie], out_flit[o][ETail], out_flit[o][EHead], 1'b1};
      end
    end
    for (int p = 0; p < NumPorts; p++) begin
      credit_o[p*wc_pkg::CreditW +: wc_pkg::CreditW] =
          sa_won[p] ? {wc_pkg::CreditVcW'(sa1_vc[p]), 1'b1} : '0;
    end
  end

  // ------------------------------------------------------------------------------------------
  // Section 6: next state
  // ------------------------------------------------------------------------------------------
  logic [NumIvc-1:0] push, pop;
  logic [NumIvc-1:0] ovc_dec, ovc_release, ovc_inc;

  always_comb begin
    for (int p = 0; p < NumPorts; p++) begin
      push[p*NumVcs +: NumVcs] = in_valid[p] ? (NumVcs'(1) << in_vc[p*VcW +: VcW]) : '0;
      pop[p*NumVcs +: NumVcs]  = sa_won[p] ? sa1_gnt[p] : '0;
      // The winner of output port o spends a credit of its output VC; its tail frees the VC.
      ovc_dec[p*NumVcs +: NumVcs]     = sa2_valid[p] ? (NumVcs'(1) << out_vc[p]) : '0;
      ovc_release[p*NumVcs +: NumVcs] = out_flit[p][ETail] ? ovc_dec[p*NumVcs +: NumVcs] : '0;
      ovc_inc[p*NumVcs +: NumVcs]     =
          cret_valid[p] ? (NumVcs'(1) << cret_vc[p*VcW +: VcW]) : '0;
    end

    active_d = act_now & ~(pop & front_tail);
    alloc_d  = (alloc_q | va2_valid) & ~ovc_release;
    for (int i = 0; i < NumIvc; i++) begin
      rd_d[i] = rd_q[i];
      wr_d[i] = wr_q[i];
      if (pop[i]) begin
        rd_d[i] = (rd_q[i] == SlotW'(BufDepth - 1)) ? '0 : rd_q[i] + SlotW'(1);
      end
      if (push[i]) begin
        wr_d[i] = (wr_q[i] == SlotW'(BufDepth - 1)) ? '0 : wr_q[i] + SlotW'(1);
      end
      cnt_d[i]      = cnt_q[i] + CntW'(push[i]) - CntW'(pop[i]);
      out_port_d[i] = port_now[i];
      out_vc_d[i]   = vc_now[i];
      credits_d[i]  = credits_q[i] + CntW'(ovc_inc[i]) - CntW'(ovc_dec[i]);
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      active_q <= '0;
      alloc_q  <= '0;
    end else begin
      active_q <= active_d;
      alloc_q  <= alloc_d;
    end
  end

  // One register block per VC: Verilator cannot keep non-blocking array writes in loops it
  // does not unroll (256 VCs at the largest configuration).
  for (genvar i = 0; i < NumIvc; i++) begin : gen_vc_state
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        rd_q[i]       <= '0;
        wr_q[i]       <= '0;
        cnt_q[i]      <= '0;
        out_port_q[i] <= '0;
        out_vc_q[i]   <= '0;
        credits_q[i]  <= CntW'(BufDepth);
      end else begin
        rd_q[i]       <= rd_d[i];
        wr_q[i]       <= wr_d[i];
        cnt_q[i]      <= cnt_d[i];
        out_port_q[i] <= out_port_d[i];
        out_vc_q[i]   <= out_vc_d[i];
        credits_q[i]  <= credits_d[i];
      end
    end

    // Buffer storage needs no reset: a slot is read only after it was written.
    always_ff @(posedge clk_i) begin
      if (push[i]) begin
        fifo_q[i][wr_q[i]] <= in_entry[(i / NumVcs)*EntryW +: EntryW];
      end
    end
  end

  // ------------------------------------------------------------------------------------------
  // Internal errors of section 6 (simulation only)
  // ------------------------------------------------------------------------------------------
`ifndef SYNTHESIS
  // Same clocking as the state, so that reset is used asynchronously only.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      // Nothing to check in reset.
    end else begin
      for (int i = 0; i < NumIvc; i++) begin
        if (push[i] && !pop[i] && (cnt_q[i] == CntW'(BufDepth))) begin
          $error("wc_router: input buffer overflow, input VC %0d", i);
        end
        if (va_req[i] && !front[i][EHead]) begin
          $error("wc_router: body flit on an idle VC, input VC %0d", i);
        end
      end
      for (int k = 0; k < NumIvc; k++) begin
        if (ovc_inc[k] && !ovc_dec[k] && (credits_q[k] == CntW'(BufDepth))) begin
          $error("wc_router: credit above buffer depth, output VC %0d", k);
        end
      end
      for (int p = 0; p < NumPorts; p++) begin
        if (in_valid[p] && (32'(flit_i[p*wc_pkg::FlitW + wc_pkg::FlitVcLsb +: wc_pkg::FlitVcW])
                            >= NumVcs)) begin
          $error("wc_router: flit for VC out of range on input %0d", p);
        end
      end
    end
  end
`endif

endmodule
