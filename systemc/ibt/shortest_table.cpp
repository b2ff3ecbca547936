// Hop counts of ibt.routing = shortest, by dynamic programming over its phases, last phase first.
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

ShortestTable::ShortestTable(const sw::IbtTopology& t, int max_run) : m_t(t), m_max_run(max_run) {
  const int d = t.dims(), bp = t.bypass_port();
  const size_t N = size_t(t.num_nodes());
  const int modes = d * (d + 1) + 2 * max_run;
  for (int s = 0; s < t.num_species(); ++s) {
    const int64_t rep = sw::species_representative(t, s);
    std::vector<int16_t> c(size_t(modes) * N);
    auto at = [&](int mode, int64_t u) -> int16_t& { return c[size_t(mode) * N + size_t(u)]; };
    auto entry = [&](int layer, int64_t u) -> int { return layer < d ? at(align_mode(layer, 0), u) : torus_distance(u, rep); };
    for (int layer = d - 1; layer >= 0; --layer) {
      // Bypass runs of this layer: end here, or one more hop in the run's direction while the run
      // is shorter than max_run.
      for (int k = max_run; k >= 1; --k)
        for (int64_t u = 0; u < int64_t(N); ++u) {
          if (t.bypass_dim(u) != layer) continue;
          for (int dir = 0; dir < 2; ++dir) {
            int best = entry(layer + 1, u);
            if (k < max_run) best = std::min(best, 1 + at(run_mode(dir, k + 1), t.neighbor(u, bp + dir)));
            at(run_mode(dir, k), u) = int16_t(best);
          }
        }
      for (int e = d; e >= 0; --e)
        for (int64_t u = 0; u < int64_t(N); ++u) {
          int best = entry(layer + 1, u);
          if (t.bypass_dim(u) == layer)
            for (int dir = 0; dir < 2; ++dir) best = std::min(best, 1 + at(run_mode(dir, 1), t.neighbor(u, bp + dir)));
          for (int p = 2 * e; p < 2 * d; ++p) best = std::min(best, 1 + at(align_mode(layer, (p >> 1) + 1), t.neighbor(u, p)));
          at(align_mode(layer, e), u) = int16_t(best);
        }
    }
    m_cost.push_back(std::move(c));
  }
}

}  // namespace wormcast
