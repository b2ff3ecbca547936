// The torus router's configuration (router.* keys): its struct, a part of Config, and the keys the
// torus family registers (shared with the families built of the same router).
#pragma once

#include <vector>

#include "systemc/common/config.h"

namespace wormcast {

enum class LocalPorts { All, One };
/// Which model implements the routers: the SystemC router, the Verilated Verilog twin, or both in
/// a checkerboard (RTL where the coordinate sum is even).
enum class RouterModel { SystemC, Rtl, Mixed };
/// When an output VC may be given to the next packet (docs/router.md section 5.3): once the
/// downstream buffer is empty and every credit is back, or as soon as the tail has been sent.
enum class VcRealloc { Empty, Tail };
/// The separable allocator of VC and switch allocation (docs/router.md section 5.6).
enum class RouterAllocator { InputFirst, OutputFirst, Islip };
/// A named set of router.* (and traffic.tie) values (docs/router.md section 11).
enum class RouterPreset { None, BooksimIq };
/// The torus family's routing function (docs/router.md sections 12 and 13).
enum class RouterRouting { Dor, MinAdaptive, Valiant };
/// The torus router's pipeline (docs/router.md section 11): routing, VC and switch allocation
/// decided at one edge, or in the stages of BookSim2's input-queued router.
enum class RouterPipeline { Lumped, Staged };
/// When a packet's dateline VC class is decided (docs/router.md section 11): at every router from
/// the rest of the path, or once where it enters a dimension, kept for the whole dimension.
enum class VcClassRule { Hop, Entry };
/// The VC a NIC gives a new packet (docs/router.md section 8): the next one in turn, waiting for
/// its credits, or the first one in turn that has a credit.
enum class InjectionVc { Turn, Free };

/// The switch allocator's accept stage (docs/router.md section 11): an input port accepts one of
/// its VCs whose output granted it (vc), or one output port that granted it, with one VC per
/// output chosen before (port, BookSim2's; under allocator islip only, the others ignore it).
enum class SwitchAccept { Vc, Port };

/// The torus router's keys: cfg.part<RouterConfig>().
struct RouterConfig {
  RouterModel model = RouterModel::SystemC;
  LocalPorts local_ports = LocalPorts::All;
  int vcs_per_class = 1;
  bool dateline = true;
  int buffer_depth = 4;
  int router_delay = 1;
  int link_delay = 0;
  int credit_delay = 0;
  /// Cdi: extra cycles before an injection credit counts at the NIC (docs/router.md section 8);
  /// -1 (`same`): credit_delay.
  int injection_credit_delay = -1;
  VcRealloc vc_realloc = VcRealloc::Empty;
  RouterAllocator allocator = RouterAllocator::InputFirst;
  int islip_iterations = 1;
  int injection_delay = 0;  ///< extra cycles on each injection channel (NIC to router)
  int ejection_delay = 0;   ///< extra cycles on each ejection channel (router to NIC)
  int ejection_credit_delay = 0;  ///< Cde: cycles the NIC holds an ejection flit's credit (docs/router.md 8)
  RouterPreset preset = RouterPreset::None;
  RouterRouting routing = RouterRouting::Dor;
  int adaptive_vcs = 2;     ///< min-adaptive: adaptive VCs per port beyond the escape (DOR) VCs
  RouterPipeline pipeline = RouterPipeline::Lumped;
  VcClassRule vc_class = VcClassRule::Hop;
  InjectionVc injection_vc = InjectionVc::Turn;
  SwitchAccept switch_accept = SwitchAccept::Vc;
};

/// The keys of the torus router, for every family built of it: router.* (but the routing
/// function's), traffic.tie and sim.threads.
std::vector<ConfigKey> torus_router_keys();
/// The torus family's keys: net.topology, the router's keys and the routing function's.
std::vector<ConfigKey> torus_keys();
/// sim.schedule = bands runs in one thread: sim.threads above 1 with it is refused (ConfigError),
/// for every family built of the torus router (their validation and the network's thread rule).
void check_bands_threads(int threads, Schedule schedule);

}  // namespace wormcast
