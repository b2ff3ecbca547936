// Hop counts of ibt.routing = shortest (docs/router.md section 10): the fewest hops to a destination
// from each routing mode of a head, over the layered routes that rule allows.
#pragma once

#include <cstdint>
#include <vector>

#include "sw/topology/ibt.h"

namespace wormcast {

/// Phases of a shortest route, in the order a packet goes through them: layers j = 0 .. L-1, each
/// align hops over torus links (at most one per dimension, dimensions increasing) and then a run
/// on a bypass ring of species species_of_layer(j) (one direction, any length); then dimension
/// order over torus links. Any part may be empty. The layers go through the species cyclically,
/// starting at the first species of the longest bypass length, so every ring of a network appears
/// once in every dk consecutive layers. The table holds the fewest hops from every node and mode
/// to every destination, per destination species (translations that keep species keep routes).
class ShortestTable {
 public:
  ShortestTable(const sw::IbtTopology& t, int layers);

  /// The default number of layers of a network: d*k + 3 (docs/router.md section 10).
  static int auto_layers(const sw::IbtTopology& t) { return t.num_species() + 3; }

  int layers() const { return m_layers; }
  /// The species whose bypass ring layer j runs on.
  int species_of_layer(int j) const { return (m_first + j) % m_t.num_species(); }
  /// The layer of a run on a ring of species s in the p-th group of d*k layers.
  int layer_of(int s, int pass) const {
    const int dk = m_t.num_species();
    return pass * dk + ((s - m_first) % dk + dk) % dk;
  }

  /// Mode "in layer j, the next align hop in dimension e or above" (e = d: none left).
  int align_mode(int layer, int e) const { return layer * (m_t.dims() + 1) + e; }
  /// Mode "in the run of layer j going plus (dir 0) or minus (dir 1)".
  int run_mode(int layer, int dir) const { return m_layers * (m_t.dims() + 1) + 2 * layer + dir; }

  /// Fewest hops from `node` in `mode` to `dst`.
  int cost(int mode, int64_t node, int64_t dst) const {
    return m_cost[m_species[size_t(dst)]][size_t(mode) * size_t(m_t.num_nodes()) + relative(node, dst)];
  }
  /// The species of a router (sw::IbtTopology::species, tabulated).
  int species(int64_t node) const { return m_species[size_t(node)]; }
  /// Fewest hops from `node` on entering layer `layer` (layer L: dimension order) to `dst`.
  int entry_cost(int layer, int64_t node, int64_t dst) const {
    return layer < m_layers ? cost(align_mode(layer, 0), node, dst) : torus_distance(node, dst);
  }
  int torus_distance(int64_t from, int64_t to) const;

 private:
  /// sw::translate_to_representative(t, dst, node) from the tabulated coordinates.
  size_t relative(int64_t node, int64_t dst) const {
    const int d = m_t.dims(), n = m_t.n();
    const int32_t* v = &m_coord[size_t(node) * size_t(d)];
    const int32_t* a = &m_coord[size_t(dst) * size_t(d)];
    size_t idx = 0;
    for (int i = 0; i < d; ++i) {
      int c = int(v[i]) - int(a[i]) + (i == 0 ? int(m_species[size_t(dst)]) : 0);  // in (-n, 2n)
      c += c < 0 ? n : 0;
      c -= c >= n ? n : 0;
      idx += size_t(c) * size_t(m_t.stride(i));
    }
    return idx;
  }

  sw::IbtTopology m_t;
  int m_layers;
  int m_first;  ///< species of layer 0
  std::vector<int32_t> m_coord;    ///< [node][dim]
  std::vector<uint8_t> m_species;  ///< [node]
  std::vector<std::vector<int16_t>> m_cost;  ///< per destination species: [mode][node] to its representative
};

}  // namespace wormcast
