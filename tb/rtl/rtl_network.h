// Installs the Verilated router builds of this program as the RTL library of the network builder
// (router.model = rtl / mixed; mway.model = rtl). No Verilator or SystemC headers here: main()
// can include it.
#pragma once

namespace wormcast {

/// Registers every non-broken build of rtl/configs.txt with install_rtl_library() and of
/// rtl/mway/configs.txt with install_mway_rtl_library().
void install_rtl_routers();

}  // namespace wormcast
