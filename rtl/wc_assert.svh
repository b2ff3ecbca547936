// Named assertions for the router RTL: `WC_ASSERT(Name, condition) checks the condition at every
// rising clk_i edge while rst_ni is high, as a block labelled Name, so a failure names the rule
// and its instance ("... Assertion failed in top.wc_router_top.i_router.Name: condition").
//
// The block has the clocking of the state (posedge clk_i, negedge rst_ni) and tests rst_ni inside
// it, so that reset is used asynchronously only and `verilator --lint-only -Wall --assert` stays
// clean; the condition is evaluated on the values of the cycle that ends at the edge. Checks are
// compiled only with Verilator's --assert and never reach synthesis.
//
// `WC_ASSERT_COMB(Name, condition) is the same for a module without a clock (wc_route): an
// immediate assertion evaluated whenever the condition's inputs change, so only for rules that
// hold for every input value.
`ifndef WC_ASSERT_SVH
`define WC_ASSERT_SVH

`ifdef SYNTHESIS
`define WC_ASSERT(__name, __prop)
`define WC_ASSERT_COMB(__name, __prop)
`else
`define WC_ASSERT(__name, __prop) \
  always_ff @(posedge clk_i or negedge rst_ni) begin : __name \
    if (rst_ni) begin \
      assert (__prop) else $error("%s", `"__prop`"); \
    end \
  end
`define WC_ASSERT_COMB(__name, __prop) \
  always_comb begin : __name \
    assert (__prop) else $error("%s", `"__prop`"); \
  end
`endif

`endif
