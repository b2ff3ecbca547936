// A fixed array of ports of one module, named prefix_0, prefix_1, ... as sc_vector names its
// elements, but built without sc_vector's name generator, which formats every element's name
// through a string stream: on a torus of routers and NIC ports that was a seventh of the
// elaboration's instructions.
#pragma once

#include <cstddef>
#include <deque>
#include <string>

namespace wormcast {

template <class P>
class PortArray {
 public:
  /// n ports named prefix_i (call while the owning module is being constructed).
  PortArray(const char* prefix, int n) {
    for (int i = 0; i < n; ++i) m_ports.emplace_back((std::string(prefix) + "_" + std::to_string(i)).c_str());
  }
  PortArray(const PortArray&) = delete;
  PortArray& operator=(const PortArray&) = delete;

  P& operator[](size_t i) { return m_ports[i]; }
  const P& operator[](size_t i) const { return m_ports[i]; }
  size_t size() const { return m_ports.size(); }
  auto begin() { return m_ports.begin(); }
  auto end() { return m_ports.end(); }
  auto begin() const { return m_ports.begin(); }
  auto end() const { return m_ports.end(); }

 private:
  std::deque<P> m_ports;  ///< built in place, never moved (ports cannot be)
};

}  // namespace wormcast
