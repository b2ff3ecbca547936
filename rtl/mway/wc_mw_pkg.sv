// Shared constants of the k-ary m-way router RTL (docs/mway.md, docs/rtl-mway.md):
// flit tags, message kinds, algorithms, buffer-set roles, and the layout of the header word.
package wc_mw_pkg;

  // Driver and way numbers on a channel are one scheme everywhere: p = 2*dim + dir (dir 0 =
  // plus, 1 = minus), the node last at p = 2n (the same comment as systemc/mway/types.h).
  localparam int unsigned MaxDims = 4;

  // Flit tag on a channel (the paper's Fig. 3), the values of MwayTag.
  localparam logic [1:0] TagI = 2'd0;  // nobody drives
  localparam logic [1:0] TagH = 2'd1;  // header
  localparam logic [1:0] TagB = 2'd2;  // body
  localparam logic [1:0] TagT = 2'd3;  // tail

  // Message kind carried in the header, the values of MwayKind.
  localparam logic [1:0] KindUnicast = 2'd0;  // dimension order to dst
  localparam logic [1:0] KindTree    = 2'd1;  // MST family: Ways and sub-Regions from the Region
  localparam logic [1:0] KindForward = 2'd2;  // a forwarded copy: dimension order to dst

  // Algorithm, the order of MwayAlgorithm.
  localparam int unsigned AlgUnicast    = 0;
  localparam int unsigned AlgMst        = 1;
  localparam int unsigned AlgMstSafe    = 2;
  localparam int unsigned AlgMstReplica = 3;
  localparam int unsigned AlgMstUnicast = 4;
  localparam int unsigned AlgRd         = 5;

  // Header bid rule (MwayHeaderBid).
  localparam int unsigned BidStat  = 0;
  localparam int unsigned BidBlind = 1;

  // Role of a buffer set that drives a channel.
  localparam int unsigned RoleRouter    = 0;  // DIM+ or DIM- set: receives and drives
  localparam int unsigned RoleInjection = 1;  // node interface: written by the loader, drives

  // Test hooks (wc_mw_fabric Bug): each breaks the contract on purpose so that the lockstep test
  // can prove it notices.
  localparam int unsigned BugNone      = 0;
  localparam int unsigned BugOrderSwap = 1;  // ordered reservation from the highest way down
  localparam int unsigned BugCamTail   = 2;  // the body content search ignores T

  // Index width for n things; at least 1 so that a 1-entry vector still has a valid type.
  function automatic integer idx_width(input integer n);
    idx_width = (n > 1) ? $clog2(n) : 1;
  endfunction

  // The header word (the paper's Fig. 3 header fields as the model carries them), LSB first:
  //   id [IdW] | len [LenW] | kind [2] | dst [n*CoordW] | lo [n*CoordW] | hi [n*CoordW]
  // Coordinate d of dst, lo and hi at d*CoordW within its field. One C++ pack/unpack
  // (tb/rtl/mway/mw_layout.h) mirrors it.
  function automatic integer hdr_width(input integer num_dims, input integer coord_w,
                                       input integer id_w, input integer len_w);
    hdr_width = id_w + len_w + 2 + 3 * num_dims * coord_w;
  endfunction

endpackage
