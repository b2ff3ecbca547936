#include "tb/run/dry_run.h"

namespace wormcast {

namespace {
bool g_dry_run = false;
}  // namespace

void set_dry_run(bool on) { g_dry_run = on; }
bool dry_run() { return g_dry_run; }

void dry_run_point() {
  if (g_dry_run) throw DryRunStop{};
}

void dry_run_limit(int64_t nodes) {
  if (g_dry_run && nodes > kDryRunMaxNodes) throw DryRunStop{};
}

}  // namespace wormcast
