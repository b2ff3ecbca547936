// The m-way router RTL in compilation order (Verilator -F format: paths relative to this file).
// Read by rtl/CMakeLists.txt (lint, Verilated models) and scripts/synth.
+incdir+..
../wc_pkg.sv
../wc_rr_arbiter.sv
wc_mw_pkg.sv
wc_mw_route.sv
wc_mw_amu.sv
wc_mw_buf_arb.sv
wc_mw_replica.sv
wc_mw_buffer_set.sv
wc_mw_ej_set.sv
wc_mw_loader.sv
wc_mw_node_if.sv
wc_mw_router.sv
wc_mw_chan_arb.sv
wc_mw_order.sv
wc_mw_tap.sv
wc_mw_chan_res.sv
wc_mw_channel.sv
wc_mw_fabric.sv
