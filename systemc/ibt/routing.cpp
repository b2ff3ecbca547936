// Bypass-first routing on the interlaced bypass torus; the deadlock-freedom argument is in
// docs/router.md section 10.
#include "systemc/ibt/routing.h"

#include <cstdlib>
#include <numeric>
#include <string>

#include "systemc/common/model_error.h"

namespace wormcast {

namespace {
int ring_distance(int delta, int n) {
  const int f = ((delta % n) + n) % n;
  return f < n - f ? f : n - f;
}
}  // namespace

BypassRouting::BypassRouting(const sw::IbtTopology& ibt, const sw::Topology& torus, IbtRouting mode, int classes,
                             int layers)
    : m_ibt(ibt), m_torus(torus), m_mode(mode), m_classes(classes) {
  if (mode == IbtRouting::Shortest)
    m_table = std::make_shared<const ShortestTable>(m_ibt, layers > 0 ? layers : ShortestTable::auto_layers(m_ibt));
}

int BypassRouting::planned_bypass_hops(int node, int dst, int along, bool crossed) const {
  const int dim = m_ibt.bypass_dim(node);
  const int len = m_ibt.bypass_length(node);
  const int n = m_ibt.n();
  const int x = m_torus.coord_of(node, dim);
  const int delta = m_torus.coord_of(dst, dim) - x;
  int best_j = 0, best = ring_distance(delta, n);
  for (int a = 1; a * len < n; ++a) {
    for (int j : {a, -a}) {  // fewer hops first, plus before minus: the first strict minimum wins
      if (along != 0 && (j > 0) != (along > 0)) continue;  // on its way round: on, or off the ring
      if (crossed && (x + j * len >= n || x + j * len < 0)) continue;  // no second dateline link
      const int cost = a + ring_distance(delta - j * len, n);
      if (cost < best) {
        best = cost;
        best_j = j;
      }
    }
  }
  return best_j;
}

PortRoute BypassRouting::route(int node, int in_port, int in_class, int dst, bool tie) const {
  if (m_mode == IbtRouting::Shortest) return route_shortest(node, in_port, in_class, dst, tie);
  PortRoute r;
  const int bypass = m_ibt.bypass_port();
  if (m_mode == IbtRouting::Bypass && (in_port < 0 || in_port >= bypass) && node != dst) {
    const int x = m_torus.coord_of(node, m_ibt.bypass_dim(node));
    const int len = m_ibt.bypass_length(node), n = m_ibt.n();
    // A head that arrived on its ring plans on from here in the direction it came, and not across
    // a second dateline link: its ring's dateline is behind it when it arrived in class l/h or by
    // the dateline link itself (docs/router.md section 10).
    int along = 0;
    bool crossed = false;
    if (in_port >= bypass) {
      along = in_port == bypass + 1 ? 1 : -1;  // arrived on bypass- going plus
      const bool by_dateline = along > 0 ? x < len : x + len >= n;
      crossed = in_class == int(sw::VcClass::LH) || by_dateline;
    }
    const int j = planned_bypass_hops(node, dst, along, crossed);
    if (j != 0) {
      // Dateline of the bypass ring: its links whose coordinate wraps (x + b >= n going plus,
      // x - b < 0 going minus). The p class while such a link is still ahead on this packet's
      // bypass hops, l/h once it is behind or when there is none (docs/router.md section 10).
      const int disp = j * len;
      const bool wraps = x + disp >= n || x + disp < 0;
      r.port = j > 0 ? bypass : bypass + 1;
      r.classed = true;
      r.vclass = wraps ? sw::VcClass::P : sw::VcClass::LH;
      return r;
    }
  }
  return torus_route(node, dst, tie);
}

PortRoute BypassRouting::torus_route(int node, int dst, bool tie) const {
  const sw::RouteStep s = m_torus.route(node, dst, tie);
  PortRoute r;
  r.port = s.port;
  r.classed = s.port >= 0;
  r.vclass = s.vclass;
  if (r.classed && m_mode == IbtRouting::Shortest) r.vc_class = m_classes == 2 ? int(s.vclass) : 0;
  return r;
}

PortRoute BypassRouting::run_hop(int dir, int vc_class) const {
  PortRoute r;
  r.port = m_ibt.bypass_port() + dir;
  r.vc_class = vc_class;
  return r;
}

// ibt.routing = shortest (docs/router.md section 10). The head's mode follows from where and how it
// arrived: injected, at the start of layer 0; on a bypass port in class 2p or 2p + 1, in the run of
// the layer of its ring's species in the p-th group of d*k layers (the direction from the port);
// on a torus port in align class C + j, in layer j after an align hop in that port's dimension; on
// a torus port in a dateline class, in dimension order. Each hop is then one that keeps the rest
// of the route at the fewest hops the layers allow, the first in a fixed order: bypass plus,
// bypass minus, align ports in increasing number, then leave the layer (a packet takes its hops
// in the earliest layer that allows them, which spreads the load over the classes of the early
// layers; docs/experiments/ibt-shortest.md).
PortRoute BypassRouting::route_shortest(int node, int in_port, int in_class, int dst, bool tie) const {
  if (node == dst) return PortRoute{};
  const ShortestTable& tab = *m_table;
  const int d = m_ibt.dims(), bp = m_ibt.bypass_port(), dk = m_ibt.num_species();
  int layer = 0, e = 0;
  if (in_port >= bp) {
    // A run continues while one more hop is strictly better than leaving. Its class is 2p until
    // it has crossed its ring's dateline, 2p + 1 after.
    const int dir = in_port == bp + 1 ? 0 : 1;  // arrived on bypass- going plus
    const int pass = in_class / 2;
    layer = tab.layer_of(tab.species(node), pass);
    if (1 + tab.cost(tab.run_mode(layer, dir), m_ibt.neighbor(node, bp + dir), dst) < tab.entry_cost(layer + 1, node, dst))
      return run_hop(dir, 2 * pass + ((in_class & 1) || on_dateline(node) ? 1 : 0));
    ++layer;
  } else if (in_port >= 0) {
    if (in_class < m_classes) return torus_route(node, dst, tie);  // dimension order already
    layer = in_class - m_classes;
    e = (in_port >> 1) + 1;
  }
  for (; layer < tab.layers(); ++layer, e = 0) {
    const int here = tab.cost(tab.align_mode(layer, e), node, dst);
    if (tab.species(node) == tab.species_of_layer(layer))
      for (int dir = 0; dir < 2; ++dir)
        if (1 + tab.cost(tab.run_mode(layer, dir), m_ibt.neighbor(node, bp + dir), dst) == here)
          return run_hop(dir, 2 * (layer / dk));
    for (int p = 2 * e; p < 2 * d; ++p)
      if (1 + tab.cost(tab.align_mode(layer, (p >> 1) + 1), m_ibt.neighbor(node, p), dst) == here) {
        PortRoute r;
        r.port = p;
        r.vc_class = m_classes + layer;
        return r;
      }
    if (tab.entry_cost(layer + 1, node, dst) == here) continue;
    model_error("wormcast/ibt", "router " + std::to_string(node),
                "shortest routing: no hop keeps the tabulated length to " + std::to_string(dst));
  }
  return torus_route(node, dst, tie);
}

bool BypassRouting::on_dateline(int node) const {
  // The bypass ring through `node` visits the coordinates congruent to node's modulo
  // g = gcd(n, b) in its dimension, exactly one of them below g: the links into that router (one
  // per direction) are the ring's datelines.
  const int g = std::gcd(m_ibt.n(), m_ibt.bypass_length(node));
  return m_torus.coord_of(node, m_ibt.bypass_dim(node)) < g;
}

}  // namespace wormcast
