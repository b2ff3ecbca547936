// iSLIP whose groups accept by resource (docs/router.md section 11, "Switch accept"): the switch
// allocator of router.allocator = islip with router.switch_accept = port, BookSim2's. Groups are
// the input ports, their requests by local index their input VCs v, each naming its output port
// (the resource).
//
// Per iteration, among the groups and resources that no earlier iteration matched:
//   offer   every group offers each resource it requests one of its locals: the first from its
//           local pointer whose request names that resource;
//   grant   every resource picks one of the groups offering it, the first from its pointer over
//           the groups;
//   accept  every group that some resource granted picks one of those resources, the first from
//           its resource pointer over the resources; group, the local it offered that resource,
//           and resource are matched.
// Pointer rules, at the clock edge (all reset 0): a match of the first iteration moves its
// resource's pointer to group + 1 and its group's resource pointer to resource + 1; every match,
// of any iteration, moves its group's local pointer to local + 1 (mod their sizes). Every
// iteration reads the pointers of the edge (a group whose pointer moves is matched and takes no
// further part). The offer of a group is only needed for the resource it accepts, so the local
// is chosen after the accept, from the requests naming that resource.
//
// As in wc_islip_alloc, the iterations are unrolled (an iteration that matches nothing ends the
// SystemC unit's loop, SeparableAllocator::islip_ports, and leaves every later one matchless
// here), and the allocation works on planes, one vector over the groups per local index or
// resource; the round-robin picks of every group at once use thermometers of their pointers
// (res_ge, loc_ge) as wc_islip_alloc describes.
`include "wc_assert.svh"

module wc_islip_port_alloc #(
  /// Requesting groups.
  parameter int unsigned NumGroups      = 4,
  /// Requests per group, by local index.
  parameter int unsigned NumReqs        = 2,
  /// Resources.
  parameter int unsigned NumRes         = 4,
  /// Iterations I (1..8).
  parameter int unsigned Iters          = 1,
  /// Test hook only: 1 makes the resource pointers move onto the winner instead of past it,
  /// which breaks the contract on purpose (as wc_sep_if_alloc ResPtrOnWinner).
  parameter bit          ResPtrOnWinner = 1'b0,
  /// Width of a local request index. Derived; do not override.
  parameter int unsigned ReqW           = wc_pkg::idx_width(NumReqs),
  /// Width of a group index. Derived; do not override.
  parameter int unsigned GroupW         = wc_pkg::idx_width(NumGroups),
  /// Width of a resource index. Derived; do not override.
  parameter int unsigned ResW           = wc_pkg::idx_width(NumRes)
) (
  input  logic                              clk_i,
  input  logic                              rst_ni,
  // Request l of group g at bit g*NumReqs + l; the resource it names at (g*NumReqs + l)*ResW.
  input  logic [NumGroups*NumReqs-1:0]      req_i,
  input  logic [NumGroups*NumReqs*ResW-1:0] res_i,
  // Per group: matched; the local index matched (zero unless matched); one-hot of it.
  output logic [NumGroups-1:0]              won_o,
  output logic [NumGroups*ReqW-1:0]         pick_o,
  output logic [NumGroups*NumReqs-1:0]      gnt_o,
  // Per resource: matched, and to which group.
  output logic [NumRes-1:0]                 res_valid_o,
  output logic [NumRes*GroupW-1:0]          res_group_o
);

`ifndef SYNTHESIS
  if (Iters < 1 || Iters > 8) begin : gen_bad_iters
    $error("wc_islip_port_alloc: Iters must be 1..8");
  end
