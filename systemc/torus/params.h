// Parameters the torus router derives from the network and router configuration.
#pragma once

#include "systemc/common/config.h"
#include "systemc/torus/allocator.h"

namespace wormcast {

struct RouterParams {
  int dims = 2;
  int local = 4;        ///< P
  int classes = 2;      ///< C
  int vcs_per_class = 1;
  int num_vcs = 2;      ///< C * V
  int buffer_depth = 4;
  int router_delay = 1;
  int link_delay = 0;
  int credit_delay = 0;
  bool vc_realloc_tail = false;  ///< router.vc_realloc = tail: an output VC is free once its tail left
  AllocatorKind allocator = AllocatorKind::InputFirst;
  int islip_iterations = 1;
  int num_ports() const { return 2 * dims + local; }
};

RouterParams derive_router_params(const NetConfig& net, const RouterConfig& r);

}  // namespace wormcast
