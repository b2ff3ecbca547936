// The router-family registry.
#include "systemc/common/family.h"

#include <fmt/format.h>

#include "systemc/common/config.h"

namespace wormcast {

namespace {
uint64_t g_version = 0;

std::vector<Family>& registry() {
  static std::vector<Family> families;
  static bool builtins = false;
  if (!builtins) {
    builtins = true;  // set first: register_builtin_families() calls back into register_family()
    register_builtin_families();
  }
  return families;
}
}  // namespace

void register_family(Family f) {
  auto& r = registry();
  ++g_version;
  for (auto& e : r)
    if (e.name == f.name) {
      e = std::move(f);
      return;
    }
  r.push_back(std::move(f));
}

const Family* find_family(const std::string& name) {
  for (auto& e : registry())
    if (e.name == name) return &e;
  return nullptr;
}

uint64_t family_registry_version() {
  registry();
  return g_version;
}

std::vector<std::string> family_names() {
  std::vector<std::string> v;
  for (auto& e : registry()) v.push_back(e.name);
  return v;
}

}  // namespace wormcast
