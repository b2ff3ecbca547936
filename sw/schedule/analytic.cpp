// Analytic backend: event loop, per-node processor and injection-channel timing, overlap count.
#include "sw/schedule/analytic.h"

#include <algorithm>
#include <queue>
#include <stdexcept>
#include <tuple>
#include <unordered_set>

#include "sw/schedule/program_image.h"

namespace wormcast::sw {

bool AnalyticResult::all_received(int source) const {
  for (size_t x = 0; x < first_visible.size(); ++x)
    if (int(x) != source && first_visible[x] < 0) return false;
  return true;
}

AnalyticBackend::AnalyticBackend(const Topology& t, const AnalyticParams& p) : m_t(t), m_p(p) {}

uint64_t AnalyticBackend::arrival_time(uint64_t a, int hops, uint32_t length) const {
  const uint64_t h = uint64_t(hops);
  if (m_p.model == TimingModel::Model)
    return a + (h + 1) * m_p.router_delay + h * m_p.link_delay + m_p.injection_delay + m_p.ejection_delay + length;
  return a + (h + m_p.c) * m_p.t_c + uint64_t(length) * m_p.t_c;
}

uint64_t AnalyticBackend::occupancy(uint32_t length) const {
  return m_p.model == TimingModel::Model ? uint64_t(length) : uint64_t(length) * m_p.t_c;
}

uint64_t AnalyticBackend::arc_entry(uint64_t a, int j) const {
  const uint64_t jj = uint64_t(j);
  if (m_p.model == TimingModel::Model)
    return a + m_p.injection_delay + m_p.router_delay + jj * (m_p.router_delay + m_p.link_delay);
  return a + (jj + m_p.c) * m_p.t_c;
}

namespace {

struct Pending {
  uint64_t visible;
  int dst;
  uint64_t arrival;
  int src;
  size_t message;
  // Min-heap order: visible, node, arrival, source, then send order.
  bool operator>(const Pending& o) const {
    return std::tie(visible, dst, arrival, src, message) >
           std::tie(o.visible, o.dst, o.arrival, o.src, o.message);
  }
};

struct NodeState {
  uint64_t processor_free = 0;
  uint64_t channel_free[2 * kMaxDims + 2] = {};  // + an interlaced bypass torus's two bypass ports
};

/// The HAL as one node's program sees it during one callback.
class AnalyticApi final : public NodeApi {
 public:
  AnalyticApi(const AnalyticBackend& backend, const Topology& t, const AnalyticParams& p,
              std::vector<NodeState>& nodes, std::vector<MessageRecord>& messages,
              std::priority_queue<Pending, std::vector<Pending>, std::greater<Pending>>& queue)
      : m_backend(backend), m_t(t), m_p(p), m_nodes(nodes), m_messages(messages), m_queue(queue) {}

  void begin(int self, uint64_t now) {
    m_self = self;
    m_now = now;
  }
  uint64_t end_time() const { return m_now; }

  int self() const override { return m_self; }
  const Topology& topology() const override { return m_t; }
  uint64_t now() const override { return m_now; }

  void send(int dst, uint32_t length, const SendOptions& options) override {
    if (dst < 0 || dst >= m_t.num_nodes() || dst == m_self)
      throw std::invalid_argument("analytic backend: node " + std::to_string(m_self) +
                                  " sends to invalid destination " + std::to_string(dst));
    if (length < 1) throw std::invalid_argument("analytic backend: message length must be >= 1");
    MessageRecord m;
    m.src = m_self;
    m.dst = dst;
    m.length = length;
    m.tag = options.tag;
    m.tie_negative = options.tie_negative;
    const auto [hops, port] = m_p.route ? m_p.route(m_self, dst, options.tie_negative)
                                        : std::make_pair(m_t.hops(m_self, dst, options.tie_negative),
                                                         m_t.route(m_self, dst, options.tie_negative).port);
    m.hops = hops;
    m.channel = m_p.ports == PortModel::OnePort ? 0 : port;
    m.issued = m_now;
    m_now += m_p.t_s;  // the processor is busy for t_s, then the NIC may inject
    NodeState& st = m_nodes[size_t(m_self)];
    uint64_t& chan = st.channel_free[m.channel];
    m.injected = std::max(m_now, chan);
    chan = m.injected + m_backend.occupancy(length);
    m.arrival = m_backend.arrival_time(m.injected, m.hops, length);
    m.visible = m.arrival + m_p.t_r;
    m_queue.push(Pending{m.visible, dst, m.arrival, m_self, m_messages.size()});
    m_messages.push_back(m);
  }

