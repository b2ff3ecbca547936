// The separable allocator: input-first, output-first and iSLIP over round-robin arbiters, with the
// pointer rules of docs/router.md section 5.6.
#include "systemc/torus/allocator.h"

#include <algorithm>

namespace wormcast {

SeparableAllocator::SeparableAllocator(AllocatorKind kind, int groups, int locals, int resources, int iterations)
    : m_kind(kind),
      m_groups(groups),
      m_locals(locals),
      m_resources(resources),
      m_iterations(iterations < 1 ? 1 : iterations),
      m_target(size_t(groups) * size_t(locals), -1),
      m_group_arb(size_t(groups), RrArbiter(locals)),
      m_res_arb(size_t(resources), RrArbiter(groups)),
      m_req(size_t(std::max(groups, locals)), 0),
      m_choice(size_t(std::max(groups, resources)), -1) {}

void SeparableAllocator::clear() { std::fill(m_target.begin(), m_target.end(), -1); }

void SeparableAllocator::request(int g, int l, int r) { m_target[size_t(g) * size_t(m_locals) + size_t(l)] = r; }

void SeparableAllocator::allocate(std::vector<int>& grant) {
  grant.assign(size_t(m_groups), -1);
  switch (m_kind) {
    case AllocatorKind::InputFirst: input_first(grant); return;
    case AllocatorKind::OutputFirst: output_first(grant); return;
    case AllocatorKind::Islip: islip(grant); return;
  }
}

// Every group picks one of its requests, then every resource one of the groups that picked it;
// both pointers move past a final-stage winner only.
void SeparableAllocator::input_first(std::vector<int>& grant) {
  std::vector<int>& pick = m_choice;  // [g] chosen local index
  for (int g = 0; g < m_groups; ++g) {
    for (int l = 0; l < m_locals; ++l) m_req[size_t(l)] = m_target[size_t(g) * size_t(m_locals) + size_t(l)] >= 0;
    pick[size_t(g)] = m_group_arb[size_t(g)].pick(m_req);
  }
  for (int r = 0; r < m_resources; ++r) {
    for (int g = 0; g < m_groups; ++g) {
      const int l = pick[size_t(g)];
      m_req[size_t(g)] = l >= 0 && m_target[size_t(g) * size_t(m_locals) + size_t(l)] == r;
    }
    const int g = m_res_arb[size_t(r)].pick(m_req);
    if (g < 0) continue;
    grant[size_t(g)] = pick[size_t(g)];
    m_res_arb[size_t(r)].advance(g);
    m_group_arb[size_t(g)].advance(pick[size_t(g)]);
  }
}

// Every resource picks one of the groups requesting it, then every group one of its requests
// whose resource picked it; both pointers move past a final-stage winner only.
void SeparableAllocator::output_first(std::vector<int>& grant) {
  std::vector<int>& offer = m_choice;  // [r] group the resource picked
  for (int r = 0; r < m_resources; ++r) {
    for (int g = 0; g < m_groups; ++g) {
      m_req[size_t(g)] = 0;
      for (int l = 0; l < m_locals; ++l)
        if (m_target[size_t(g) * size_t(m_locals) + size_t(l)] == r) m_req[size_t(g)] = 1;
    }
    offer[size_t(r)] = m_res_arb[size_t(r)].pick(m_req);
  }
  for (int g = 0; g < m_groups; ++g) {
    for (int l = 0; l < m_locals; ++l) {
      const int r = m_target[size_t(g) * size_t(m_locals) + size_t(l)];
      m_req[size_t(l)] = r >= 0 && offer[size_t(r)] == g;
    }
    const int l = m_group_arb[size_t(g)].pick(m_req);
    if (l < 0) continue;
    grant[size_t(g)] = l;
    m_group_arb[size_t(g)].advance(l);
    m_res_arb[size_t(m_target[size_t(g) * size_t(m_locals) + size_t(l)])].advance(g);
  }
}

// Output-first grant and accept among the still unmatched groups and resources, repeated
// m_iterations times; pointers move only for the matches of the first iteration.
void SeparableAllocator::islip(std::vector<int>& grant) {
  std::vector<uint8_t> res_taken(size_t(m_resources), 0);
  std::vector<int>& offer = m_choice;
  for (int it = 0; it < m_iterations; ++it) {
    for (int r = 0; r < m_resources; ++r) {
      offer[size_t(r)] = -1;
      if (res_taken[size_t(r)]) continue;
      for (int g = 0; g < m_groups; ++g) {
        m_req[size_t(g)] = 0;
        if (grant[size_t(g)] >= 0) continue;
        for (int l = 0; l < m_locals; ++l)
          if (m_target[size_t(g) * size_t(m_locals) + size_t(l)] == r) m_req[size_t(g)] = 1;
      }
      offer[size_t(r)] = m_res_arb[size_t(r)].pick(m_req);
    }
    bool matched = false;
    for (int g = 0; g < m_groups; ++g) {
      if (grant[size_t(g)] >= 0) continue;
      for (int l = 0; l < m_locals; ++l) {
        const int r = m_target[size_t(g) * size_t(m_locals) + size_t(l)];
        m_req[size_t(l)] = r >= 0 && offer[size_t(r)] == g;
      }
      const int l = m_group_arb[size_t(g)].pick(m_req);
      if (l < 0) continue;
      const int r = m_target[size_t(g) * size_t(m_locals) + size_t(l)];
      grant[size_t(g)] = l;
      res_taken[size_t(r)] = 1;
      matched = true;
      if (it == 0) {
        m_group_arb[size_t(g)].advance(l);
        m_res_arb[size_t(r)].advance(g);
      }
    }
    if (!matched) break;
  }
}

}  // namespace wormcast
