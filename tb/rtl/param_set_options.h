// The options that name a parameter set, shared by the lockstep programs and `wormcast rtl build`:
// the keys of `wormcast traffic` (--config, --net, --vcs, --buf, --set), or --test-set NAME.
#pragma once

#include <string>
#include <vector>

#include "sw/cli_fwd.h"
#include "systemc/common/config.h"

namespace wormcast {

struct ParamSetOptions {
  std::string config_file, net, test_set;
  /// As given (checked as the configuration's keys, by config()).
  std::string vcs, buf;
  std::vector<std::string> sets;

  /// Adds --config, --net, --vcs, --buf, --set (and --test-set when `test_sets` names where they are).
  void add_to(CLI::App& app, const std::string& test_sets = "");
  /// The keys the options --net, --vcs and --buf set (to check against --set: check_set_conflicts).
  Overrides given(const CLI::App& app) const;
  /// The configuration they give (validated; throws ConfigError).
  /// `first`: overrides before the options' own (which may change them).
  Config config(const CLI::App& app, const Overrides& first = {}) const;
};

}  // namespace wormcast
