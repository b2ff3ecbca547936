// Separable output-first allocator iterated Iters times: iSLIP (docs/router.md 5.6); with one
// iteration it is output-first allocation. Its groups accept in one of two ways (AcceptByRes):
//
// - by local index (AcceptByRes = 0): the router uses it under router.allocator = output-first
//   (Iters = 1) and islip for VC allocation (groups: input VCs; requests: output VCs w of the
//   routed port; resources: output VCs) and, with router.switch_accept = vc, for switch
//   allocation (groups: input ports; requests: their input VCs v; resources: output ports).
// - by resource (AcceptByRes = 1): the switch allocator of router.allocator = islip with
//   router.switch_accept = port, BookSim2's (docs/router.md section 11, "Switch accept").
//
// Per iteration, among the groups and resources that no earlier iteration matched:
//   grant   every resource picks one of the groups requesting it, the first from its pointer
//           over the groups;
//   accept  by local index: every group that some resource granted picks one of its requests
//           whose resource granted it, the first from its local pointer over its local indices;
//           by resource: every granted group picks one of the resources that granted it, the
//           first from its resource pointer over the resources, and offers it the first local
//           from its local pointer whose request names that resource (a group offers each
//           resource one local; only the offer to the resource it accepts matters, so the local
//           is chosen after the accept). Group, local and resource are matched.
// Pointer rules, at the clock edge (all reset 0): a match of the first iteration moves its
// resource's pointer to group + 1 and, by resource, its group's resource pointer to resource +
// 1; the group's local pointer moves to local + 1 (mod their sizes) on a match of the first
// iteration when accepting by local index, on a match of any iteration when accepting by
// resource. Declined grants and unmatched requests move nothing. Every iteration reads the
// pointers of the edge (a group or resource whose pointer moves is matched and takes no part in
// later iterations). With Iters = 1 and by local index: an accepted grant moves both pointers, a
// declined one neither, which is the output-first rule.
//
// The iterations are unrolled into one combinational path (grant, accept, grant, ...). An
// iteration that matches nothing leaves the free groups and resources as they were, so every
// later iteration matches nothing too: running all Iters gives the result of stopping there, as
// the SystemC unit (SeparableAllocator::islip, islip_ports) does.
//
// The allocation works on planes: a plane is one vector over the groups holding one bit per group,
// so that a round of many groups is a few whole-vector operations. A round-robin pick of every
// group at once over its local indices uses its pointer as a thermometer: loc_ge[l] holds the
// groups whose local pointer is at or below l (res_ge[r] likewise for the resource pointer). The
// pick of a group is its lowest candidate at or above its pointer if it has one (`upper`), else
// its lowest candidate: in plane form, local l is picked where it is a candidate, at or above the
// pointer unless the group has no such candidate, and no lower local was picked.
`include "wc_assert.svh"

module wc_islip_alloc #(
  /// Requesting groups.
  parameter int unsigned NumGroups      = 4,
  /// Requests per group, by local index.
  parameter int unsigned NumReqs        = 2,
  /// Resources.
  parameter int unsigned NumRes         = 4,
  /// Iterations I (1..8); 1 is output-first allocation.
  parameter int unsigned Iters          = 1,
  /// Groups accept by resource (1) or by local index (0).
  parameter bit          AcceptByRes    = 1'b0,
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
    $error("wc_islip_alloc: Iters must be 1..8");
  end
`endif

  logic [NumGroups*ReqW-1:0] loc_ptr_d;   // per group, over its local indices
  logic [NumGroups*ReqW-1:0] loc_ptr_q;
  logic [NumGroups*ResW-1:0] gres_ptr_d;  // per group, over the resources (by resource only)
  logic [NumGroups*ResW-1:0] gres_ptr_q;
  logic [NumRes*GroupW-1:0]  res_ptr_d;   // per resource, over the groups
  logic [NumRes*GroupW-1:0]  res_ptr_q;

  // ------------------------------------------------------------------------------------------
  // Request planes
  // ------------------------------------------------------------------------------------------
  // req_plane[l]: the groups requesting through local l; res_plane[l*ResW + b]: bit b of the
  // resource each names; hit[r*NumReqs + l]: the groups whose request l names resource r;
  // res_req[r]: the groups requesting r. Built once per cycle, read by every iteration.
  logic [NumGroups-1:0] req_plane [NumReqs];
  logic [NumGroups-1:0] res_plane [NumReqs*ResW];
  logic [NumGroups-1:0] hit       [NumRes*NumReqs];
  logic [NumGroups-1:0] res_req   [NumRes];
  logic [NumGroups-1:0] loc_ge    [NumReqs];  // groups whose local pointer is <= l
  logic [NumGroups-1:0] res_ge    [NumRes];   // groups whose resource pointer is <= r

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

  // The most significant index bit first: resources that share upper index bits share the
  // partial ANDs.
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
  // Loop temporaries (module level, see wc_router) and the results of all iterations.
  logic [NumGroups-1:0] g_free;                 // groups not matched yet
  logic [NumRes-1:0]    r_free;                 // resources not matched yet
  logic [NumGroups-1:0] offer, upper, upper_any, found, found_loc, via;
  logic [NumGroups-1:0] gnt       [NumRes];     // this iteration's grant of resource r (one-hot)
  logic [NumGroups-1:0] racc      [NumRes];     // by resource: the group that accepted r (one-hot)
  logic [NumGroups-1:0] first_acc [NumRes];     // ... in the first iteration
  logic [NumGroups-1:0] cand      [NumReqs];    // requests l that may be the group's match
  logic [NumGroups-1:0] sel       [NumReqs];    // this iteration's matched local l
  logic [NumGroups-1:0] won_sel   [NumReqs];    // the matched local l of every iteration
  logic [NumGroups-1:0] first_sel [NumReqs];    // ... of the first iteration
  logic [NumGroups-1:0] res_win   [NumRes];     // the group matched to resource r (one-hot)
  logic [NumRes-1:0]    res_first;              // resource r matched in the first iteration
  logic                 stop_ok;                // every matchless iteration left no free pair
  logic                 local_ok;               // by resource: every accepting group had a local

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
    via       = '0;
    for (int r = 0; r < NumRes; r++) begin
      gnt[r]       = '0;
      racc[r]      = '0;
      first_acc[r] = '0;
      res_win[r]   = '0;
    end
    for (int l = 0; l < NumReqs; l++) begin
      cand[l]      = '0;
      sel[l]       = '0;
      won_sel[l]   = '0;
      first_sel[l] = '0;
    end
    for (int it = 0; it < Iters; it++) begin
      // Grant: every free resource, the first free requesting group from its pointer.
      for (int r = 0; r < NumRes; r++) begin
        offer  = r_free[r] ? (res_req[r] & g_free) : '0;
        upper  = offer & ({NumGroups{1'b1}} << res_ptr_q[r*GroupW +: GroupW]);
        gnt[r] = (upper != '0) ? (upper & (~upper + NumGroups'(1)))
                               : (offer & (~offer + NumGroups'(1)));
      end
      if (AcceptByRes) begin
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
        // The candidates: the requests naming the accepted resource.
        for (int l = 0; l < NumReqs; l++) begin
          cand[l] = '0;
          for (int r = 0; r < NumRes; r++) begin
            cand[l] = cand[l] | (hit[r*NumReqs + l] & racc[r]);
          end
        end
      end else begin
        // The candidates: the requests whose resource granted their group.
        for (int l = 0; l < NumReqs; l++) begin
          cand[l] = '0;
          for (int r = 0; r < NumRes; r++) begin
            cand[l] = cand[l] | (hit[r*NumReqs + l] & gnt[r]);
          end
        end
      end
      // Every group with a candidate: the first from its local pointer.
      upper_any = '0;
      for (int l = 0; l < NumReqs; l++) begin
        upper_any = upper_any | (cand[l] & loc_ge[l]);
      end
      found_loc = '0;
      for (int l = 0; l < NumReqs; l++) begin
        sel[l]     = cand[l] & (loc_ge[l] | ~upper_any) & ~found_loc;
        found_loc  = found_loc | sel[l];
        won_sel[l] = won_sel[l] | sel[l];
        if (it == 0) first_sel[l] = sel[l];
      end
      if (AcceptByRes) begin
        if (found_loc != found) local_ok = 1'b0;
      end else begin
        found = found_loc;
        // The resource of each accepted request: matched to the group it granted.
        for (int r = 0; r < NumRes; r++) begin
          via = '0;
          for (int l = 0; l < NumReqs; l++) begin
            via = via | (hit[r*NumReqs + l] & sel[l]);
          end
          if ((gnt[r] & via) != '0) begin
            res_win[r] = gnt[r];
            r_free[r]  = 1'b0;
            if (it == 0) res_first[r] = 1'b1;
          end
        end
      end
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
        end
        if (AcceptByRes ? won_sel[l][g] : first_sel[l][g]) begin
          loc_ptr_d[g*ReqW +: ReqW] = (l == NumReqs - 1) ? '0 : ReqW'(l + 1);
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
      loc_ptr_q  <= '0;
      gres_ptr_q <= '0;
      res_ptr_q  <= '0;
    end else begin
      loc_ptr_q  <= loc_ptr_d;
      gres_ptr_q <= gres_ptr_d;
      res_ptr_q  <= res_ptr_d;
    end
  end

  // ------------------------------------------------------------------------------------------
  // Rules
  // ------------------------------------------------------------------------------------------
  // A group is matched only through one of its requests.
  `WC_ASSERT(GntRequested_A, (gnt_o & ~req_i) == '0)
  // One group per matched resource, one resource per matched group.
  `WC_ASSERT(OneWinPerGrant_A, $countones(res_valid_o) == $countones(won_o))
  // By resource: a group that accepts a resource has a local requesting it to offer.
  `WC_ASSERT(LocalForAccept_A, local_ok)
  // An iteration that matches nothing leaves no free group requesting a free resource: the
  // unrolled iterations equal stopping at the first matchless one.
  `WC_ASSERT(StopOnlyMaximal_A, stop_ok)

endmodule
