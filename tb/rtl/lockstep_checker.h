// Lockstep checker: both routers' output wires compared every cycle, differences kept as text.
#pragma once

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "systemc/torus/flit.h"

namespace wormcast {

/// One output wire on which the two routers differ.
struct LockstepMismatch {
  uint64_t cycle = 0;
  std::string wire;  ///< "flit_out" or "credit_out"
  int port = -1;
  int vc = -1;       ///< of whichever side is valid (the SystemC one if both are)
  std::string systemc_value, rtl_value;
};

/// In the manner of the ibex co-simulation checker: step() returns pass/fail, every difference is
/// counted, the first is kept in full, the first few as strings.
class LockstepChecker {
 public:
  explicit LockstepChecker(size_t max_errors = 10) : m_max_errors(max_errors) {}

  /// Compares the outputs of cycle c, port by port; false if any wire differs.
  bool step(uint64_t c, const std::vector<Flit>& systemc_flit, const std::vector<Flit>& rtl_flit,
            const std::vector<Credit>& systemc_credit, const std::vector<Credit>& rtl_credit);

  bool ok() const { return m_count == 0; }
  /// The first difference; meaningful only when !ok().
  const LockstepMismatch& first() const { return m_first; }
  /// The first max_errors differences, one line each.
  const std::vector<std::string>& errors() const { return m_errors; }
  uint64_t error_count() const { return m_count; }

  /// The first `shown` errors, then a one-line summary.
  void report(std::ostream& os, size_t shown = 5) const;

 private:
  template <class T>
  void record(uint64_t c, const char* wire, int port, const T& systemc, const T& rtl);

  size_t m_max_errors;
  uint64_t m_count = 0;
  LockstepMismatch m_first;
  std::vector<std::string> m_errors;
};

}  // namespace wormcast
