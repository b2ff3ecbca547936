// Installs the Verilated routers as the RTL library of the network builder
// (router.model = rtl / mixed; mway.model = rtl). No Verilator or SystemC headers here: main()
// can include it.
#pragma once

namespace wormcast {

/// Registers the Verilated routers (any parameter set the RTL expresses, built on demand:
/// tb/rtl/rtl_cache.h) with install_rtl_library() and install_mway_rtl_library().
/// `prefix`: the installation whose Verilog sources and headers a build uses (null: the build tree
/// or the program's own installation).
void install_rtl_routers_at(const char* prefix);
/// install_rtl_routers_at the installation a consumer found with find_package(wormcast), whose
/// wormcast::rtl target defines WORMCAST_PREFIX.
inline void install_rtl_routers() {
#ifdef WORMCAST_PREFIX
  install_rtl_routers_at(WORMCAST_PREFIX);
#else
  install_rtl_routers_at(nullptr);
#endif
}

}  // namespace wormcast
