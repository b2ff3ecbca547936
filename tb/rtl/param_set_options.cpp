// The options that name a parameter set (tb/rtl/param_set_options.h).
#include "tb/rtl/param_set_options.h"

#include <CLI/CLI.hpp>

namespace wormcast {

void ParamSetOptions::add_to(CLI::App& app, const std::string& test_sets) {
  app.add_option("--config", config_file, "start from this YAML configuration");
  app.add_option("--net", net, "network, e.g. torus:8x8, mesh:4x4x4, ibt:16x16, mway:4x4 (as wormcast traffic)");
  // The allowed values from the schema; a value outside them is refused as the key's (config()).
  const auto allowed = [](const char* key) {
    const ConfigKey* k = find_config_key(key);
    return k ? ": " + k->allowed : std::string();
  };
  app.add_option("--vcs", vcs, "VCs per dateline class (router.vcs_per_class" + allowed("router.vcs_per_class") + ")")
      ->type_name("INT");
  app.add_option("--buf", buf, "buffer depth in flits (router.buffer_depth" + allowed("router.buffer_depth") + ")")
      ->type_name("INT");
  app.add_option("--set", sets, "override a configuration key, key=value (repeatable)");
  if (!test_sets.empty())
    app.add_option("--test-set", test_set, "a named parameter set of the tests (" + test_sets + ")");
}

Overrides ParamSetOptions::given(const CLI::App& app) const {
  Overrides ov;
  if (!net.empty())
    for (auto& kv : net_spec_overrides("--net", net)) ov.push_back(kv);
  if (app.count("--vcs")) ov.emplace_back("router.vcs_per_class", vcs);
  if (app.count("--buf")) ov.emplace_back("router.buffer_depth", buf);
  return ov;
}

Config ParamSetOptions::config(const CLI::App& app, const Overrides& first) const {
  Overrides ov = first;
  for (auto& kv : given(app)) ov.push_back(kv);
  for (const std::string& s : sets) ov.push_back(parse_override(s));
  return load_config(config_file, ov);
}

}  // namespace wormcast
