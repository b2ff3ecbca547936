// Lockstep stimulus: the upstream and downstream models behind the shared input wires.
#include "tb/rtl/lockstep_stimulus.h"

namespace wormcast {

LockstepStimulus::LockstepStimulus(const sw::Topology& topo, const RouterParams& params,
                                   int node, uint64_t seed, int max_packet, StimulusLoad load)
    : m_topo(topo),
      m_p(params),
      m_np(params.num_ports()),
      m_nv(params.num_vcs),
      m_max_packet(max_packet),
      m_node(node),
      m_load(load),
      m_rng(seed * 0x9e3779b97f4a7c15ULL + 1) {
  // Upstream of every input VC and downstream of every output VC.
  m_connected.assign(size_t(m_np), true);
  for (int p = 0; p < 2 * m_p.dims; ++p) m_connected[size_t(p)] = m_topo.neighbor(node, p) >= 0;
  m_up_credit.assign(size_t(m_np * m_nv), m_p.buffer_depth);
  m_up_left.assign(size_t(m_np * m_nv), 0);
  m_up_pkt.assign(size_t(m_np * m_nv), Flit{});
  m_up_index.assign(size_t(m_np * m_nv), 0);
  m_owed.assign(size_t(m_np * m_nv), 0);
  m_stalled.assign(size_t(m_np), false);
  m_counts.flits_out_port.assign(size_t(m_np), 0);
  new_phase(0);
}

/// Load changes in phases, so that runs see empty, saturated and blocked routers alike.
void LockstepStimulus::new_phase(uint64_t c) {
  static const double kInject[] = {0.02, 0.15, 0.4, 0.8, 1.0};
  static const double kCredit[] = {0.05, 0.3, 0.7, 1.0, 1.0};
  m_inject = kInject[pick(5)];
  m_credit_rate = kCredit[pick(5)];
  m_stall_on = chance(0.5) ? 0.0 : 0.02;
  // Hot destinations concentrate packets on a few output ports, so that input ports contend
  // for the same output (different output VCs) and the switch allocator's choice matters.
  static const double kHot[] = {0.0, 0.5, 0.9};
  m_hot_share = kHot[pick(3)];
  m_hot.clear();
  for (int i = 1 + pick(3); i > 0; --i) m_hot.push_back(pick(m_topo.num_nodes()));
  // On a large network a uniform destination is rarely the router's own node: its ejection
  // ports would see almost no flit. There the node is one of the hot destinations too (no draw
  // added, so that the sequences of networks up to kOwnHotNodes nodes stay as they were).
  if (m_topo.num_nodes() > kOwnHotNodes) m_hot.push_back(m_node);
  // A fixed load keeps the draws above, so that the rest of the sequence has the same structure;
  // a low load has uniform destinations (hot ones would saturate their output port).
  if (m_load == StimulusLoad::Low) {
    m_inject = 0.05;
    m_credit_rate = 1.0;
    m_stall_on = 0.0;
    m_hot_share = 0.0;
  } else if (m_load == StimulusLoad::Saturating) {
    m_inject = 1.0;
  }
  m_phase_end = c + 100 + uint64_t(pick(1500));
}

void LockstepStimulus::observe(int p, const Flit& flit_out, const Credit& credit_out) {
  if (flit_out.valid) {
    ++m_owed[size_t(p * m_nv + flit_out.vc)];
    ++m_counts.flits_out;
    ++m_counts.flits_out_port[size_t(p)];
  }
  if (credit_out.valid) {
    m_returned.emplace_back(p, credit_out.vc);
    ++m_counts.credits_out;
  }
}

void LockstepStimulus::next_inputs(uint64_t c, bool flits, bool credits,
                                   std::vector<Flit>& flit_in, std::vector<Credit>& credit_in) {
  if (c >= m_phase_end) new_phase(c);
  flit_in.resize(size_t(m_np));
  credit_in.resize(size_t(m_np));
  // Flit and credit of a port drawn in turn, port by port: the order fixes the random sequence
  // of a seed.
  for (int p = 0; p < m_np; ++p) {
    flit_in[size_t(p)] = flits ? next_flit(p) : Flit{};
    credit_in[size_t(p)] = credits ? next_credit(p) : Credit{};
  }
  for (auto [p, v] : m_returned) ++m_up_credit[size_t(p * m_nv + v)];
  m_returned.clear();
}

/// The flit the upstream of input port p sends in this cycle: one per port, only with a
/// credit, packets in order per VC, VCs interleaved at random. At low load packets go back to
/// back, as a NIC sends them: one under way continues, and a new one starts with the probability
/// that makes m_inject the flit rate (a packet that trickled in would hold its output VC for
/// tens of cycles and block the others, which is no low load).
Flit LockstepStimulus::next_flit(int p) {
  if (!m_connected[size_t(p)]) return Flit{};
  int cand[16];
  int n = 0;
  if (m_load == StimulusLoad::Low) {
    for (int v = 0; v < m_nv; ++v)
      if (m_up_left[size_t(p * m_nv + v)] > 0 && m_up_credit[size_t(p * m_nv + v)] > 0) cand[n++] = v;
    if (n == 0 && !chance(m_inject * 2.0 / (1 + m_max_packet))) return Flit{};
  } else if (!chance(m_inject)) {
    return Flit{};
  }
  if (n == 0)
    for (int v = 0; v < m_nv; ++v)
      if (m_up_credit[size_t(p * m_nv + v)] > 0) cand[n++] = v;
  if (n == 0) return Flit{};
  const int v = cand[pick(n)];
  const size_t i = size_t(p * m_nv + v);
  Flit f;
  if (m_up_left[i] == 0) {
    const int len = 1 + pick(m_max_packet);
    Flit& h = m_up_pkt[i];
    h = Flit{};
    h.dst = uint16_t(chance(m_hot_share) ? m_hot[size_t(pick(int(m_hot.size())))]
                                          : pick(m_topo.num_nodes()));
    h.tie = chance(0.5);
    m_up_left[i] = len;
    m_up_index[i] = 0;
    ++m_packet;
    ++m_counts.packets_in;
    if (len == 1) ++m_counts.single_flit;
    f = h;
    f.head = true;
  } else {
    f = m_up_pkt[i];
  }
  f.valid = true;
  f.vc = uint8_t(v);
  // Packet id and index as the NIC writes them, with random high bits on some flits so that
  // every payload bit is carried.
  f.payload = make_payload(m_packet, uint32_t(m_up_index[i]++));
  if (chance(0.1)) f.payload ^= uint32_t(m_rng()) & 0xff000000u;
  f.tail = --m_up_left[i] == 0;
  --m_up_credit[i];
  ++m_counts.flits_in;
  return f;
}

/// The credit the downstream of output port o returns in this cycle (the flit it received in
/// this very cycle included, as the NIC does); withheld while the port is stalled.
Credit LockstepStimulus::next_credit(int o) {
  char& stalled = m_stalled[size_t(o)];
  if (stalled ? chance(0.05) : chance(m_stall_on)) stalled = !stalled;
  if (stalled) {
    ++m_counts.stalled_port_cycles;
    return Credit{};
  }
  if (!chance(m_credit_rate)) return Credit{};
  int cand[16];
  int n = 0;
  for (int w = 0; w < m_nv; ++w)
    if (m_owed[size_t(o * m_nv + w)] > 0) cand[n++] = w;
  if (n == 0) return Credit{};
  const int w = cand[pick(n)];
  --m_owed[size_t(o * m_nv + w)];
  return Credit{true, uint8_t(w)};
}

}  // namespace wormcast
