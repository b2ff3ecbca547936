// Version and commit strings, from the project version and the build-time commit header.
#include "systemc/common/version.h"

#include "wormcast_commit.h"

namespace wormcast {

const char* version() { return WORMCAST_VERSION; }
const char* commit() { return WORMCAST_COMMIT; }

}  // namespace wormcast
