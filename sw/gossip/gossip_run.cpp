// Host-side watch over a gossip run: receipts matched to unicasts, sends checked against holdings.
#include "sw/gossip/gossip_run.h"

#include <stdexcept>

namespace wormcast::sw {

/// Forwards to the backend's NodeApi and reports every send to the watch first.
class GossipRunWatch::Api final : public NodeApi {
 public:
  Api(GossipRunWatch& w, NodeApi& api) : m_w(w), m_api(api) {}
  int self() const override { return m_api.self(); }
  const Topology& topology() const override { return m_api.topology(); }
  uint64_t now() const override { return m_api.now(); }
  void send(int dst, uint32_t length, const SendOptions& o) override {
    m_w.on_send(m_api.self(), dst, o.tag);
    m_api.send(dst, length, o);
  }

 private:
  GossipRunWatch& m_w;
  NodeApi& m_api;
};

class GossipRunWatch::Node final : public NodeProgram {
 public:
  Node(GossipRunWatch& w, int node) : m_w(&w), m_node(node) {}
  void on_start(NodeApi& api) override {
    Api a(*m_w, api);
    if (NodeProgram* p = m_w->m_inner[size_t(m_node)]) p->on_start(a);
  }
  void on_receive(NodeApi& api, const Delivery& d) override {
    m_w->on_receive(m_node, d, api.now());  // holdings first: the inner program may forward them
    Api a(*m_w, api);
    if (NodeProgram* p = m_w->m_inner[size_t(m_node)]) p->on_receive(a, d);
  }

 private:
  GossipRunWatch* m_w;
  int m_node;
};

GossipRunWatch::GossipRunWatch(const Schedule& s, const std::vector<NodeProgram*>& inner) : m_s(s), m_inner(inner) {
  const int n = s.topology.num_nodes();
  if (s.collective != Collective::Gossip) throw std::invalid_argument("gossip run watch: not a gossip schedule");
  m_inner.resize(size_t(n), nullptr);
  m_total_chunks = n * s.chunks_per_node;
  m_hold.resize(size_t(n));
  for (int x = 0; x < n; ++x)
    for (int c = 0; c < s.chunks_per_node; ++c) m_hold[size_t(x)].add(x * s.chunks_per_node + c);
  m_complete_at.assign(size_t(n), m_total_chunks == s.chunks_per_node ? 0 : ~uint64_t(0));
  m_received.assign(s.unicasts.size(), false);
  for (size_t i = 0; i < s.unicasts.size(); ++i) {
    const Unicast& u = s.unicasts[i];
    if (!m_index.emplace(key(u.src, u.dst, u.step), i).second)
      throw std::invalid_argument("gossip run watch: two unicasts share (src, dst, step)");
  }
  m_nodes.reserve(size_t(n));
  for (int x = 0; x < n; ++x) m_nodes.emplace_back(*this, x);
}

GossipRunWatch::~GossipRunWatch() = default;

std::vector<NodeProgram*> GossipRunWatch::programs() {
  std::vector<NodeProgram*> out;
  for (Node& n : m_nodes) out.push_back(&n);
  return out;
}

uint64_t GossipRunWatch::key(int src, int dst, int step) const {
  const uint64_t n = uint64_t(m_s.topology.num_nodes());
  return (uint64_t(src) * n + uint64_t(dst)) * 65536u + uint64_t(step & 0xffff);
}

void GossipRunWatch::error(const std::string& e) {
  if (m_errors.size() < 8) m_errors.push_back(e);
}

void GossipRunWatch::on_receive(int node, const Delivery& d, uint64_t now) {
  m_last = std::max(m_last, now);
  const auto it = m_index.find(key(d.src, node, int(d.tag)));
  if (it == m_index.end() || m_received[it->second]) {
    ++m_unexpected;
    error("node " + format_node(m_s.topology, node) + " received an unexpected message from " +
          format_node(m_s.topology, d.src) + " tagged step " + std::to_string(d.tag));
    return;
  }
  m_received[it->second] = true;
  ChunkSet& h = m_hold[size_t(node)];
  h.add(m_s.unicasts[it->second].chunks);
  if (m_complete_at[size_t(node)] == ~uint64_t(0) && h.count() == m_total_chunks) m_complete_at[size_t(node)] = now;
}

void GossipRunWatch::on_send(int node, int dst, uint32_t tag) {
  const auto it = m_index.find(key(node, dst, int(tag)));
  if (it == m_index.end()) {
    ++m_unexpected;
    error("node " + format_node(m_s.topology, node) + " sent a message the schedule does not have (step " +
          std::to_string(tag) + ")");
    return;
  }
  const Unicast& u = m_s.unicasts[it->second];
  if (!u.chunks.subset_of(m_hold[size_t(node)])) {
    ++m_early;
    error("node " + format_node(m_s.topology, node) + " sent its step " + std::to_string(u.step) + " message to " +
          format_node(m_s.topology, dst) + " before holding chunk " +
          std::to_string(u.chunks.first_missing_from(m_hold[size_t(node)])));
  }
}

GossipRunReport GossipRunWatch::report() const {
  GossipRunReport r;
  r.unexpected_receipts = m_unexpected;
  r.early_sends = m_early;
  r.last_receive = m_last;
  r.node_complete = m_complete_at;
  for (bool got : m_received) r.missing_receipts += !got;
  for (const ChunkSet& h : m_hold) r.incomplete_nodes += h.count() != m_total_chunks;
  r.complete = r.incomplete_nodes == 0;
  r.errors = m_errors;
  if (r.missing_receipts) r.errors.push_back(std::to_string(r.missing_receipts) + " unicasts never received");
  if (r.incomplete_nodes) r.errors.push_back(std::to_string(r.incomplete_nodes) + " nodes do not hold every chunk");
  return r;
}

}  // namespace wormcast::sw
