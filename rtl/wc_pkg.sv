// Shared types and constants of the router RTL: flit and credit layout (docs/router.md section 3),
// the buffer entry, port numbering and the limits the top wrapper is built for.
package wc_pkg;

  // Port numbering is one scheme everywhere: port = 2*dim + dir, dir 0 = plus, 1 = minus;
  // the P local ports follow at 2n .. 2n+P-1 (the same comment as sw/topology/topology.h).
  // An interlaced bypass torus (IbtLens > 0) has two network ports more, 2n = bypass+ and
  // 2n+1 = bypass-, and its local ports follow at 2n+2 .. 2n+1+P (docs/router.md section 10).
  localparam int unsigned MaxDims  = 4;
  localparam int unsigned MaxPorts = 16;  // 2*MaxDims network ports + 2*MaxDims local ports
  localparam int unsigned MaxIbtLens = 4;  // bypass lengths b1..b4 of an iBT(n^d; <b1..bk>)
  localparam int unsigned MaxVcs   = 16;  // the vc field is 4 bits
  localparam int unsigned CoordW   = 8;   // radix <= 256: one coordinate in 8 bits
  localparam int unsigned PortIdxW = 4;   // an index of one of MaxPorts ports

  // Flit word, identical to Flit::pack()/unpack() in systemc/torus/flit.h.
  localparam int unsigned FlitW        = 64;
  localparam int unsigned FlitVcW      = 4;
  localparam int unsigned FlitDstW     = 16;
  localparam int unsigned FlitPayloadW = 32;
  localparam int unsigned FlitRsvdW    = 8;

  typedef struct packed {
    logic [FlitRsvdW-1:0]    rsvd;     // bits 63:56: ignored on inputs, zero on outputs
    logic [FlitPayloadW-1:0] payload;  // bits 55:24, opaque to the router
    logic [FlitDstW-1:0]     dst;      // bits 23:8, destination node id
    logic [FlitVcW-1:0]      vc;       // bits 7:4, VC on this link
    logic                    tie;      // bit 3: distance-k/2 dimension, take minus
    logic                    tail;     // bit 2: last flit of a packet
    logic                    head;     // bit 1: first flit of a packet
    logic                    valid;    // bit 0: the wire carries a flit this cycle
  } flit_t;

  // Credit word, identical to Credit::pack()/unpack().
  localparam int unsigned CreditW   = 5;
  localparam int unsigned CreditVcW = 4;

  typedef struct packed {
    logic [CreditVcW-1:0] vc;     // bits 4:1: the VC whose buffer freed a slot
    logic                 valid;  // bit 0
  } credit_t;

  // Unicast routing of an interlaced bypass torus (ibt.routing, docs/router.md section 10).
  localparam int unsigned IbtRoutingDor    = 0;  // dimension order over the torus ports
  localparam int unsigned IbtRoutingBypass = 1;  // the source's bypass ring first, then dor

  // The router's separable allocator (router.allocator, docs/router.md 5.6): wc_router Allocator.
  localparam int unsigned AllocatorInputFirst  = 0;
  localparam int unsigned AllocatorOutputFirst = 1;
  localparam int unsigned AllocatorIslip       = 2;
  // The rule of one allocator unit (wc_sep_alloc Rule).
  localparam int unsigned AllocRuleInputFirst = 0;  // wc_sep_if_alloc
  localparam int unsigned AllocRuleIslip      = 1;  // wc_islip_alloc (output-first: 1 iteration)
  localparam int unsigned AllocRuleIslipPort  = 2;  // wc_islip_alloc accepting by resource

  // Dateline VC class of a route through a torus dimension (docs/router.md 5.2).
  typedef enum logic {
    VcClassP  = 1'b0,  // the rest of this dimension's path still takes the wraparound link
    VcClassLh = 1'b1   // it does not (l/h)
  } vc_class_e;

  // Route of a head flit (docs/router.md 5.2).
  typedef struct packed {
    logic [PortIdxW-1:0] port;      // output port
    vc_class_e           vc_class;  // dateline class of the output VC
    logic                class_en;  // the class restricts the output VC (two classes, torus dim)
  } route_t;

  // A flit as an input buffer holds it: everything but valid and vc (the buffer implies the VC,
  // which is rewritten on the way out), plus the route computed at arrival.
  typedef struct packed {
    route_t                  route;
    logic [FlitPayloadW-1:0] payload;
    logic [FlitDstW-1:0]     dst;
    logic                    tie;
    logic                    tail;
    logic                    head;
  } entry_t;

  // Widths of the structs, spelled out because Yosys 0.23 has no $bits() of a type (checked
  // against $bits() in wc_router).
  localparam int unsigned RouteW = PortIdxW + 2;
  localparam int unsigned EntryW = RouteW + FlitPayloadW + FlitDstW + 3;

  // Largest arbiter: all input VCs of the largest router (MaxPorts * MaxVcs).
  localparam int unsigned MaxArbN = MaxPorts * MaxVcs;

  // Bit i set iff bit b of the number i is set: OR-ing a one-hot vector under this mask gives
  // bit b of its index (a one-hot-to-binary encoder without a loop over the requesters).
  function automatic [MaxArbN-1:0] index_bit_mask(input integer b);
    integer i;
    for (i = 0; i < MaxArbN; i = i + 1) begin
      index_bit_mask[i] = ((i >> b) & 1) != 0;
    end
  endfunction

  // Index width for n things; at least 1 so that a 1-entry vector still has a valid type.
  function automatic integer idx_width(input integer n);
    idx_width = (n > 1) ? $clog2(n) : 1;
  endfunction

endpackage