`endif

  logic [NumGroups*ReqW-1:0] loc_ptr_d;   // per group, over its local indices
  logic [NumGroups*ReqW-1:0] loc_ptr_q;
  logic [NumGroups*ResW-1:0] gres_ptr_d;  // per group, over the resources
  logic [NumGroups*ResW-1:0] gres_ptr_q;
  logic [NumRes*GroupW-1:0]  res_ptr_d;   // per resource, over the groups
  logic [NumRes*GroupW-1:0]  res_ptr_q;

  // ------------------------------------------------------------------------------------------
  // Request planes (as wc_islip_alloc) and pointer thermometers
  // ------------------------------------------------------------------------------------------
  logic [NumGroups-1:0] req_plane [NumReqs];
  logic [NumGroups-1:0] res_plane [NumReqs*ResW];
  logic [NumGroups-1:0] hit       [NumRes*NumReqs];  // groups whose request l names resource r
  logic [NumGroups-1:0] res_req   [NumRes];          // groups requesting resource r
  logic [NumGroups-1:0] loc_ge    [NumReqs];         // groups whose local pointer is <= l
  logic [NumGroups-1:0] res_ge    [NumRes];          // groups whose resource pointer is <= r

  always_comb begin
    for (int l = 0; l < NumReqs; l++) begin
      for (int g = 0; g < NumGroups; g++) begin
        req_plane[l][g] = req_i[g*NumReqs + l];
        loc_ge[l][g]    = 32'(loc_ptr_q[g*ReqW +: ReqW]) <= l;
        for (int b = 0; b < ResW; b++) begin
          res_plane[l*ResW + b][g] = res_i[(g*NumReqs + l)*ResW + b];
        end
      end
    end
    for (int r = 0; r < NumRes; r++) begin
      for (int g = 0; g < NumGroups; g++) begin
        res_ge[r][g] = 32'(gres_ptr_q[g*ResW +: ResW]) <= r;
      end
    end
  end

  for (genvar r = 0; r < NumRes; r++) begin : gen_hit
    always_comb begin
      res_req[r] = '0;
      for (int l = 0; l < NumReqs; l++) begin
        hit[r*NumReqs + l] = req_plane[l];
        for (int b = ResW - 1; b >= 0; b--) begin
          hit[r*NumReqs + l] = hit[r*NumReqs + l] &
              (((r >> b) & 1) != 0 ? res_plane[l*ResW + b] : ~res_plane[l*ResW + b]);
        end
        res_req[r] = res_req[r] | hit[r*NumReqs + l];
      end
    end
  end

  // ------------------------------------------------------------------------------------------
  // Iterations
  // ------------------------------------------------------------------------------------------
  logic [NumGroups-1:0] g_free;                 // groups not matched yet
  logic [NumRes-1:0]    r_free;                 // resources not matched yet
  logic [NumGroups-1:0] offer, upper, upper_any, found, found_loc;
  logic [NumGroups-1:0] gnt       [NumRes];     // this iteration's grant of resource r (one-hot)
  logic [NumGroups-1:0] racc      [NumRes];     // the group that accepted resource r (one-hot)
  logic [NumGroups-1:0] cand      [NumReqs];    // requests l naming the accepted resource
  logic [NumGroups-1:0] sel       [NumReqs];    // this iteration's local l
  logic [NumGroups-1:0] won_sel   [NumReqs];    // the matched local l of every iteration
  logic [NumGroups-1:0] first_acc [NumRes];     // racc of the first iteration
  logic [NumGroups-1:0] res_win   [NumRes];     // the group matched to resource r (one-hot)
  logic [NumRes-1:0]    res_first;              // resource r matched in the first iteration
  logic                 stop_ok;                // every matchless iteration left no free pair
  logic                 local_ok;               // every accepting group had a local to offer

  always_comb begin
    g_free    = '1;
    r_free    = '1;
    res_first = '0;
    stop_ok   = 1'b1;
    local_ok  = 1'b1;
    offer     = '0;
    upper     = '0;
    upper_any = '0;
    found     = '0;
    found_loc = '0;
    for (int r = 0; r < NumRes; r++) begin
      gnt[r]       = '0;
      racc[r]      = '0;
      first_acc[r] = '0;
      res_win[r]   = '0;
    end
    for (int l = 0; l < NumReqs; l++) begin
      cand[l]    = '0;
      sel[l]     = '0;
      won_sel[l] = '0;
    end
    for (int it = 0; it < Iters; it++) begin
      // Grant: every free resource, the first free requesting group from its pointer.
      for (int r = 0; r < NumRes; r++) begin
        offer  = r_free[r] ? (res_req[r] & g_free) : '0;
        upper  = offer & ({NumGroups{1'b1}} << res_ptr_q[r*GroupW +: GroupW]);
        gnt[r] = (upper != '0) ? (upper & (~upper + NumGroups'(1)))
                               : (offer & (~offer + NumGroups'(1)));
      end
      // Accept: every granted group, the first granting resource from its resource pointer.
      upper_any = '0;
      for (int r = 0; r < NumRes; r++) begin
        upper_any = upper_any | (gnt[r] & res_ge[r]);
      end
      found = '0;
      for (int r = 0; r < NumRes; r++) begin
        racc[r] = gnt[r] & (res_ge[r] | ~upper_any) & ~found;
        found   = found | racc[r];
        if (racc[r] != '0) begin
          res_win[r] = racc[r];
          r_free[r]  = 1'b0;
          if (it == 0) begin
            res_first[r] = 1'b1;
            first_acc[r] = racc[r];
          end
        end
      end
      // The local each accepting group offered its resource: the first naming it from the
      // group's local pointer.
      upper_any = '0;
      for (int l = 0; l < NumReqs; l++) begin
        cand[l] = '0;
        for (int r = 0; r < NumRes; r++) begin
          cand[l] = cand[l] | (hit[r*NumReqs + l] & racc[r]);
        end
        upper_any = upper_any | (cand[l] & loc_ge[l]);
      end
      found_loc = '0;
      for (int l = 0; l < NumReqs; l++) begin
        sel[l]     = cand[l] & (loc_ge[l] | ~upper_any) & ~found_loc;
        found_loc  = found_loc | sel[l];
        won_sel[l] = won_sel[l] | sel[l];
      end
      if (found_loc != found) local_ok = 1'b0;
      // No grant means no free group requests a free resource (StopOnlyMaximal_A).
      if (found == '0) begin
        for (int r = 0; r < NumRes; r++) begin
          if (r_free[r] && (res_req[r] & g_free) != '0) stop_ok = 1'b0;
        end
      end
      g_free = g_free & ~found;
    end
  end

  // ------------------------------------------------------------------------------------------
  // Outputs and pointers
  // ------------------------------------------------------------------------------------------
  always_comb begin
    won_o  = '0;
    pick_o = '0;
    gnt_o  = '0;
    for (int g = 0; g < NumGroups; g++) begin
      loc_ptr_d[g*ReqW +: ReqW]  = loc_ptr_q[g*ReqW +: ReqW];
      gres_ptr_d[g*ResW +: ResW] = gres_ptr_q[g*ResW +: ResW];
      for (int l = 0; l < NumReqs; l++) begin
        gnt_o[g*NumReqs + l] = won_sel[l][g];
        if (won_sel[l][g]) begin
          won_o[g]               = 1'b1;
          pick_o[g*ReqW +: ReqW] = ReqW'(l);
          loc_ptr_d[g*ReqW +: ReqW]  = (l == NumReqs - 1) ? '0 : ReqW'(l + 1);
        end
      end
      for (int r = 0; r < NumRes; r++) begin
        if (first_acc[r][g]) begin
          gres_ptr_d[g*ResW +: ResW] = (r == NumRes - 1) ? '0 : ResW'(r + 1);
        end
      end
    end
  end

  // The index of each resource's matched group, one masked OR per index bit.
  logic [NumRes*GroupW-1:0] res_idx;

  for (genvar r = 0; r < NumRes; r++) begin : gen_res
    for (genvar b = 0; b < GroupW; b++) begin : gen_idx
      localparam logic [NumGroups-1:0] Members = NumGroups'(wc_pkg::index_bit_mask(b));
      assign res_idx[r*GroupW + b] = |(res_win[r] & Members);
    end
    assign res_valid_o[r] = res_win[r] != '0;
  end

  assign res_group_o = res_idx;

  always_comb begin
    res_ptr_d = res_ptr_q;
    for (int r = 0; r < NumRes; r++) begin
      if (res_first[r]) begin
        if (ResPtrOnWinner) begin
          res_ptr_d[r*GroupW +: GroupW] = res_idx[r*GroupW +: GroupW];
        end else if (res_idx[r*GroupW +: GroupW] == GroupW'(NumGroups - 1)) begin
          res_ptr_d[r*GroupW +: GroupW] = '0;
        end else begin
          res_ptr_d[r*GroupW +: GroupW] = res_idx[r*GroupW +: GroupW] + GroupW'(1);
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      loc_ptr_q <= '0;
      gres_ptr_q <= '0;
      res_ptr_q <= '0;
    end else begin
      loc_ptr_q <= loc_ptr_d;
      gres_ptr_q <= gres_ptr_d;
      res_ptr_q <= res_ptr_d;
    end
  end

  // ------------------------------------------------------------------------------------------
  // Rules
  // ------------------------------------------------------------------------------------------
  // A group is matched only through one of its requests.
  `WC_ASSERT(GntRequested_A, (gnt_o & ~req_i) == '0)
  // One group per matched resource, one resource per matched group.
  `WC_ASSERT(OneWinPerGrant_A, $countones(res_valid_o) == $countones(won_o))
  // A group that accepts a resource has a local requesting it to offer.
  `WC_ASSERT(LocalForAccept_A, local_ok)
  // An iteration that matches nothing leaves no free group requesting a free resource.
  `WC_ASSERT(StopOnlyMaximal_A, stop_ok)

endmodule
