// Result files: their identity block, and helper programs run quietly (every output is written
// through the output plan, tb/out/output_plan.h).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace wormcast {

/// The "wormcast" block of every result file: command, format, version, commit.
nlohmann::json result_identity(const std::string& command);

/// Runs a program found on PATH with its output discarded; its exit status (-1: not started).
int run_quietly(const std::vector<std::string>& argv);

/// s without a trailing suffix (unchanged when it does not end with it or is only the suffix).
std::string strip_suffix(std::string s, const std::string& suffix);

}  // namespace wormcast
