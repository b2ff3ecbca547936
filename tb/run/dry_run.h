// Dry run: every command checks its command line and configuration and plans its outputs, then
// ends where its work would start (a simulation, a search, an output written), with exit 0. The
// input layer's fuzz target (tests/fuzz) runs millions of command lines so in one process.
#pragma once

#include <cstdint>

namespace wormcast {

/// Thrown where a dry run ends; set_command_action turns it into exit 0 (the command's planned
/// outputs are given up on the way, as on any error).
struct DryRunStop {};

void set_dry_run(bool on);
bool dry_run();
/// The largest network a dry run goes on with (schedules and step models are computed for it);
/// a larger one ends the dry run where its size is known.
constexpr int64_t kDryRunMaxNodes = 256;

/// In a dry run: ends the command here (throws DryRunStop). Otherwise nothing.
void dry_run_point();
/// In a dry run: ends the command here when the network has more than kDryRunMaxNodes nodes.
void dry_run_limit(int64_t nodes);

}  // namespace wormcast
