// Schedule verifier: Definition 1, stepwise and depth (Theorem 1) contention-freedom, step bound.
#include "sw/schedule/verify.h"

#include <algorithm>
#include <tuple>
#include <unordered_set>

namespace wormcast::sw {

namespace {

constexpr size_t kMaxErrors = 10;

void note(Verdict& v, const std::string& line) {
  if (v.errors.size() < kMaxErrors) v.errors.push_back(line);
}

/// Reachable sets (Definition 2) over the first-receipt tree, as Euler-tour intervals.
class ReachTree {
 public:
  ReachTree(int nodes, int root, const std::vector<int>& parent) : m_in(size_t(nodes), -1), m_out(size_t(nodes), -1) {
    std::vector<std::vector<int>> children(static_cast<size_t>(nodes));
    for (int x = 0; x < nodes; ++x)
      if (parent[size_t(x)] >= 0) children[size_t(parent[size_t(x)])].push_back(x);
    int clock = 0;
    // Iterative DFS: a non-causal schedule may contain parent cycles away from the root; they
    // are simply never reached.
    std::vector<std::pair<int, size_t>> stack{{root, 0}};
    m_in[size_t(root)] = clock++;
    while (!stack.empty()) {
      auto& [node, next] = stack.back();
      if (next < children[size_t(node)].size()) {
        const int c = children[size_t(node)][next++];
        if (m_in[size_t(c)] < 0) {
          m_in[size_t(c)] = clock++;
          stack.push_back({c, 0});
        }
      } else {
        m_out[size_t(node)] = clock++;
        stack.pop_back();
      }
    }
  }
  /// x in R_v.
  bool reaches(int v, int x) const {
    return m_in[size_t(v)] >= 0 && m_in[size_t(x)] >= 0 && m_in[size_t(v)] <= m_in[size_t(x)] &&
           m_out[size_t(x)] <= m_out[size_t(v)];
  }

