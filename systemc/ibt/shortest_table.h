// Hop counts of ibt.routing = shortest (docs/router.md section 10): the fewest hops to a destination
// from each routing mode of a head, over the phased routes that rule allows.
#pragma once

#include <cstdint>
#include <vector>

#include "sw/topology/ibt.h"

namespace wormcast {

/// Phases of a shortest route, in the order a packet goes through them: for each layer i = 0 .. d-1
/// align hops over torus links (at most one per dimension, dimensions increasing) and then a run of
/// at most `max_run` hops on a bypass ring of dimension i (one direction); then dimension order over
/// torus links. Any part may be empty. The table holds the fewest hops from every node and mode to
/// every destination, per destination species (translations that keep species keep routes).
class ShortestTable {
 public:
  ShortestTable(const sw::IbtTopology& t, int max_run);

  /// Mode "in layer i, the next align hop in dimension e or above" (e = d: none left).
  int align_mode(int layer, int e) const { return layer * (m_t.dims() + 1) + e; }
  /// Mode "k = 1 .. max_run hops into a bypass run going plus (dir 0) or minus (dir 1)"; the layer
  /// is the node's bypass dimension.
  int run_mode(int dir, int k) const { return m_t.dims() * (m_t.dims() + 1) + dir * m_max_run + k - 1; }
  int max_run() const { return m_max_run; }

  /// Fewest hops from `node` in `mode` to `dst`.
  int cost(int mode, int64_t node, int64_t dst) const {
    const size_t s = size_t(m_t.species(dst));
    return m_cost[s][size_t(mode) * size_t(m_t.num_nodes()) + size_t(sw::translate_to_representative(m_t, dst, node))];
  }
  /// Fewest hops from `node` on entering layer `layer` (layer d: dimension order) to `dst`.
  int entry_cost(int layer, int64_t node, int64_t dst) const {
    return layer < m_t.dims() ? cost(align_mode(layer, 0), node, dst) : torus_distance(node, dst);
  }
  int torus_distance(int64_t from, int64_t to) const;

 private:
  sw::IbtTopology m_t;
  int m_max_run;
  std::vector<std::vector<int16_t>> m_cost;  ///< per destination species: [mode][node] to its representative
};

}  // namespace wormcast