 private:
  const AnalyticBackend& m_backend;
  const Topology& m_t;
  const AnalyticParams& m_p;
  std::vector<NodeState>& m_nodes;
  std::vector<MessageRecord>& m_messages;
  std::priority_queue<Pending, std::vector<Pending>, std::greater<Pending>>& m_queue;
  int m_self = -1;
  uint64_t m_now = 0;
};

/// Pairs of messages that hold a common arc at overlapping times.
int count_overlaps(const AnalyticBackend& b, const Topology& t, const std::vector<MessageRecord>& msgs) {
  struct Use {
    uint64_t begin, end;
    size_t message;
  };
  const size_t ports = size_t(t.num_net_ports());
  std::vector<std::vector<Use>> arcs(size_t(t.num_nodes()) * ports);
  for (size_t i = 0; i < msgs.size(); ++i) {
    const MessageRecord& m = msgs[i];
    const std::vector<Arc> path = route_path(t, m.src, m.dst, m.tie_negative);
    for (size_t j = 0; j < path.size(); ++j) {
      const uint64_t begin = b.arc_entry(m.injected, int(j));
      arcs[size_t(path[j].node) * ports + size_t(path[j].port)].push_back(
          Use{begin, begin + b.occupancy(m.length), i});
    }
  }
  std::unordered_set<uint64_t> pairs;
  for (std::vector<Use>& uses : arcs) {
    std::sort(uses.begin(), uses.end(), [](const Use& x, const Use& y) { return x.begin < y.begin; });
    for (size_t a = 0; a < uses.size(); ++a)
      for (size_t c = a + 1; c < uses.size() && uses[c].begin < uses[a].end; ++c) {
        const uint64_t lo = std::min(uses[a].message, uses[c].message);
        const uint64_t hi = std::max(uses[a].message, uses[c].message);
        pairs.insert((lo << 32) | hi);
      }
  }
  return int(pairs.size());
}

}  // namespace

AnalyticResult AnalyticBackend::run(const std::vector<NodeProgram*>& programs) {
  const int n = m_t.num_nodes();
  if (int(programs.size()) != n)
    throw std::invalid_argument("analytic backend: need one program slot per node");
  AnalyticResult r;
  r.first_visible.assign(size_t(n), -1);
  r.receive_count.assign(size_t(n), 0);
  std::vector<NodeState> nodes(static_cast<size_t>(n));
  std::priority_queue<Pending, std::vector<Pending>, std::greater<Pending>> queue;
  AnalyticApi api(*this, m_t, m_p, nodes, r.messages, queue);

  for (int x = 0; x < n; ++x) {
    if (!programs[size_t(x)]) continue;
    api.begin(x, 0);
    programs[size_t(x)]->on_start(api);
    nodes[size_t(x)].processor_free = api.end_time();
  }
  while (!queue.empty()) {
    const Pending p = queue.top();
    queue.pop();
    const MessageRecord m = r.messages[p.message];  // copy: the vector may grow below
    ++r.receive_count[size_t(p.dst)];
    if (r.first_visible[size_t(p.dst)] < 0) r.first_visible[size_t(p.dst)] = int64_t(p.visible);
    r.last_visible = std::max(r.last_visible, p.visible);
    NodeProgram* prog = programs[size_t(p.dst)];
    if (!prog) continue;
    NodeState& st = nodes[size_t(p.dst)];
    // Every event a callback creates lies after its start, so popping by visible time and
    // starting at max(visible, processor_free) keeps each node's callbacks in order.
    api.begin(p.dst, std::max(p.visible, st.processor_free));
    Delivery d;
    d.src = m.src;
    d.tag = m.tag;
    d.length = m.length;
    d.arrival = m.arrival;
    d.visible = m.visible;
    prog->on_receive(api, d);
    st.processor_free = api.end_time();
  }
  for (int64_t v : r.first_visible)
    if (v >= 0) r.latency = std::max(r.latency, uint64_t(v));
  // Paths over the topology's arcs: not counted for a network of another route (-1).
  r.overlapping_pairs = m_p.route ? -1 : count_overlaps(*this, m_t, r.messages);
  return r;
}

AnalyticResult run_schedule_analytic(const Schedule& s, uint32_t length, const AnalyticParams& p) {
  const ProgramImage image(s);
  std::vector<ScheduleProgram> programs = image.make_programs(length);
  std::vector<NodeProgram*> ptrs;
  ptrs.reserve(programs.size());
  for (ScheduleProgram& prog : programs) ptrs.push_back(&prog);
  AnalyticBackend backend(s.topology, p);
  return backend.run(ptrs);
}

}  // namespace wormcast::sw
