// Submission and forwarding rules of docs/mway.md section 8.
#include "systemc/mway/copies.h"

#include <stdexcept>
#include <string>

namespace wormcast {

std::vector<int> mway_addressed(const sw::MwayGeometry& g, const MwayMessage& m) {
  if (m.dst >= 0) return {m.dst};
  std::vector<int> out;
  for (int n : g.nodes(m.region))
    if (n != m.src) out.push_back(n);
  return out;
}

std::vector<MwayCopy> mway_submit_copies(const sw::MwayGeometry& g, const MwayParams& params, int node,
                                         const MwayMessage& m) {
  const int nodes = g.num_channels();
  if (node < 0 || node >= nodes || m.src != node)
    throw std::invalid_argument("submit: node " + std::to_string(node) + " must be the message's src (" +
                                std::to_string(m.src) + ") and in 0.." + std::to_string(nodes - 1));
  if (m.length < 2 || m.length > uint32_t(params.max_message_length))
    throw std::invalid_argument("submit: length 2.." + std::to_string(params.max_message_length) + ", got " +
                                std::to_string(m.length));
  MwayPacket p;
  p.id = m.id;
  p.src = node;
  p.len = m.length;
  std::vector<MwayCopy> out;
  if (m.dst >= 0 || g.size(m.region) == 1) {
    const int dst = m.dst >= 0 ? m.dst : g.nodes(m.region).front();
    if (dst >= nodes || dst == node)
      throw std::invalid_argument("submit: dst " + std::to_string(dst) + " must be another node");
    p.kind = MwayKind::Unicast;
    p.dst = dst;
    p.region = g.point(dst);
    out.push_back({p, true});
    return out;
  }
  if (!g.valid(m.region)) throw std::invalid_argument("submit: Region outside the mesh");
  if (params.algorithm == MwayAlgorithm::UnicastOnly)
    throw std::invalid_argument("submit: algorithm unicast carries no Region broadcast");
  p.region = m.region;
  if (!g.contains(m.region, node)) {
    // Section 8: first a forwarded copy into the Region, then the algorithm from the entry node.
    p.kind = MwayKind::Forward;
    p.dst = g.entry_node(m.region, node);
    out.push_back({p, true});
  } else if (params.algorithm == MwayAlgorithm::MstUnicast || params.algorithm == MwayAlgorithm::RecursiveDoubling) {
    const auto sends = params.algorithm == MwayAlgorithm::MstUnicast ? g.mst_unicast_sends(m.region, node)
                                                                      : g.rd_sends(m.region, node);
    for (auto& s : sends) {
      p.kind = MwayKind::Forward;
      p.dst = s.dst;
      p.region = s.region;
      out.push_back({p, out.empty()});
    }
  } else {
    p.kind = MwayKind::Tree;
    out.push_back({p, true});
  }
  return out;
}

std::vector<MwayPacket> mway_follow_ups(const sw::MwayGeometry& g, MwayAlgorithm alg, const MwayPacket& p, int node) {
  std::vector<MwayPacket> out;
  if (g.size(p.region) <= 1) return out;  // responsible for itself only
  MwayPacket c = p;
  c.src = node;
  switch (alg) {
    case MwayAlgorithm::Mst:
    case MwayAlgorithm::MstSafe:
    case MwayAlgorithm::MstReplica:
      c.kind = MwayKind::Tree;
      c.dst = -1;
      out.push_back(c);
      break;
    case MwayAlgorithm::MstUnicast:
    case MwayAlgorithm::RecursiveDoubling:
      for (auto& s : alg == MwayAlgorithm::MstUnicast ? g.mst_unicast_sends(p.region, node) : g.rd_sends(p.region, node)) {
        c.kind = MwayKind::Forward;
        c.dst = s.dst;
        c.region = s.region;
        out.push_back(c);
      }
      break;
    case MwayAlgorithm::UnicastOnly:
      break;
  }
  return out;
}

}  // namespace wormcast
