// The router families built into the library: one registration line per family.
#include "systemc/common/family.h"
#include "systemc/torus/network.h"

namespace wormcast {

void register_builtin_families() {
  register_family(torus_family());
}

}  // namespace wormcast
