// The router families built into the library: one registration line per family.
#include "systemc/common/family.h"
#include "systemc/ibt/network.h"
#include "systemc/mway/network.h"
#include "systemc/torus/network.h"

namespace wormcast {

void register_builtin_families() {
  register_family(torus_family());
  register_family(mway_family());
  register_family(ibt_family());
}

}  // namespace wormcast
