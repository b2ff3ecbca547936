// The router RTL in compilation order (Verilator -F format: paths relative to this file).
// Read by rtl/CMakeLists.txt (lint, Verilated models) and scripts/synth.
+incdir+.
wc_pkg.sv
wc_rr_arbiter.sv
wc_sep_if_alloc.sv
wc_islip_alloc.sv
wc_sep_alloc.sv
wc_route.sv
wc_input_vc.sv
wc_input_port.sv
wc_credit_pipe.sv
wc_router.sv
wc_router_top.sv
