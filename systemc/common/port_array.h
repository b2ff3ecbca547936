// A fixed array of ports of one module, named prefix_0, prefix_1, ... as sc_vector names its
// elements, but built without sc_vector's name generator, which formats every element's name
// through a string stream: on a torus of routers and NIC ports that was a seventh of the
// elaboration's instructions. The ports lie in one block of exactly their size (a network has
// hundreds of thousands of them).
#pragma once

#include <cstddef>
#include <new>
#include <string>

namespace wormcast {

template <class P>
class PortArray {
 public:
  /// n ports named prefix_i (call while the owning module is being constructed).
  PortArray(const char* prefix, int n)
      : m_ports(static_cast<P*>(::operator new(sizeof(P) * size_t(n > 0 ? n : 0), std::align_val_t(alignof(P))))) {
    // Built in place, never moved (ports cannot be).
    try {
      for (; m_size < size_t(n > 0 ? n : 0); ++m_size)
        new (m_ports + m_size) P((std::string(prefix) + "_" + std::to_string(m_size)).c_str());
    } catch (...) {
      release();
      throw;
    }
  }
  PortArray(const PortArray&) = delete;
  PortArray& operator=(const PortArray&) = delete;
  ~PortArray() { release(); }

  P& operator[](size_t i) { return m_ports[i]; }
  const P& operator[](size_t i) const { return m_ports[i]; }
  size_t size() const { return m_size; }
  P* begin() { return m_ports; }
  P* end() { return m_ports + m_size; }
  const P* begin() const { return m_ports; }
  const P* end() const { return m_ports + m_size; }

 private:
  void release() {
    while (m_size > 0) m_ports[--m_size].~P();
    ::operator delete(m_ports, std::align_val_t(alignof(P)));
  }

  P* m_ports;
  size_t m_size = 0;
};

}  // namespace wormcast
