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
      m_req(size_t(groups), 0),
      m_target(size_t(groups) * size_t(locals), -1),
      m_group_arb(size_t(groups), RrArbiter(locals)),
      m_res_arb(size_t(resources), RrArbiter(groups)),
      m_best(size_t(resources), -1),
      m_pick(size_t(groups), -1),
      m_matched(size_t(groups), 0),
      m_taken(size_t(resources), 0) {
  m_active.reserve(size_t(groups));
  m_touched.reserve(size_t(resources));
  m_grants.reserve(size_t(std::min(groups, resources)));
}

void SeparableAllocator::clear() {
  for (int g : m_active) m_req[size_t(g)] = 0;
  m_active.clear();
}

const std::vector<SeparableAllocator::Grant>& SeparableAllocator::allocate() {
  m_grants.clear();
  if (m_active.empty()) return m_grants;
  switch (m_kind) {
    case AllocatorKind::InputFirst: input_first(); break;
    case AllocatorKind::OutputFirst: output_first(); break;
    case AllocatorKind::Islip: islip(); break;
  }
  return m_grants;
}

void SeparableAllocator::allocate(std::vector<int>& grant) {
  grant.assign(size_t(m_groups), -1);
  for (const Grant& g : allocate()) grant[size_t(g.group)] = g.local;
}

// Every group picks one of its requests, then every resource one of the groups that picked it;
// both pointers move past a final-stage winner only.
void SeparableAllocator::input_first() {
  for (int g : m_active) {
    const int l = m_group_arb[size_t(g)].pick(m_req[size_t(g)]);
    m_pick[size_t(g)] = l;
    offer(target(g, l), g);
  }
  for (int r : m_touched) {
    const int g = m_best[size_t(r)];
    m_best[size_t(r)] = -1;
    const int l = m_pick[size_t(g)];
    m_grants.push_back(Grant{g, l, r});
    m_res_arb[size_t(r)].advance(g);
    m_group_arb[size_t(g)].advance(l);
  }
  m_touched.clear();
}

// Every resource picks one of the groups requesting it, then every group one of its requests
// whose resource picked it; both pointers move past a final-stage winner only.
void SeparableAllocator::output_first() {
  for (int g : m_active)
    for (uint32_t m = m_req[size_t(g)]; m; m &= m - 1) offer(target(g, __builtin_ctz(m)), g);
  for (int g : m_active) {
    uint32_t accept = 0;
    for (uint32_t m = m_req[size_t(g)]; m; m &= m - 1) {
      const int l = __builtin_ctz(m);
      if (m_best[size_t(target(g, l))] == g) accept |= uint32_t(1) << l;
    }
    const int l = m_group_arb[size_t(g)].pick(accept);
    if (l < 0) continue;
    const int r = target(g, l);
    m_grants.push_back(Grant{g, l, r});
    m_group_arb[size_t(g)].advance(l);
    m_res_arb[size_t(r)].advance(g);
  }
  for (int r : m_touched) m_best[size_t(r)] = -1;
  m_touched.clear();
}

// Output-first grant and accept among the still unmatched groups and resources, repeated
// m_iterations times; pointers move only for the matches of the first iteration.
void SeparableAllocator::islip() {
  for (int it = 0; it < m_iterations; ++it) {
    for (int g : m_active) {
      if (m_matched[size_t(g)]) continue;
      for (uint32_t m = m_req[size_t(g)]; m; m &= m - 1) {
        const int r = target(g, __builtin_ctz(m));
        if (!m_taken[size_t(r)]) offer(r, g);
      }
    }
    bool matched = false;
    for (int g : m_active) {
      if (m_matched[size_t(g)]) continue;
      uint32_t accept = 0;
      for (uint32_t m = m_req[size_t(g)]; m; m &= m - 1) {
        const int l = __builtin_ctz(m);
        if (m_best[size_t(target(g, l))] == g) accept |= uint32_t(1) << l;
      }
      const int l = m_group_arb[size_t(g)].pick(accept);
      if (l < 0) continue;
      const int r = target(g, l);
      m_grants.push_back(Grant{g, l, r});
      m_matched[size_t(g)] = 1;
      m_taken[size_t(r)] = 1;
      matched = true;
      if (it == 0) {
        m_group_arb[size_t(g)].advance(l);
        m_res_arb[size_t(r)].advance(g);
      }
    }
    for (int r : m_touched) m_best[size_t(r)] = -1;
    m_touched.clear();
    if (!matched) break;
  }
  for (const Grant& gr : m_grants) {
    m_matched[size_t(gr.group)] = 0;
    m_taken[size_t(gr.resource)] = 0;
  }
}

}  // namespace wormcast
