// Host-side naming of topologies ("torus:8x8", "mesh:4x4", "torus,mesh:8x4").
#include "sw/topology/path.h"

namespace wormcast::sw {

std::string describe(const Topology& t) {
  bool all_torus = true, all_mesh = true;
  for (int d = 0; d < t.dims(); ++d) (t.torus(d) ? all_mesh : all_torus) = false;
  std::string s;
  if (all_torus || all_mesh) {
    s = all_torus ? "torus" : "mesh";
  } else {
    for (int d = 0; d < t.dims(); ++d) s += std::string(d ? "," : "") + (t.torus(d) ? "torus" : "mesh");
  }
  s += ":";
  for (int d = 0; d < t.dims(); ++d) s += (d ? "x" : "") + std::to_string(t.radix(d));
  return s;
}

}  // namespace wormcast::sw
