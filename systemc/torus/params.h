// Parameters the torus router derives from the network and router configuration.
#pragma once

#include <algorithm>

#include "systemc/common/config.h"
#include "systemc/torus/allocator.h"
#include "systemc/torus/config.h"

namespace wormcast {

struct RouterParams {
  int dims = 2;
  int local = 4;        ///< P
  int classes = 2;      ///< C
  int vcs_per_class = 1;
  int num_vcs = 2;      ///< C * V (+ A under min-adaptive, 2 * C * V under valiant)
  int buffer_depth = 4;
  int router_delay = 1;
  int link_delay = 0;
  int credit_delay = 0;
  int injection_credit_delay = 0;  ///< Cdi: the NIC port's credit delay (docs/router.md section 8)
  bool vc_realloc_tail = false;  ///< router.vc_realloc = tail: an output VC is free once its tail left
  AllocatorKind allocator = AllocatorKind::InputFirst;
  /// router.switch_accept = port: the switch allocator is IslipPorts (an input port accepts by
  /// output port, BookSim2's); else `allocator`.
  AllocatorKind switch_allocator = AllocatorKind::InputFirst;
  int islip_iterations = 1;
  int injection_delay = 0;  ///< Di: extra cycles on an injection channel (the NIC port delays the flit)
  int ejection_delay = 0;   ///< De: extra cycles on an ejection channel (the NIC port delays the core)
  int ejection_credit_delay = 0;  ///< Cde: cycles the NIC port holds an ejection flit's credit
  /// router.pipeline = staged (docs/router.md section 11): a head competes in VC allocation from one
  /// edge before its ready edge and for the switch only from the edge after its VC grant; a body
  /// flit is ready two edges earlier than a head; a head behind a tail routes again.
  bool staged = false;
  /// router.vc_class = entry: a head keeps the dateline class of its input VC while it continues in
  /// a dimension; entering one it takes class (x > t) for coordinates x here and t at the destination.
  bool vc_class_entry = false;
  /// router.injection_vc = free: a NIC gives a new packet the first VC in turn with a credit.
  bool injection_vc_free = false;
  /// router.routing = min-adaptive: VCs [escape_vcs(), num_vcs) of every network port are adaptive
  /// (any productive direction); the others are the dimension-order escape VCs.
  bool adaptive = false;
  /// router.routing = valiant: VCs [0, escape_vcs()) of every network port carry phase 1 (source to
  /// the intermediate node), VCs [escape_vcs(), 2 * escape_vcs()) phase 2 (on to the destination),
  /// each set with its own dateline classes (docs/router.md section 13).
  bool valiant = false;
  /// The dimension-order VCs of one set: C * V (under valiant, one phase's set).
  int escape_vcs() const { return classes * vcs_per_class; }
  /// Network ports beyond the 2 * dims torus ports (an interlaced bypass torus: 2).
  int extra_ports = 0;
  int net_ports() const { return 2 * dims + extra_ports; }
  int num_ports() const { return net_ports() + local; }
  /// The smallest buffer depth at which every channel of an idle path carries one flit per cycle:
  /// the credit round trip of a network link (R + Ld + Cd + 1), of an injection channel
  /// (R + Di + Cdi + 1) and of an ejection channel (Cde + Cd + 1), in flits (docs/router.md section
  /// 7). Below it a packet longer than B waits for credits with nothing in its way, which the
  /// zero-load formula and the analytic router model leave out.
  int streaming_depth() const {
    const int link = router_delay + link_delay + credit_delay + 1;
    const int injection = router_delay + injection_delay + injection_credit_delay + 1;
    const int ejection = ejection_credit_delay + credit_delay + 1;
    return std::max(link, std::max(injection, ejection));
  }
};

/// extra_ports: network ports a family adds to the 2 * dims torus ports (local = all gives one
/// injection and one ejection channel per network port).
RouterParams derive_router_params(const NetConfig& net, const RouterConfig& r, int extra_ports = 0);

}  // namespace wormcast
