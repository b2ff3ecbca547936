// The command path with a choice of what is registered (tb/cli/cmd_run.cpp).
#pragma once

namespace wormcast {

/// run_commands (tb/cli/commands.h) with `named_only`: when the first argument names a command,
/// only that command (or the group run/traffic/config) is registered, which parses its command
/// line alike at a fraction of the cost of registering every command (the fuzz target of the
/// input layer, tests/fuzz, runs millions of command lines).
int run_commands_registering(int argc, const char* const* argv, bool named_only);

}  // namespace wormcast
