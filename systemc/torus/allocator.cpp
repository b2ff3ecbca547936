// The separable allocator: input-first, output-first and iSLIP over round-robin arbiters, with the
// pointer rules of docs/router.md section 5.6.
#include "systemc/torus/allocator.h"

#include <algorithm>
#include <stdexcept>

namespace wormcast {

SeparableAllocator::SeparableAllocator(AllocatorKind kind, int groups, int locals, int resources, int iterations,
                                       int shared_role)
    : m_role(int8_t(shared_role)),
      m_kind(kind),
      m_locals(locals),
      m_iterations(iterations < 1 ? 1 : iterations),
      m_group(size_t(groups)),
      m_res(size_t(resources), RrArbiter(groups)),
      m_groups(groups),
      m_resources(resources) {
  for (Group& g : m_group) {
    g.arb = RrArbiter(locals);
    g.res_arb = RrArbiter(resources);
  }
  if (kind == AllocatorKind::IslipPorts && (resources > 32 || groups > 32))
    throw std::logic_error("an allocator by ports has at most 32 groups and 32 resources");
  if (shared_role < -1 || shared_role >= kScratchRoles) throw std::logic_error("an allocator's scratch role out of range");
  if (shared_role < 0) {
    m_own = std::make_unique<AllocScratch>();
    m_own->fit(groups, resources, groups * locals);
    point_at(m_own.get());
    m_round = m_s->round;
    return;
  }
  ScratchNeed& need = g_scratch_need[shared_role];
  if (groups > need.groups || resources > need.resources || groups * locals > need.targets) {
    need.groups = std::max(need.groups, groups);
    need.resources = std::max(need.resources, resources);
    need.targets = std::max(need.targets, groups * locals);
    ++need.generation;
  }
}

void AllocScratch::fit(int groups, int resources, int targets) {
  if (size_t(groups) > group.size()) group.resize(size_t(groups));
  if (size_t(resources) > res.size()) {
    res.resize(size_t(resources));
    by_res.resize(size_t(resources), 0);
  }
  if (size_t(targets) > target.size()) target.resize(size_t(targets), 0);
  // (The lists are empty between allocations: sizing anew keeps nothing.)
  active.resize(group.size());
  touched.reserve(res.size());
  grants.reserve(std::min(group.size(), res.size()));
}

void AllocScratch::restart_rounds() {
  for (Res& r : res) r.round = 0;
  for (Group& g : group) g.round = 0;
  round = 1;
}

AllocScratch* SeparableAllocator::thread_scratch(int role) {
  // One per thread and role, kept for the thread's life.
  static thread_local std::unique_ptr<AllocScratch> owned[kScratchRoles];
  if (!owned[role]) owned[role] = std::make_unique<AllocScratch>();
  AllocScratch* s = owned[role].get();
  const ScratchNeed& need = g_scratch_need[role];
  s->fit(need.groups, need.resources, need.targets);
  s->generation = need.generation;
  t_scratch[role] = s;
  return s;
}

const FixedList<SeparableAllocator::Grant>& SeparableAllocator::allocate() {
  FixedList<Grant>& grants = m_s->grants;
  grants.clear();
  if (m_active_n == 0) return grants;
  if (!m_shared) {
    disjoint();
    return grants;
  }
  switch (m_kind) {
    case AllocatorKind::IslipPorts: islip_ports(); break;
    case AllocatorKind::InputFirst: input_first(); break;
    case AllocatorKind::OutputFirst: output_first(); break;
    case AllocatorKind::Islip:
      // One iteration of iSLIP is output-first allocation: every request is offered, and the
      // pointers of the first (only) iteration's matches move.
      if (m_iterations == 1)
        output_first();
      else
        islip();
      break;
  }
  return grants;
}

void SeparableAllocator::allocate(std::vector<int>& grant) {
  grant.assign(size_t(m_groups), -1);
  for (const Grant& g : allocate()) grant[size_t(g.group)] = g.local;
}

// No resource is requested by two groups: every kind then grants each group the request its
// arbiter picks (input-first: its pick is the only offer its resource sees; output-first and the
// first iSLIP iteration: each of its resources offers itself to it alone, so it accepts its pick
// among all its requests, and no group is left for a later iteration; iSLIP by ports: it accepts the
// first of its resources from its resource pointer), and the pointers move past that grant. The same
// result as the kind's own loops, without the resources' arbitration.
void SeparableAllocator::disjoint() {
  each_own_pick([this](int g, int l, int r) { add_grant(g, l, r); });
}

// Every group picks one of its requests, then every resource one of the groups that picked it;
// both pointers move past a final-stage winner only.
void SeparableAllocator::input_first() {
  AllocScratch& s = *m_s;
  for (const uint16_t* a = active_begin(); a != active_end(); ++a) {
    const int g = *a;
    AllocScratch::Group& gr = s.group[size_t(g)];
    const int l = m_group[size_t(g)].arb.pick_some(gr.req);
    gr.pick = int16_t(l);
    offer(target(g, l), g);
  }
  for (uint16_t r : s.touched) {
    AllocScratch::Res& res = s.res[size_t(r)];
    const int g = res.best;
    res.best = -1;
    const int l = s.group[size_t(g)].pick;
    add_grant(g, l, r);
    m_res[size_t(r)].advance(g);
    m_group[size_t(g)].arb.advance(l);
  }
  s.touched.clear();
}

// Every resource picks one of the groups requesting it, then every group one of its requests
// whose resource picked it; both pointers move past a final-stage winner only.
void SeparableAllocator::output_first() {
  AllocScratch& s = *m_s;
  for (const uint16_t* a = active_begin(); a != active_end(); ++a)
    for (uint32_t m = s.group[*a].req; m; m &= m - 1) offer(target(*a, __builtin_ctz(m)), *a);
  for (const uint16_t* a = active_begin(); a != active_end(); ++a) {
    const int g = *a;
    uint32_t accept = 0;
    for (uint32_t m = s.group[size_t(g)].req; m; m &= m - 1) {
      const int l = __builtin_ctz(m);
      if (s.res[size_t(target(g, l))].best == g) accept |= uint32_t(1) << l;
    }
    RrArbiter& arb = m_group[size_t(g)].arb;
    const int l = arb.pick(accept);
    if (l < 0) continue;
    const int r = target(g, l);
    add_grant(g, l, r);
    arb.advance(l);
    m_res[size_t(r)].advance(g);
  }
  for (uint16_t r : s.touched) s.res[size_t(r)].best = -1;
  s.touched.clear();
}

// Output-first grant and accept among the still unmatched groups and resources, repeated
// m_iterations times; pointers move only for the matches of the first iteration.
void SeparableAllocator::islip() {
  AllocScratch& s = *m_s;
  for (int it = 0; it < m_iterations; ++it) {
    for (const uint16_t* a = active_begin(); a != active_end(); ++a) {
      const int g = *a;
      if (s.group[size_t(g)].matched) continue;
      for (uint32_t m = s.group[size_t(g)].req; m; m &= m - 1) {
        const int r = target(g, __builtin_ctz(m));
        if (!s.res[size_t(r)].taken) offer(r, g);
      }
    }
    bool matched = false;
    for (const uint16_t* a = active_begin(); a != active_end(); ++a) {
      const int g = *a;
      AllocScratch::Group& gr = s.group[size_t(g)];
      if (gr.matched) continue;
      uint32_t accept = 0;
      for (uint32_t m = gr.req; m; m &= m - 1) {
        const int l = __builtin_ctz(m);
        if (s.res[size_t(target(g, l))].best == g) accept |= uint32_t(1) << l;
      }
      RrArbiter& arb = m_group[size_t(g)].arb;
      const int l = arb.pick(accept);
      if (l < 0) continue;
      const int r = target(g, l);
      add_grant(g, l, r);
      gr.matched = 1;
      s.res[size_t(r)].taken = 1;
      matched = true;
      if (it == 0) {
        arb.advance(l);
        m_res[size_t(r)].advance(g);
      }
    }
    end_iteration();
    if (!matched) break;
  }
  end_matches();
}

void SeparableAllocator::end_iteration() {
  AllocScratch& s = *m_s;
  for (uint16_t r : s.touched) s.res[size_t(r)].best = -1;
  s.touched.clear();
}

void SeparableAllocator::end_matches() {
  AllocScratch& s = *m_s;
  for (const Grant& gr : s.grants) {
    s.group[size_t(gr.group)].matched = 0;
    s.res[size_t(gr.resource)].taken = 0;
  }
}

// IslipPorts (groups and resources <= 32): per iteration, every unmatched group offers each untaken
// resource it requests the first local requesting it from the group's local pointer; every
// resource picks one of the groups that offered; every group accepts, among the resources that
// picked it, the first from its resource pointer. In the first iteration a match moves the
// resource's pointer past the group and the group's resource pointer past the resource; every match
// moves the group's local pointer past the local granted (BookSim2 moves its per-input VC offset on
// every grant). The requests are bit sets (request()): the groups requesting each resource, the
// locals and the resources each group requests; the local a group offers a resource is looked up
// for the resource it accepts only (local_for; the local pointer it is found from moves only with
// that group's own match).
void SeparableAllocator::islip_ports() {
  const AllocScratch& s = *m_s;
  uint32_t picked[32];  // [g]: the resources that picked group g in this iteration
  uint32_t free_groups = m_port_groups, free_res = m_wanted;
  for (int it = 0; it < m_iterations; ++it) {
    for (const uint16_t* a = active_begin(); a != active_end(); ++a) picked[*a] = 0;
    for (uint32_t m = free_res; m; m &= m - 1) {
      const int r = __builtin_ctz(m);
      const uint32_t offers = s.by_res[size_t(r)] & free_groups;
      if (offers) picked[m_res[size_t(r)].pick_some(offers)] |= uint32_t(1) << r;
    }
    bool matched = false;
    for (const uint16_t* a = active_begin(); a != active_end(); ++a) {
      const int g = *a;
      if (!picked[g]) continue;
      Group& gr = m_group[size_t(g)];
      const int r = gr.res_arb.pick_some(picked[g]);
      // The local g offered r: the first from its local pointer whose request names r.
      const int l = local_for(g, r);
      add_grant(g, l, r);
      free_groups &= ~(uint32_t(1) << g);
      free_res &= ~(uint32_t(1) << r);
      matched = true;
      gr.arb.advance(l);
      if (it == 0) {
        gr.res_arb.advance(r);
        m_res[size_t(r)].advance(g);
      }
    }
    if (!matched || !free_groups || !free_res) break;
  }
}

}  // namespace wormcast
