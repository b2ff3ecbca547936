// Wait-for graph assembly and cycle search (iterative depth-first search, three colours).
#include "systemc/net/wait_for.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

namespace wormcast {

WaitForGraph build_wait_for(std::vector<WaitEdge> waits) {
  WaitForGraph g;
  std::map<std::string, int> id;
  for (auto& w : waits) {
    id.emplace(w.waiter, 0);
    if (!w.holder.empty()) id.emplace(w.holder, 0);
  }
  for (auto& [name, i] : id) {
    i = int(g.nodes.size());
    g.nodes.push_back(name);
  }
  for (auto& w : waits)
    if (!w.holder.empty()) g.edges.emplace_back(id[w.waiter], id[w.holder]);
  std::sort(g.edges.begin(), g.edges.end());
  g.edges.erase(std::unique(g.edges.begin(), g.edges.end()), g.edges.end());
  g.waits = std::move(waits);

  const int n = int(g.nodes.size());
  std::vector<std::vector<int>> adj(static_cast<size_t>(n));
  for (auto& [a, b] : g.edges) adj[size_t(a)].push_back(b);
  std::vector<int> colour(size_t(n), 0), parent(size_t(n), -1);  // 0 new, 1 on the stack, 2 done
  for (int s = 0; s < n && g.cycle.empty(); ++s) {
    if (colour[size_t(s)]) continue;
    std::vector<std::pair<int, size_t>> stack{{s, 0}};
    colour[size_t(s)] = 1;
    while (!stack.empty() && g.cycle.empty()) {
      auto& [u, next] = stack.back();
      if (next == adj[size_t(u)].size()) {
        colour[size_t(u)] = 2;
        stack.pop_back();
        continue;
      }
      const int v = adj[size_t(u)][next++];
      if (colour[size_t(v)] == 0) {
        colour[size_t(v)] = 1;
        parent[size_t(v)] = u;
        stack.emplace_back(v, 0);
      } else if (colour[size_t(v)] == 1) {  // back edge u -> v closes a cycle v .. u
        for (int x = u; x != v; x = parent[size_t(x)]) g.cycle.push_back(x);
        g.cycle.push_back(v);
        std::reverse(g.cycle.begin(), g.cycle.end());
      }
    }
  }
  return g;
}

std::vector<char> reaches_cycle(const WaitForGraph& g) {
  // Peel off nodes whose every successor has been peeled (a sink first): what is never peeled has
  // a path into a cycle.
  const size_t n = g.nodes.size();
  std::vector<std::vector<int>> pred(n);
  std::vector<int> out(n, 0);
  for (auto& [a, b] : g.edges) {
    pred[size_t(b)].push_back(a);
    ++out[size_t(a)];
  }
  std::vector<char> keep(n, 1);
  std::vector<int> todo;
  for (size_t i = 0; i < n; ++i)
    if (out[i] == 0) todo.push_back(int(i));
  while (!todo.empty()) {
    const int v = todo.back();
    todo.pop_back();
    keep[size_t(v)] = 0;
    for (int u : pred[size_t(v)])
      if (--out[size_t(u)] == 0) todo.push_back(u);
  }
  return keep;
}

std::vector<char> reaches_unnamed(const WaitForGraph& g) {
  const size_t n = g.nodes.size();
  const auto node_of = [&](const std::string& name) {
    return size_t(std::lower_bound(g.nodes.begin(), g.nodes.end(), name) - g.nodes.begin());
  };
  std::vector<std::vector<int>> pred(n);
  for (auto& [a, b] : g.edges) pred[size_t(b)].push_back(a);
  std::vector<char> reach(n, 0);
  std::vector<int> todo;
  for (const WaitEdge& w : g.waits)
    if (w.holder.empty() && !reach[node_of(w.waiter)]) {
      reach[node_of(w.waiter)] = 1;
      todo.push_back(int(node_of(w.waiter)));
    }
  while (!todo.empty()) {  // backwards from them
    const int v = todo.back();
    todo.pop_back();
    for (int u : pred[size_t(v)])
      if (!reach[size_t(u)]) {
        reach[size_t(u)] = 1;
        todo.push_back(u);
      }
  }
  return reach;
}

std::vector<int> path_to_sink(const WaitForGraph& g, int from) {
  const std::vector<char> cyc = reaches_cycle(g);
  if (from < 0 || size_t(from) >= g.nodes.size() || cyc[size_t(from)]) return {};
  std::vector<int> path{from};
  for (;;) {
    const int u = path.back();
    auto it = std::lower_bound(g.edges.begin(), g.edges.end(), std::make_pair(u, -1));
    if (it == g.edges.end() || it->first != u) return path;
    path.push_back(it->second);  // acyclic from here on (u reaches no cycle), so this ends
  }
}

bool WaitForGraph::has_edge(int from, int to) const {
  return std::binary_search(edges.begin(), edges.end(), std::make_pair(from, to));
}

nlohmann::json WaitForGraph::to_json() const {
  nlohmann::json j;
  nlohmann::json w = nlohmann::json::array();
  for (auto& e : waits)
    w.push_back({{"waiter", e.waiter}, {"holder", e.holder.empty() ? nlohmann::json(nullptr) : nlohmann::json(e.holder)},
                 {"packet", e.packet ? nlohmann::json(*e.packet) : nlohmann::json(nullptr)}, {"dst", e.dst}, {"occupancy", e.occupancy}});
  j["waits"] = w;
  j["buffers"] = nodes.size();
  j["edges"] = edges.size();
  nlohmann::json c = nlohmann::json::array();
  for (int i : cycle) c.push_back(nodes[size_t(i)]);
  j["cycle"] = c;
  return j;
}

std::string WaitForGraph::to_dot() const {
  std::string s = "digraph wait_for {\n  // an edge A -> B: buffer A waits for buffer B\n  node [shape=box];\n";
  std::vector<char> on_cycle(nodes.size(), 0);
  for (int i : cycle) on_cycle[size_t(i)] = 1;
  for (size_t i = 0; i < nodes.size(); ++i)
    s += fmt::format("  n{} [label=\"{}\"{}];\n", i, nodes[i], on_cycle[i] ? ", color=red" : "");
  auto cycle_edge = [&](int a, int b) {
    for (size_t i = 0; i < cycle.size(); ++i)
      if (cycle[i] == a && cycle[(i + 1) % cycle.size()] == b) return true;
    return false;
  };
  for (auto& [a, b] : edges) s += fmt::format("  n{} -> n{}{};\n", a, b, cycle_edge(a, b) ? " [color=red]" : "");
  return s + "}\n";
}

}  // namespace wormcast
