// The router-family registry: a family is one folder under systemc/ plus one entry here, bringing
// its configuration keys, how to validate a configuration and how to build its Network.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "systemc/common/config.h"

namespace wormcast {

class Network;
class PortRouting;
struct NetworkOptions;

struct Family {
  std::string name;  ///< the value of net.family and the KIND of --net KIND:SHAPE
  std::string help;  ///< one line for `wormcast config`
  /// The family's own configuration keys (rows of its part of Config, e.g. its router's): the
  /// schema, `wormcast config`, --set, YAML and the echo list them with the family's name. Two
  /// families may register the same key (the same router's); a common key may not be registered.
  std::vector<ConfigKey> keys;
  /// KIND words of --net KIND:SHAPE besides the family's name: the overrides KIND:SHAPE stands for,
  /// or none when `kind` is not such a word; null: only the name.
  std::function<Overrides(const std::string& kind, const std::string& shape)> net_kind;
  std::string net_kind_help;  ///< those words, for an error message
  std::string net_examples;   ///< KIND:SHAPE examples, for an error message
  /// The family's own defaults of common keys, applied to the keys a configuration does not give:
  /// `value_of(key)` is the given value of another key, or its default. Null: none.
  std::function<Overrides(const std::function<std::string(const std::string&)>& value_of)> defaults;
  /// Family rules beyond the schema's per-key ranges; may normalize cfg (e.g. derived fields).
  /// Throws ConfigError naming the key and the allowed range.
  std::function<void(Config& cfg)> validate;
  /// The name of node `node` of cfg's network, as the built network's node_name() gives it: lets
  /// the routers named by --rtl-vcd be checked before the network (and any Verilated model it
  /// needs) is built. Null: checked once the network exists.
  std::function<std::string(const Config& cfg, int node)> node_name;
  /// Why --router-vcd cannot dump a router's internal signals on cfg's network, "" when it can;
  /// null: asked once the network exists (Network::internals_refusal). Asked before the network
  /// (and any Verilated model it needs) is built.
  std::function<std::string(const Config& cfg)> internals_refusal;
  /// The routing of cfg's routers as a port routing that can be walked before the network is built
  /// (a unicast's hops and first port, for the analytic router model); null: the topology's
  /// dimension order.
  std::function<std::shared_ptr<const PortRouting>(const Config& cfg)> routing;
  /// Network::longest_quiet() of cfg's network from the configuration alone, so that `config
  /// --check` refuses the sim.watchdog and sim.livelock windows a run refuses; null: checked once
  /// the network is built only.
  std::function<uint64_t(const Config& cfg)> longest_quiet;
  /// A unicast may address its own node (the torus family: through its own router); false: the
  /// traffic generator refuses a pattern or trace that would (the m-way family's NIC does not take
  /// such a message).
  bool self_unicast = true;
  /// The fewest flits of a packet (the m-way family: a header and data, 2); the traffic generator
  /// refuses message lengths that would leave a shorter one.
  int min_packet_flits = 1;
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
/// Counts registrations (the schema is rebuilt when it changes).
uint64_t family_registry_version();

/// The families built into the library (systemc/families.cpp: one line per family). Called once,
/// on the registry's first use.
void register_builtin_families();

}  // namespace wormcast
