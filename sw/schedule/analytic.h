// Analytic backend of the HAL: runs NodeProgram objects on the contention-free timing model of
// Hou, Wang and Hsu Sec. 6.1 (and of the router contract, docs/router.md section 7) with no SystemC.
#pragma once

#include <stdint.h>

#include <functional>
#include <utility>
#include <vector>

#include "sw/hal/node_api.h"
#include "sw/schedule/schedule.h"

namespace wormcast::sw {

enum class TimingModel {
  /// The cycle model's zero-load latency: arrival = a + (h+1)*R + h*Ld + Di + De + L
  /// (docs/router.md 7).
  Model,
  /// Hou, Wang and Hsu's analysis: arrival = a + (h+c)*t_c + L*t_c, c = 0 by default.
  Paper,
};

struct AnalyticParams {
  TimingModel model = TimingModel::Model;
  PortModel ports = PortModel::AllPort;
  uint64_t t_s = 0;  ///< processor time per send
  uint64_t t_r = 0;  ///< receive latency: tail arrival -> visible to software
  // Model mode.
  uint64_t router_delay = 1;
  uint64_t link_delay = 0;
  uint64_t injection_delay = 0;  ///< Di: the injection channel's extra cycles
  uint64_t ejection_delay = 0;   ///< De: the ejection channel's extra cycles
  /// A unicast's hops and first network port when the network does not route by the topology's
  /// dimension order (an interlaced bypass torus); null: the topology's route.
  std::function<std::pair<int, int>(int src, int dst, bool tie)> route;
  // Paper mode.
  uint64_t t_c = 1;
  uint64_t c = 0;
};

/// One message as the model timed it.
struct MessageRecord {
  int src = -1;
  int dst = -1;
  uint32_t length = 0;
  uint32_t tag = 0;
  bool tie_negative = false;
  int hops = 0;
  int channel = 0;        ///< injection channel (first-hop port; 0 in one-port mode)
  uint64_t issued = 0;    ///< software time send() was called
  uint64_t injected = 0;  ///< a: head driven on the injection channel
  uint64_t arrival = 0;   ///< tail at the receiving NIC
  uint64_t visible = 0;   ///< arrival + t_r
};

struct AnalyticResult {
  /// Per node: when it first saw the message (visible time), -1 if never. The source, which holds
  /// the message from time 0, has -1 unless someone sends to it.
  std::vector<int64_t> first_visible;
  std::vector<uint32_t> receive_count;
  /// Broadcast latency: the largest first_visible (0 when nobody received anything).
  uint64_t latency = 0;
  /// The largest visible time of any delivery (differs from latency only with redundant sends).
  uint64_t last_visible = 0;
  std::vector<MessageRecord> messages;  ///< in send() order
  /// Pairs of messages whose paths share an arc during overlapping times (the timing model
  /// ignores such contention, so a non-zero count means the numbers are optimistic).
  int overlapping_pairs = 0;  ///< -1: not counted (AnalyticParams::route set)
  /// Every node other than `source` received at least once.
  bool all_received(int source) const;
};

/// The event loop. Each node's processor handles one thing at a time: send() costs t_s, the NIC
/// injects at the end of it once the injection channel is free (then busy for L flit times);
/// deliveries become visible at arrival + t_r and on_receive runs when the node's processor is
/// free; callbacks run in order of visible time (ties: lower node id, then earlier arrival, then
/// lower source id). on_start runs for every node at time 0 in node-id order.
class AnalyticBackend {
 public:
  AnalyticBackend(const Topology& t, const AnalyticParams& p);
  /// programs[node] may be null (a node without software). Programs keep their state afterwards.
  AnalyticResult run(const std::vector<NodeProgram*>& programs);

  /// Tail arrival of an h-hop message of `length` flits injected at a.
  uint64_t arrival_time(uint64_t a, int hops, uint32_t length) const;
  /// Cycles the injection channel (and every arc) is held by a message of `length` flits.
  uint64_t occupancy(uint32_t length) const;
  /// When the head of a message injected at a enters the j-th arc of its path (j from 0).
  uint64_t arc_entry(uint64_t a, int j) const;

 private:
  Topology m_t;
  AnalyticParams m_p;
};

/// Convenience: build every node's ScheduleProgram from the schedule and run them with messages
/// of `length` flits.
AnalyticResult run_schedule_analytic(const Schedule& s, uint32_t length, const AnalyticParams& p);

}  // namespace wormcast::sw
