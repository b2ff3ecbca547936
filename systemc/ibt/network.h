// The interlaced bypass torus family iBT(n^d; <b1..bk>): the torus router with two bypass ports
// per node (docs/router.md section 10), wired by the iBT construction of sw/topology/ibt.h and
// routed by BypassRouting.
#pragma once

#include <memory>

#include "sw/topology/ibt.h"
#include "systemc/common/family.h"
#include "systemc/torus/network.h"

namespace wormcast {

class IbtNetwork : public TorusNetwork {
 public:
  IbtNetwork(sc_core::sc_module_name name, const Config& cfg, const NetworkOptions& opt = {});

 protected:
  /// A bypass link of node r spans b_j torus links (its species' bypass length); the others one.
  int link_span(int r, int p) const override {
    return p >= m_ibt.bypass_port() ? m_ibt.bypass_length(r) : 1;
  }

 private:
  sw::IbtTopology m_ibt;
};

/// The iBT topology of a configuration (net.radix n x ... x n, ibt.bypass); throws ConfigError.
sw::IbtTopology ibt_topology(const Config& cfg);

/// The router parameters of an ibt configuration: the torus router's with the two bypass ports
/// (and the align classes of ibt.routing = shortest).
RouterParams ibt_router_params(const Config& cfg);
/// The layers of ibt.routing = shortest (ibt.layers, auto: d*k + 3 or the most that fit in a port's VCs); 0 under dor and bypass.
int ibt_layers(const Config& cfg);
/// The routing of an ibt configuration's routers (BypassRouting).
std::shared_ptr<const PortRouting> ibt_routing(const Config& cfg);

/// The ibt family's registry entry (systemc/families.cpp).
Family ibt_family();

}  // namespace wormcast
