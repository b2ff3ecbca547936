// The registry of Verilated m-way fabrics (mway.model = rtl).
#include "systemc/mway/fabric_if.h"

namespace wormcast {

namespace {
MwayRtlLibrary& library() {
  static MwayRtlLibrary lib;
  return lib;
}
}  // namespace

void install_mway_rtl_library(MwayRtlLibrary lib) { library() = std::move(lib); }

const MwayRtlLibrary& mway_rtl_library() { return library(); }

}  // namespace wormcast
