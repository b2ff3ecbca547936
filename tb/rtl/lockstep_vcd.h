// Lockstep mismatch waveform: the port wires of both routers around the first mismatch, as VCD.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

namespace wormcast {

/// The port wires of one cycle: the shared inputs and both routers' outputs, as packed words.
struct LockstepSample {
  uint64_t cycle = 0;
  bool mismatch = false;
  std::vector<uint64_t> in_flit, sc_flit, rtl_flit;
  std::vector<uint32_t> in_credit, sc_credit, rtl_credit;
};

/// Keeps the last `window` cycles until the first mismatch and every cycle from it on (the
/// bench stops `window` cycles later), then writes them as one VCD.
class LockstepVcd {
 public:
  LockstepVcd(int num_ports, int window, std::string model);

  void record(LockstepSample sample);
  /// Per port the inputs and both routers' outputs, plus `mismatch` marking the cycles that
  /// differ; a file that cannot be opened is skipped silently, as the result still reports.
  void write(const std::string& path) const;

 private:
  int m_np;
  int m_window;
  std::string m_model;
  bool m_mismatch_seen = false;
  std::deque<LockstepSample> m_history;
};

}  // namespace wormcast
