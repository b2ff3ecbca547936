// Buffer arbiter of a driving buffer set (docs/mway.md section 4.1): which buffers may bid for
// the output channel this cycle, and round robin among them. A header bids while it still has
// ways to reach and (Stat-aware) the Stat lines show a free buffer where it must allocate next;
// a body or tail flit bids once its header reached every way and no receiver buffer is full (RF).
module wc_mw_buf_arb #(
  /// Buffers of the set.
  parameter int unsigned Rows      = 4,
  /// Ways m on the output channel.
  parameter int unsigned M         = 5,
  /// wc_mw_pkg::Alg*: plain MST allocates a tree's ways unordered.
  parameter int unsigned Algorithm = wc_mw_pkg::AlgMstSafe,
  /// wc_mw_pkg::BidStat or BidBlind.
  parameter int unsigned HeaderBid = wc_mw_pkg::BidStat,
  /// Width of a row index. Derived; do not override.
  parameter int unsigned RowW      = wc_mw_pkg::idx_width(Rows)
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  input  logic [Rows-1:0]   nonempty_i,  // the buffer holds a flit
  input  logic [Rows-1:0]   front_h_i,   // its front flit is a header
  input  logic [Rows-1:0]   tree_i,      // its message is a tree (MST family)
  input  logic [Rows*M-1:0] pending_i,   // ways its header has still to reach
  input  logic [Rows*M-1:0] reserved_i,  // ways holding a reservation for it
  input  logic [Rows-1:0]   hdone_i,     // its header reached every way
  input  logic [Rows-1:0]   rf_i,        // RF: a receiver buffer of its message is full
  input  logic [M-1:0]      free_i,      // Stat: receiver set p has a free buffer
  input  logic              won_i,       // the set won the channel this cycle
  output logic [Rows-1:0]   elig_o,
  output logic              req_o,       // Pri: the set requests the channel
  output logic [RowW-1:0]   cand_o       // the buffer it offers
);

  always_comb begin
    for (int i = 0; i < Rows; i++) begin
      logic [M-1:0] pend, open, first;
      logic         may_bid;
      pend  = pending_i[i*M +: M];
      open  = pend & ~reserved_i[i*M +: M];
      first = open & (~open + M'(1));  // the lowest open way: where an ordered header goes next
      if (HeaderBid == wc_mw_pkg::BidBlind || open == '0) begin
        may_bid = 1'b1;
      end else if (Algorithm == wc_mw_pkg::AlgMst && tree_i[i]) begin
        may_bid = (open & free_i) != '0;
      end else begin
        may_bid = (first & free_i) != '0;
      end
      elig_o[i] = nonempty_i[i] && (front_h_i[i] ? (pend != '0) && may_bid : hdone_i[i] && !rf_i[i]);
    end
  end

  logic [Rows-1:0] gnt;

  wc_rr_arbiter #(
    .N (Rows)
  ) i_arb (
    .clk_i     (clk_i),
    .rst_ni    (rst_ni),
    .req_i     (elig_o),
    .advance_i (won_i),
    .valid_o   (req_o),
    .idx_o     (cand_o),
    .gnt_o     (gnt)
  );

  logic unused_gnt;
  assign unused_gnt = ^gnt;

endmodule
