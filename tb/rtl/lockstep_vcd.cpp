// Lockstep mismatch waveform, written by hand: which cycles matter is known only after the
// mismatch, and a SystemC trace file records from its opening on.
#include "tb/rtl/lockstep_vcd.h"

#include <algorithm>
#include <fstream>
#include <utility>

namespace wormcast {

LockstepVcd::LockstepVcd(int num_ports, int window, std::string model)
    : m_np(num_ports), m_window(window), m_model(std::move(model)) {}

void LockstepVcd::record(LockstepSample sample) {
  m_mismatch_seen = m_mismatch_seen || sample.mismatch;
  m_history.push_back(std::move(sample));
  if (!m_mismatch_seen && m_history.size() > size_t(std::max(1, m_window))) m_history.pop_front();
}

void LockstepVcd::write(const std::string& path) const {
  std::ofstream out(path);
  if (!out) return;
  out << "$comment lockstep window of " << m_model << " $end\n$timescale 1ns $end\n";
  int next_id = 0;
  auto id_of = [](int n) {
    std::string s;
    do {
      s += char('!' + n % 90);
      n /= 90;
    } while (n);
    return s;
  };
  struct Var {
    std::string id;
    int width;
  };
  std::vector<Var> vars;
  out << "$scope module lockstep $end\n";
  auto add = [&](const std::string& name, int width) {
    vars.push_back({id_of(next_id++), width});
    out << "$var wire " << width << " " << vars.back().id << " " << name << " $end\n";
  };
  add("mismatch", 1);
  for (int p = 0; p < m_np; ++p) {
    const std::string s = std::to_string(p);
    add("in_flit_" + s, 64);
    add("in_credit_" + s, 5);
    add("systemc_flit_out_" + s, 64);
    add("rtl_flit_out_" + s, 64);
    add("systemc_credit_out_" + s, 5);
    add("rtl_credit_out_" + s, 5);
  }
  out << "$upscope $end\n$enddefinitions $end\n";
  auto bits = [](uint64_t v, int w) {
    std::string s = "b";
    for (int i = w - 1; i >= 0; --i) s += (v >> i & 1) ? '1' : '0';
    return s;
  };
  for (const LockstepSample& smp : m_history) {
    out << "#" << smp.cycle << "\n" << (smp.mismatch ? '1' : '0') << vars[0].id << "\n";
    for (int p = 0; p < m_np; ++p) {
      const uint64_t v[6] = {smp.in_flit[size_t(p)], smp.in_credit[size_t(p)],
                             smp.sc_flit[size_t(p)], smp.rtl_flit[size_t(p)],
                             smp.sc_credit[size_t(p)], smp.rtl_credit[size_t(p)]};
      for (int k = 0; k < 6; ++k) {
        const Var& var = vars[size_t(1 + p * 6 + k)];
        out << bits(v[k], var.width) << " " << var.id << "\n";
      }
    }
  }
  if (!m_history.empty()) out << "#" << m_history.back().cycle + 1 << "\n";
}

}  // namespace wormcast
