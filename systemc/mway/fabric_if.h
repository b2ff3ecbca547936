// The fabric interface of the m-way family (docs/mway.md section 11): what the network, the NIC
// port adapters and the run driver ask of a fabric of channels, routers and node interfaces. The
// SystemC MwayFabric implements it, and so does the Verilated RTL fabric (tb/rtl/mway), which
// replaces the SystemC one behind this seam (mway.model = rtl).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <systemc>

#include "sw/topology/mway.h"
#include "systemc/mway/copies.h"
#include "systemc/mway/params.h"
#include "systemc/mway/types.h"
#include "systemc/net/activity.h"
#include "systemc/net/wait_for.h"

namespace wormcast {

class MwayFabricIf {
 public:
  virtual ~MwayFabricIf() = default;

  /// The clock input the fabric acts on (rising edges: docs/mway.md section 4).
  virtual sc_core::sc_in<bool>& clock_in() = 0;
  virtual const sw::MwayGeometry& geometry() const = 0;
  virtual const MwayParams& params() const = 0;
  int num_nodes() const { return geometry().num_channels(); }
  /// "ni_2_3": the node interface of channel (2, 3).
  std::string node_name(int node) const { return "ni_" + geometry().suffix(node); }
  /// The nodes that must receive m exactly once (its Region or dst, without the source).
  std::vector<int> addressed(const MwayMessage& m) const { return mway_addressed(geometry(), m); }

  /// Queue message m at node `node` (== m.src). Throws std::invalid_argument for a message the
  /// fabric cannot carry (mway_submit_copies).
  virtual void submit(int node, const MwayMessage& m) = 0;
  /// Copies waiting in node's source queue.
  virtual size_t queued(int node) const = 0;
  virtual void set_observer(MwayObserver* obs) = 0;
  /// Every channel crossing from now on (nullptr: stop): the per-hop trace (docs/mway.md 12.1).
  virtual void set_channel_observer(MwayChannelObserver* obs) = 0;
  /// Network-wide counters to update for every flit transfer (the run driver's watchdog).
  virtual void set_activity(NetActivity* activity) = 0;

  /// Last cycle in which any flit moved on any channel (0 before the first).
  virtual uint64_t last_move() const = 0;
  /// Flit transfers over all channels (a header taken by several ways counts once).
  virtual uint64_t flits_moved() const = 0;
  /// Flit transfers per channel, indexed by channel id.
  virtual std::vector<uint64_t> channel_flits() const = 0;
  /// Flit transfers per channel driven by that channel's node interface (injections).
  virtual std::vector<uint64_t> node_flits() const = 0;
  /// Channel cycles over all channels by line use (section 4.3): header_ack,
  /// header_ack0_progress, header_ack0_none, body_tail.
  virtual std::vector<std::pair<std::string, uint64_t>> line_uses() const = 0;
  /// Flits held in router and injection buffers.
  virtual size_t buffered_flits() const = 0;
  /// Messages and copies waiting in node-interface queues.
  virtual size_t queued_messages() const = 0;
  /// Nothing buffered, queued or being transferred.
  virtual bool idle() const = 0;

  virtual std::vector<WaitEdge> wait_edges() const = 0;
  /// Every waiting buffer row, loader and queue entry names its own packet in wait_edges().
  virtual bool names_every_waiting_packet() const = 0;
  virtual void trace(sc_core::sc_trace_file* tf) const = 0;
};

/// The Verilated fabrics of a program (tb/rtl/mway installs them): any parameter set the Verilog
/// expresses, its units built on demand (Verilog parameters are fixed when a model is Verilated,
/// so each parameter set is its own model).
struct MwayRtlLibrary {
  /// Throws ConfigError naming the key and the limit when the RTL cannot express `params`.
  std::function<void(const MwayParams& params)> check;
  /// An RTL fabric for `params` (its model built now when the cache has none).
  std::function<std::unique_ptr<MwayFabricIf>(sc_core::sc_module_name name, const MwayParams& params)> make;
};

/// Makes RTL fabrics available to mway.model = rtl (called once, before any network).
void install_mway_rtl_library(MwayRtlLibrary lib);
/// The installed library (empty functions when this program has no RTL).
const MwayRtlLibrary& mway_rtl_library();

}  // namespace wormcast
