// An internal invariant of a router or NIC model broke: the run stops with a fatal SystemC report
// naming the module and what broke. Out of line and marked cold, so that a hot path that checks an
// invariant builds no message (and spills nothing for one) unless the check fails.
#pragma once

#include <string>

namespace wormcast {

/// Reports "where: what" as a fatal error of message type `type` (e.g. "wormcast/router") and
/// aborts.
[[noreturn, gnu::cold, gnu::noinline]] void model_error(const char* type, const std::string& where,
                                                        const std::string& what);
/// The same with a port or channel index after `what`.
[[noreturn, gnu::cold, gnu::noinline]] void model_error(const char* type, const char* where, const char* what,
                                                        int index);

}  // namespace wormcast
