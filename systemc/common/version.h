// The version of the library and program, and the commit it was built from.
#pragma once

namespace wormcast {

/// "0.3.0"
const char* version();
/// The source tree's commit (git describe --always --dirty), "unknown" outside a checkout.
const char* commit();

}  // namespace wormcast