 private:
  std::vector<int> m_in, m_out;
};

/// The gossip branch of verify(): holdings replayed step by step, one pass over every arc.
void verify_gossip(const Schedule& s, Verdict& v) {
  const Topology& t = s.topology;
  const int nodes = t.num_nodes();
  const int per = s.chunks_per_node;
  const std::vector<Unicast>& us = s.unicasts;
  std::vector<ChunkSet> holds(static_cast<size_t>(nodes));
  for (int x = 0; x < nodes; ++x)
    for (int c = 0; c < per; ++c) holds[size_t(x)].add(x * per + c);

  // The unicasts of step s are by_step[first[s] .. first[s + 1]), in schedule order; by_step
  // stays empty when the schedule lists them by step already (as generated: millions of them),
  // the positions being their indices then.
  std::vector<size_t> first(size_t(s.num_steps) + 2, 0);
  for (const Unicast& u : us) ++first[size_t(u.step) + 1];
  for (size_t k = 1; k < first.size(); ++k) first[k] += first[k - 1];
  std::vector<int> by_step;
  if (!std::is_sorted(us.begin(), us.end(), [](const Unicast& a, const Unicast& b) { return a.step < b.step; })) {
    by_step.resize(us.size());
    std::vector<size_t> next(first.begin(), first.end() - 1);
    for (int i = 0; i < int(us.size()); ++i) by_step[next[size_t(us[size_t(i)].step)]++] = i;
  }
  auto unicast_at = [&](size_t pos) { return by_step.empty() ? int(pos) : by_step[pos]; };

  const int ports = t.num_net_ports();
  // Arc -> last (step, unicast) that used it: a second user in the same step is a conflict.
  std::vector<int> arc_step(size_t(nodes) * size_t(ports), 0), arc_user(size_t(nodes) * size_t(ports), -1);
  for (int step = 1; step <= s.num_steps; ++step) {
    const size_t begin = first[size_t(step)], end = first[size_t(step) + 1];
    for (size_t pos = begin; pos < end; ++pos) {
      const int i = unicast_at(pos);
      const Unicast& u = us[size_t(i)];
      if (u.chunks.empty()) ++v.empty_unicasts;
      const int missing = u.chunks.first_missing_from(holds[size_t(u.src)]);
      if (missing >= 0) {
        ++v.chunk_causality_violations;
        note(v, "step " + std::to_string(step) + ": " + format_node(t, u.src) + " sends chunk " +
                    std::to_string(missing) + " (of node " + format_node(t, missing / per) + ") to " +
                    format_node(t, u.dst) + " before it holds it");
      }
      for (const Arc& a : unicast_path(t, u)) {
        const size_t k = size_t(a.node) * size_t(ports) + size_t(a.port);
        if (arc_step[k] == step) {
          ++v.stepwise_conflicts;
          const UnicastPair pair{arc_user[k], i, a};
          if (!v.first_stepwise_conflict.valid()) v.first_stepwise_conflict = pair;
        }
        arc_step[k] = step;
        arc_user[k] = i;
      }
    }
    for (size_t pos = begin; pos < end; ++pos) {
      const Unicast& u = us[size_t(unicast_at(pos))];
      holds[size_t(u.dst)].add(u.chunks);
    }
  }
  v.chunk_causal = v.chunk_causality_violations == 0;
  v.stepwise_contention_free = v.stepwise_conflicts == 0;
  const int total = nodes * per;
  // A node that receives every chunk it ends with, except its own, once receives exactly
  // (final - own) chunks; anything beyond that is a chunk it already held (or got twice in a step).
  std::vector<long long> received(size_t(nodes), 0);
  for (const Unicast& u : us) received[size_t(u.dst)] += u.chunks.count();
  for (int x = 0; x < nodes; ++x) {
    const long long extra = received[size_t(x)] - (holds[size_t(x)].count() - per);
    if (extra > 0) {
      v.repeated_chunks += extra;
      ++v.nodes_with_repeats;
    }
  }
  for (int x = 0; x < nodes; ++x)
    if (holds[size_t(x)].count() != total) {
      ++v.incomplete_nodes;
      if (v.incomplete_nodes <= 3)
        note(v, "node " + format_node(t, x) + " ends with " + std::to_string(holds[size_t(x)].count()) +
                    " of " + std::to_string(total) + " chunks");
    }
  v.complete = v.incomplete_nodes == 0;
  if (v.first_stepwise_conflict.valid())
    note(v, "stepwise conflict: " + describe_pair(s, v.first_stepwise_conflict));
}

}  // namespace

Verdict verify(const Schedule& s, const VerifyOptions& o) {
  Verdict v = verify(s);
  if (!o.one_port) return v;
  v.one_port_checked = true;
  // Count sends and receipts per (node, step); a bad step is already reported by verify().
  std::vector<long long> keys;
  keys.reserve(2 * s.unicasts.size());
  const long long steps = s.num_steps + 1LL;
  for (const Unicast& u : s.unicasts) {
    keys.push_back((u.src * steps + u.step) * 2);
    keys.push_back((u.dst * steps + u.step) * 2 + 1);
  }
  std::sort(keys.begin(), keys.end());
  for (size_t i = 1; i < keys.size(); ++i) {
    if (keys[i] != keys[i - 1] || (i >= 2 && keys[i - 2] == keys[i])) continue;  // each clash once
    ++v.one_port_violations;
    const long long node = keys[i] / 2 / steps, step = keys[i] / 2 % steps;
    note(v, "one-port: node " + format_node(s.topology, int(node)) + (keys[i] % 2 ? " receives" : " sends") +
                " more than one message in step " + std::to_string(step));
  }
  v.one_port = v.one_port_violations == 0;
  return v;
}

Verdict verify(const Schedule& s) {
  const Topology& t = s.topology;
  const int nodes = t.num_nodes();
  const std::vector<Unicast>& us = s.unicasts;
  const int count = int(us.size());
  Verdict v;
  v.num_nodes = nodes;
  v.num_unicasts = count;
  v.steps = s.num_steps;
  v.lower_bound = ceil_log(nodes, 2 * t.dims() + 1);

  for (int i = 0; i < count; ++i) {
    const Unicast& u = us[size_t(i)];
    if (u.src < 0 || u.src >= nodes || u.dst < 0 || u.dst >= nodes || u.src == u.dst ||
        u.step < 1 || u.step > s.num_steps) {
      v.steps_valid = false;
      note(v, "unicast " + std::to_string(i) + " has an invalid node or step");
    }
  }
  if (s.collective == Collective::Broadcast && (s.source < 0 || s.source >= nodes)) {
    v.steps_valid = false;
    note(v, "source outside the network");
  }
  if (s.collective == Collective::Gossip) {
    v.gossip = true;
    if (s.chunks_per_node < 1) {
      v.steps_valid = false;
      note(v, "chunks_per_node must be >= 1");
    }
    if (!v.steps_valid) {
      v.complete = v.chunk_causal = v.stepwise_contention_free = false;
      return v;
    }
    verify_gossip(s, v);
    return v;
  }
  if (!v.steps_valid) {
    v.source_only_first_step = v.causal = v.distinct_first_channels = v.exactly_once = false;
    v.stepwise_contention_free = v.depth_contention_free = false;
    return v;
  }

  // Receipts and the first-receipt tree.
  std::vector<int> receipts(size_t(nodes), 0), first(size_t(nodes), -1);
  for (int i = 0; i < count; ++i) {
    const Unicast& u = us[size_t(i)];
    ++receipts[size_t(u.dst)];
    int& f = first[size_t(u.dst)];
    if (f < 0 || u.step < us[size_t(f)].step) f = i;
  }
  for (int x = 0; x < nodes; ++x) {
    if (x == s.source) {
      v.duplicates += receipts[size_t(x)];
      if (receipts[size_t(x)]) note(v, "the source " + format_node(t, x) + " receives the message");
    } else if (receipts[size_t(x)] == 0) {
      ++v.missing;
      if (v.missing <= 3) note(v, "node " + format_node(t, x) + " never receives the message");
    } else if (receipts[size_t(x)] > 1) {
      v.duplicates += receipts[size_t(x)] - 1;
      note(v, "node " + format_node(t, x) + " receives the message " +
                  std::to_string(receipts[size_t(x)]) + " times");
    }
  }
  v.exactly_once = v.missing == 0 && v.duplicates == 0;

  // Conditions 1 and 2.
  for (int i = 0; i < count; ++i) {
    const Unicast& u = us[size_t(i)];
    if (u.step == 1 && u.src != s.source) {
      v.source_only_first_step = false;
      note(v, "step 1: " + format_node(t, u.src) + " sends but is not the source");
    }
    if (u.src == s.source) continue;
    const int f = first[size_t(u.src)];
    if (f < 0 || us[size_t(f)].step >= u.step) {
      ++v.causality_violations;
      note(v, "step " + std::to_string(u.step) + ": " + format_node(t, u.src) + " sends to " +
                  format_node(t, u.dst) + " before it holds the message");
    }
  }
  v.causal = v.causality_violations == 0;

  // Condition 3, and the per-sender lists condition 4 needs.
  std::vector<int> port(static_cast<size_t>(count));
  std::vector<std::vector<int>> by_sender(static_cast<size_t>(nodes));
  for (int i = 0; i < count; ++i) {
    port[size_t(i)] = first_port(t, us[size_t(i)]);
    by_sender[size_t(us[size_t(i)].src)].push_back(i);
  }
  for (int x = 0; x < nodes; ++x) {
    const std::vector<int>& mine = by_sender[size_t(x)];
    for (size_t a = 0; a < mine.size(); ++a)
      for (size_t b = a + 1; b < mine.size(); ++b) {
        const int i = mine[a], j = mine[b];
        if (us[size_t(i)].step == us[size_t(j)].step && port[size_t(i)] == port[size_t(j)]) {
          ++v.first_channel_clashes;
          note(v, "step " + std::to_string(us[size_t(i)].step) + ": " + format_node(t, x) +
                      " sends to " + format_node(t, us[size_t(i)].dst) + " and " +
                      format_node(t, us[size_t(j)].dst) + " on the same channel " +
                      format_port(port[size_t(i)]));
        }
      }
  }
  v.distinct_first_channels = v.first_channel_clashes == 0;

  // Arc -> users.
  const int ports = t.num_net_ports();
  std::vector<std::vector<int>> users(size_t(nodes) * size_t(ports));
  for (int i = 0; i < count; ++i)
    for (const Arc& a : unicast_path(t, us[size_t(i)]))
      users[size_t(a.node) * size_t(ports) + size_t(a.port)].push_back(i);

  std::vector<int> parent(size_t(nodes), -1);
  for (int x = 0; x < nodes; ++x)
    if (x != s.source && first[size_t(x)] >= 0) parent[size_t(x)] = us[size_t(first[size_t(x)])].src;
  const ReachTree reach(nodes, s.source, parent);

  // Theorem 1 with (u, v, t) = us[i] and (x, y, tau) = us[j], t <= tau.
  auto covered = [&](int i, int j) -> int {
    const Unicast& a = us[size_t(i)];
    const Unicast& b = us[size_t(j)];
    if (a.src == b.src && port[size_t(i)] == port[size_t(j)]) return 3;
    for (int m : by_sender[size_t(a.src)]) {
      const Unicast& w = us[size_t(m)];
      if (w.step > a.step && port[size_t(m)] == port[size_t(i)] && reach.reaches(w.dst, b.src)) return 4;
    }
    if (reach.reaches(a.dst, b.src)) return 1;
    return 0;
  };
  auto earlier = [&](const UnicastPair& p, const UnicastPair& q) {
    auto key = [&](const UnicastPair& r) {
      return std::make_tuple(us[size_t(r.first)].step, us[size_t(r.second)].step, r.first, r.second);
    };
    return key(p) < key(q);
  };

  std::unordered_set<uint64_t> seen;
  for (size_t arc = 0; arc < users.size(); ++arc) {
    const std::vector<int>& list = users[arc];
    for (size_t a = 0; a < list.size(); ++a)
      for (size_t b = a + 1; b < list.size(); ++b) {
        int i = list[a], j = list[b];
        if (i == j) continue;
        if (!seen.insert((uint64_t(uint32_t(std::min(i, j))) << 32) | uint32_t(std::max(i, j))).second)
          continue;
        if (us[size_t(i)].step > us[size_t(j)].step || (us[size_t(i)].step == us[size_t(j)].step && i > j))
          std::swap(i, j);
        const UnicastPair pair{i, j, Arc{int(arc / size_t(ports)), int(arc % size_t(ports))}};
        ++v.sharing_pairs;
        const bool same_step = us[size_t(i)].step == us[size_t(j)].step;
        if (same_step) {
          ++v.stepwise_conflicts;
          if (!v.first_stepwise_conflict.valid() || earlier(pair, v.first_stepwise_conflict))
            v.first_stepwise_conflict = pair;
        }
        int c = covered(i, j);
        if (!c && same_step) c = covered(j, i);  // t == tau: either may play (u, v)
        switch (c) {
          case 1: ++v.covered_c1; break;
          case 3: ++v.covered_c3; break;
          case 4: ++v.covered_c4; break;
          default:
            ++v.uncovered_pairs;
            if (!v.first_uncovered.valid() || earlier(pair, v.first_uncovered)) v.first_uncovered = pair;
        }
      }
  }
  v.stepwise_contention_free = v.stepwise_conflicts == 0;
  v.depth_contention_free = v.uncovered_pairs == 0;
  if (v.first_stepwise_conflict.valid())
    note(v, "stepwise conflict: " + describe_pair(s, v.first_stepwise_conflict));
  if (v.first_uncovered.valid())
    note(v, "not covered by Theorem 1: " + describe_pair(s, v.first_uncovered));
  return v;
}

VerifyCost verify_cost(const Schedule& s) {
  VerifyCost c;
  const Topology& t = s.topology;
  const int nodes = t.num_nodes();
  if (s.collective == Collective::Gossip || nodes <= 0) return c;
  c.unicasts = double(s.unicasts.size());
  std::vector<double> sends(size_t(nodes), 0.0);
  for (const Unicast& u : s.unicasts)
    if (u.src >= 0 && u.src < nodes) sends[size_t(u.src)] += 1;
  // The channels the unicasts cross, counted from their hop counts: past kMaxArcUses the estimate
  // below would itself take a minute and gigabytes, and the check more; the count alone then says so.
  for (const Unicast& u : s.unicasts)
    if (u.src >= 0 && u.src < nodes && u.dst >= 0 && u.dst < nodes && u.src != u.dst)
      c.arc_uses += double(t.hops(u.src, u.dst, u.tie_negative));
  if (c.arc_uses > VerifyCost::kMaxArcUses) {
    c.partial = true;
    return c;
  }
  // One key per (arc, sender, first port) a unicast passes: sorted, the runs are the arcs' users
  // grouped as the cover test sees them. A pair with one sender and one first port is settled at
  // once (condition 3); any other pair may scan the sends of either sender. (Key: the arc above
  // bit 25, the sender in bits 5..24, up to 2^20 nodes, the first port in bits 0..4.)
  const uint64_t ports = uint64_t(t.num_net_ports());
  std::vector<uint64_t> keys;
  keys.reserve(size_t(c.arc_uses));
  for (const Unicast& u : s.unicasts) {
    if (u.src < 0 || u.src >= nodes || u.dst < 0 || u.dst >= nodes || u.src == u.dst) continue;
    const uint64_t first = uint64_t(first_port(t, u));
    for (const Arc& a : unicast_path(t, u))
      keys.push_back(((uint64_t(a.node) * ports + uint64_t(a.port)) << 25) | (uint64_t(u.src) << 5) | first);
  }
  std::sort(keys.begin(), keys.end());
  for (size_t i = 0; i < keys.size();) {
    size_t j = i;
    while (j < keys.size() && keys[j] >> 25 == keys[i] >> 25) ++j;
    const double n = double(j - i);
    c.sharing_pairs += n * (n - 1) / 2;
    for (size_t g = i; g < j;) {  // groups of one sender and first port within the arc
      size_t h = g;
      while (h < j && keys[h] == keys[g]) ++h;
      const double ng = double(h - g);
      c.cover_scans += ng * sends[size_t((keys[g] >> 5) & 0xfffff)] * (n - ng);
      g = h;
    }
    i = j;
  }
  return c;
}

std::string describe_pair(const Schedule& s, const UnicastPair& p) {
  if (!p.valid()) return "none";
  const Topology& t = s.topology;
  auto one = [&](int i) {
    const Unicast& u = s.unicasts[size_t(i)];
    return "step " + std::to_string(u.step) + " " + format_node(t, u.src) + "->" + format_node(t, u.dst);
  };
  return one(p.first) + " and " + one(p.second) + " share arc " + format_node(t, p.arc.node) + " " +
         format_port(p.arc.port);
}

std::string format_verdict(const Schedule& s, const Verdict& v) {
  auto yes = [](bool b) { return std::string(b ? "yes" : "NO"); };
  std::string o;
  if (v.gossip) {
    o += "steps: " + std::to_string(v.steps) + "\n";
    o += "unicasts: " + std::to_string(v.num_unicasts) + "\n";
    o += "every node holds all " + std::to_string(v.num_nodes * s.chunks_per_node) + " chunks: " +
         yes(v.complete) + (v.complete ? "" : " (" + std::to_string(v.incomplete_nodes) + " nodes short)") + "\n";
    // Not part of the verdict: Approach 2's dissemination and the Phase 3/4a fill send whole data,
    // the receiver's own part included (docs/schedules.md); only the count is reported.
    if (v.repeated_chunks == 0)
      o += "chunks delivered to a node that already holds them: none (every chunk reaches a node exactly once)\n";
    else
      o += "chunks delivered to a node that already holds them: " + std::to_string(v.repeated_chunks) + " at " +
           std::to_string(v.nodes_with_repeats) + " nodes (the algorithm resends whole data; counted, not a failure)\n";
    o += "a node only sends chunks it holds: " + yes(v.chunk_causal) +
         (v.chunk_causal ? "" : " (" + std::to_string(v.chunk_causality_violations) + " unicasts)") + "\n";
    o += "overlap-free (no directed link twice in a step): " + yes(v.stepwise_contention_free);
    if (!v.stepwise_contention_free)
      o += " (" + std::to_string(v.stepwise_conflicts) + " conflicts; first: " +
           describe_pair(s, v.first_stepwise_conflict) + ")";
    o += "\n";
    if (v.one_port_checked)
      o += "one-port (a node sends at most one and receives at most one message per step): " + yes(v.one_port) +
           (v.one_port ? "" : " (" + std::to_string(v.one_port_violations) + " violations)") + "\n";
    for (const std::string& e : v.errors) o += "  " + e + "\n";
    o += std::string("verdict: ") + (v.ok() ? "PASS" : "FAIL") +
         " (every node holds every chunk, a node only sends chunks it holds, overlap-free" +
         (v.one_port_checked ? ", one-port)\n" : ")\n");
    return o;
  }
  o += "steps: " + std::to_string(v.steps) + " (lower bound ceil(log_" +
       std::to_string(2 * s.topology.dims() + 1) + " " + std::to_string(v.num_nodes) +
       ") = " + std::to_string(v.lower_bound) + ")\n";
  o += "unicasts: " + std::to_string(v.num_unicasts) + "\n";
  o += "definition 1: " + yes(v.definition1()) + "\n";
  o += "  only the source sends in step 1: " + yes(v.source_only_first_step) + "\n";
  o += "  causal: " + yes(v.causal) +
       (v.causal ? "" : " (" + std::to_string(v.causality_violations) + " sends too early)") + "\n";
  o += "  distinct first channels per sender and step: " + yes(v.distinct_first_channels) +
       (v.distinct_first_channels ? "" : " (" + std::to_string(v.first_channel_clashes) + " clashes)") + "\n";
  o += "  exactly once: " + yes(v.exactly_once) +
       (v.exactly_once ? "" : " (" + std::to_string(v.missing) + " missing, " +
                                  std::to_string(v.duplicates) + " duplicate receipts)") + "\n";
  o += "stepwise contention-free: " + yes(v.stepwise_contention_free);
  if (!v.stepwise_contention_free)
    o += " (" + std::to_string(v.stepwise_conflicts) + " pairs; first: " +
         describe_pair(s, v.first_stepwise_conflict) + ")";
  o += "\n";
  o += "depth contention-free (Theorem 1): " + yes(v.depth_contention_free) + " (" +
       std::to_string(v.sharing_pairs) + " arc-sharing pairs: " + std::to_string(v.covered_c3) +
       " by condition 3, " + std::to_string(v.covered_c4) + " by condition 4, " +
       std::to_string(v.covered_c1) + " by condition 1, " + std::to_string(v.uncovered_pairs) +
       " uncovered)";
  if (!v.depth_contention_free) o += "\n  first uncovered: " + describe_pair(s, v.first_uncovered);
  o += "\n";
  o += std::string("verdict: ") + (v.ok() ? "PASS" : "FAIL") +
       " (Definition 1 and stepwise contention-freedom)\n";
  return o;
}

}  // namespace wormcast::sw
