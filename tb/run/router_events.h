// The result's router events and their energy (router_activity and energy in the result JSON).
#pragma once

#include <nlohmann/json.hpp>

#include "systemc/common/config.h"
#include "tb/run/driver.h"

namespace wormcast {

class Network;

/// Adds `router_activity` (the window's event counts per router and in total, docs/statistics.md)
/// and `energy` (their energy, docs/energy.md) to the result `j`, when the family counts events.
void add_router_events(nlohmann::json& j, const Config& cfg, const RunResult& r, const Network& net);

}  // namespace wormcast
