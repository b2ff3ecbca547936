// The router-family registry: a family (torus, mway, ...) is one folder under systemc/ plus one
// entry here, naming how to validate its configuration and how to build its Network.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

namespace wormcast {

struct Config;
class Network;
struct NetworkOptions;

struct Family {
  std::string name;  ///< the value of net.family and the KIND of --net KIND:SHAPE
  std::string help;  ///< one line for `wormcast config`
  /// Family rules beyond the schema's per-key ranges; may normalize cfg (e.g. derived fields).
  /// Throws ConfigError naming the key and the allowed range.
  std::function<void(Config& cfg)> validate;
  /// Builds the whole network (routers, NICs, links) for a validated cfg.
  std::function<std::unique_ptr<Network>(sc_core::sc_module_name name, const Config& cfg, const NetworkOptions& opt)>
      make;
};

/// Adds a family (a program or test may add its own before loading a configuration); replaces a
/// family of the same name.
void register_family(Family f);
/// The family called `name`, nullptr when none is.
const Family* find_family(const std::string& name);
/// Registered family names, in registration order.
std::vector<std::string> family_names();

/// The families built into the library (systemc/families.cpp: one line per family). Called once,
/// on the registry's first use.
void register_builtin_families();

}  // namespace wormcast
