// Hop counts of ibt.routing = shortest, by dynamic programming over its layers, last layer first.
#include "systemc/ibt/shortest_table.h"

#include <algorithm>

namespace wormcast {

int ShortestTable::torus_distance(int64_t from, int64_t to) const {
  int h = 0;
  for (int i = 0; i < m_t.dims(); ++i) {
    const int f = ((m_t.coord_of(to, i) - m_t.coord_of(from, i)) % m_t.n() + m_t.n()) % m_t.n();
    h += std::min(f, m_t.n() - f);
  }
  return h;
}

ShortestTable::ShortestTable(const sw::IbtTopology& t, int layers) : m_t(t), m_layers(layers), m_first(0) {
  const int d = t.dims(), bp = t.bypass_port();
  // Layer 0 runs on the first species of the longest bypass length.
  const auto& b = t.bypass();
  m_first = d * int(std::max_element(b.begin(), b.end()) - b.begin());
  const size_t N = size_t(t.num_nodes());
  m_coord.resize(N * size_t(d));
  m_species.resize(N);
  for (int64_t u = 0; u < int64_t(N); ++u) {
    m_species[size_t(u)] = uint8_t(t.species(u));
    for (int i = 0; i < d; ++i) m_coord[size_t(u) * size_t(d) + size_t(i)] = int32_t(t.coord_of(u, i));
  }
  const int modes = layers * (d + 1) + 2 * layers;
  for (int s = 0; s < t.num_species(); ++s) {
    const int64_t rep = sw::species_representative(t, s);
    std::vector<int16_t> c(size_t(modes) * N);
    auto at = [&](int mode, int64_t u) -> int16_t& { return c[size_t(mode) * N + size_t(u)]; };
    auto entry = [&](int layer, int64_t u) -> int {
      return layer < layers ? at(align_mode(layer, 0), u) : torus_distance(u, rep);
    };
    for (int layer = layers - 1; layer >= 0; --layer) {
      const int sp = species_of_layer(layer);
      // The run of this layer: end here, or one more hop in its direction. The rings are cycles,
      // so relax until nothing changes (at most half a ring's nodes of rounds: a longer run never
      // beats the other direction).
      for (int dir = 0; dir < 2; ++dir) {
        for (int64_t u = 0; u < int64_t(N); ++u)
          if (species(u) == sp) at(run_mode(layer, dir), u) = int16_t(entry(layer + 1, u));
        for (bool changed = true; changed;) {
          changed = false;
          for (int64_t u = 0; u < int64_t(N); ++u) {
            if (species(u) != sp) continue;
            const int via = 1 + at(run_mode(layer, dir), t.neighbor(u, bp + dir));
            if (via < at(run_mode(layer, dir), u)) {
              at(run_mode(layer, dir), u) = int16_t(via);
              changed = true;
            }
          }
        }
      }
      for (int e = d; e >= 0; --e)
        for (int64_t u = 0; u < int64_t(N); ++u) {
          int best = entry(layer + 1, u);
          if (species(u) == sp)
            for (int dir = 0; dir < 2; ++dir) best = std::min(best, 1 + at(run_mode(layer, dir), t.neighbor(u, bp + dir)));
          for (int p = 2 * e; p < 2 * d; ++p) best = std::min(best, 1 + at(align_mode(layer, (p >> 1) + 1), t.neighbor(u, p)));
          at(align_mode(layer, e), u) = int16_t(best);
        }
    }
    m_cost.push_back(std::move(c));
  }
}

}  // namespace wormcast
