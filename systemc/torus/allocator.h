// Allocator units of the torus router: the round-robin arbiter (the C++ twin of
// rtl/wc_rr_arbiter.sv) and one separable allocator, input-first, output-first or iSLIP, whose
// pointer rules are written in docs/router.md section 5.6.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace wormcast {

/// Round-robin arbiter over n requesters (the C++ twin of rtl/wc_rr_arbiter.sv): the grant is the
/// first requester among ptr, ptr+1, ..., n-1, 0, ..., ptr-1; the pointer moves past a grant only
/// when told that it won.
class RrArbiter {
 public:
  explicit RrArbiter(int n = 1) : m_n(uint16_t(n)) {}
  int size() const { return m_n; }
  int pointer() const { return m_ptr == m_n ? 0 : m_ptr; }
  /// The granted index among req[0..n-1] (nonzero = requesting), or -1 when nobody requests.
  int pick(const std::vector<uint8_t>& req) const {
    for (int i = 0; i < m_n; ++i) {
      int k = m_ptr + i;
      if (k >= m_n) k -= m_n;
      if (req[size_t(k)]) return k;
    }
    return -1;
  }
  /// The same rule on a request bit mask (n <= 32): the lowest set bit at or above the pointer,
  /// else the lowest set bit.
  int pick(uint32_t req) const { return req ? pick_some(req) : -1; }
  /// The same for a nonempty mask, without a branch on the masks (their bits are the traffic's, so
  /// a branch on them is often mispredicted).
  int pick_some(uint32_t req) const {
    const uint32_t upper = req & from_pointer();
    return __builtin_ctz(upper ? upper : req);
  }
  /// The indices at and above the pointer, as a mask (n <= 32).
  uint32_t from_pointer() const { return uint32_t(~((uint64_t(1) << m_ptr) - 1)); }
  /// Whether requester a comes before requester b in this arbiter's order.
  bool before(int a, int b) const { return distance(a) < distance(b); }
  /// The grant `granted` won: the pointer moves to the next index.
  void advance(int granted) { m_ptr = uint16_t(granted + 1); }

 private:
  // The pointer is kept as granted + 1, which may be n: every reading of it takes n as 0 (n has no
  // requester at or above it, and k - n + n = k), so a grant stores it without a comparison.
  int distance(int k) const { return k >= m_ptr ? k - m_ptr : k - m_ptr + m_n; }
  uint16_t m_n;  ///< n <= 65535 (kept small: an allocator holds one per group and resource)
  uint16_t m_ptr = 0;
};

/// A list of at most the reserved number of values in storage allocated once. Appending stores the
/// value and a 32-bit count, no pointer, so a loop that appends (a router's request pass) keeps
/// the pointers it loaded in registers; a vector's end pointer would make them reloaded.
template <class T>
class FixedList {
 public:
  void reserve(size_t n) { m_buf.resize(n); }
  void push_back(T v) { m_buf[m_n++] = v; }  ///< at most the reserved number in all
  /// A new last value, to be filled field by field.
  T& emplace_back() { return m_buf[m_n++]; }
  void clear() { m_n = 0; }
  bool empty() const { return m_n == 0; }
  size_t size() const { return m_n; }
  const T& operator[](size_t i) const { return m_buf[i]; }
  const T* begin() const { return m_buf.data(); }
  const T* end() const { return m_buf.data() + m_n; }
  const T* data() const { return m_buf.data(); }

 private:
  std::vector<T> m_buf;
  uint32_t m_n = 0;
};

/// IslipPorts: iSLIP whose groups accept by resource (BookSim2's switch allocator, docs/router.md
/// section 11): a group offers each resource it requests one local, the first requesting it from
/// the group's pointer over its locals; each resource grants a group; each group accepts one of
/// its grants, the first from its pointer over the resources.
enum class AllocatorKind { InputFirst, OutputFirst, Islip, IslipPorts };

/// What one allocation uses and then forgets: the requests (each group's local indices, resources
/// and targets, each resource's requesting groups), the offers and matches of its iterations, and
/// its grants. Only the arbiters' pointers outlive an allocation, so this state can be shared by
/// every allocator of one role that runs on a thread (SeparableAllocator's shared_role): a network's
/// routers then reuse one scratch that stays in the first-level cache from router to router, instead
/// of each touching lines of its own (docs/router.md section 5.6).
struct AllocScratch {
  struct Group {
    uint32_t req = 0;     ///< requested local indices (in round `round`; else none)
    uint32_t res = 0;     ///< IslipPorts: the resources it requests (in this allocation)
    uint32_t round = 0;   ///< the round (clear() count) of its last request
    int16_t pick = -1;    ///< input-first: the group's chosen local index
    uint8_t matched = 0;  ///< iSLIP: matched in an earlier iteration
  };
  struct Res {
    uint32_t round = 0;   ///< the round (clear() count) of its last request
    int16_t best = -1;    ///< the group its arbiter picked so far, or -1
    int16_t owner = -1;   ///< the first group that requested it in round `round`
    uint8_t taken = 0;    ///< iSLIP: matched in an earlier iteration
  };
  struct Grant {  ///< 6 bytes (groups and resources <= 32767, locals <= 32)
    int16_t group, local, resource;
  };
  /// Room for allocators of up to `groups` groups, `resources` resources and `targets` (groups x
  /// locals) targets.
  void fit(int groups, int resources, int targets);
  /// The round number wrapped: no group or resource may keep a round number that could come again.
  void restart_rounds();

  std::vector<Group> group;
  std::vector<Res> res;
  std::vector<uint16_t> target;  ///< [g * locals + l] requested resource
  std::vector<uint32_t> by_res;  ///< IslipPorts: [r] the groups requesting resource r (r in wanted)
  std::vector<uint16_t> active;  ///< groups with a request (each once per round; the count is the allocator's)
  FixedList<uint16_t> touched;   ///< resources with a best group set (each once)
  FixedList<Grant> grants;
  uint32_t round = 1;  ///< requests since the last clear() carry this round number
  uint32_t generation = 0;  ///< shared: the sizes it was fitted to (g_scratch_need's generation)
};

/// Roles of shared scratches (SeparableAllocator's shared_role): allocators of two roles may be in
/// use at once on one thread (a router's VC allocator grants while its switch allocator collects).
constexpr int kScratchRoles = 2;
/// The largest allocator of each role built so far; its generation counts the changes, so that a
/// thread's scratch grows before it serves a larger allocator. (Allocators are built before a
/// simulation runs, on the elaborating thread.)
struct ScratchNeed {
  int groups = 0, resources = 0, targets = 0;
  uint32_t generation = 1;
};
inline ScratchNeed g_scratch_need[kScratchRoles];
/// The calling thread's shared scratch of each role (made on its first use).
inline thread_local AllocScratch* t_scratch[kScratchRoles] = {};

/// A separable allocator between groups (the requesters: an input VC in VC allocation, an input
/// port in switch allocation) and resources (an output VC, an output port). A group offers
/// requests by local index (the output VC w it wants, the input VC v that wants the switch), each
/// naming one resource; every group gets at most one of its requests and every resource at most
/// one group. Each group has an arbiter over its local indices and each resource an arbiter over
/// the groups, and the kind decides their order and when their pointers move. The work of one
/// allocation is proportional to the requests made, not to groups x resources. The allocator keeps
/// its arbiters; what one allocation uses and forgets is in a scratch (AllocScratch), its own or the
/// thread's scratch of a role.
class SeparableAllocator {
 public:
  using Grant = AllocScratch::Grant;

  /// locals <= 32 (a group's requests are a bit mask); groups and resources <= 32767. shared_role
  /// (0 .. kScratchRoles - 1): the allocation state is the calling thread's scratch of that role,
  /// shared with every allocator of the role, so two allocators of one role must not be used
  /// interleaved on one thread (each one's clear() to its last grant in between none of the other's
  /// calls); -1: a scratch of its own.
  SeparableAllocator(AllocatorKind kind, int groups, int locals, int resources, int iterations = 1,
                     int shared_role = -1);

  /// Forget every request made since the last clear(). A group's request mask counts only in the
  /// round it was last written in, so nothing is cleared group by group.
  void clear() {
    if (m_role >= 0) {
      AllocScratch* s = t_scratch[m_role];
      if (!s || s->generation != g_scratch_need[m_role].generation) s = thread_scratch(m_role);
      point_at(s);
    }
    m_active_n = 0;
    m_shared = false;
    m_port_groups = m_wanted = 0;
    if (++m_s->round == 0) m_s->restart_rounds();
    m_round = m_s->round;
  }
  /// Group g requests resource r through its local index l.
  void request(int g, int l, int r) {
    if (m_kind == AllocatorKind::IslipPorts) {  // bit sets only (islip_ports)
      const uint32_t gbit = uint32_t(1) << g, rbit = uint32_t(1) << r;
      AllocScratch::Group& gr = m_sgroup[size_t(g)];
      if (!(m_port_groups & gbit)) {
        m_port_groups |= gbit;
        m_sactive[m_active_n++] = uint16_t(g);
        gr.req = gr.res = 0;
      }
      gr.req |= uint32_t(1) << l;
      gr.res |= rbit;
      m_starget[size_t(g) * size_t(m_locals) + size_t(l)] = uint16_t(r);
      // The groups requesting r so far in this round (none when r is new: a select, not a branch).
      const uint32_t before = m_sby_res[size_t(r)] & (uint32_t(0) - ((m_wanted >> r) & 1));
      m_shared |= (before & ~gbit) != 0;
      m_sby_res[size_t(r)] = before | gbit;
      m_wanted |= rbit;
      return;
    }
    AllocScratch::Group& gr = m_sgroup[size_t(g)];
    if (gr.round != m_round) {
      gr.round = m_round;
      gr.req = 0;
      m_sactive[m_active_n++] = uint16_t(g);
    }
    gr.req |= uint32_t(1) << l;
    m_starget[size_t(g) * size_t(m_locals) + size_t(l)] = uint16_t(r);
    AllocScratch::Res& res = m_sres[size_t(r)];
    if (res.round != m_round) {
      res.round = m_round;
      res.owner = int16_t(g);
    } else if (res.owner != g) {
      m_shared = true;
    }
  }
  bool empty() const { return m_active_n == 0; }
  /// Allocates the requests made since clear(); pointers move per kind. The grants, one per
  /// matched group, stay valid until the next allocate() (of any allocator of a shared role).
  const FixedList<Grant>& allocate();
  /// The same, as grant[g] = the granted local index of group g or -1.
  void allocate(std::vector<int>& grant);
  /// The same, calling on_grant(group, local, resource) for each grant in the order allocate()
  /// lists them; the disjoint case (no resource requested by two groups) calls it from its own
  /// loop, without building the list.
  template <class F>
  void allocate_each(F&& on_grant) {
    if (m_active_n == 0) return;
    if (m_shared) {
      for (const Grant& g : allocate()) on_grant(g.group, g.local, g.resource);
      return;
    }
    each_own_pick(on_grant);
  }

  /// Asks the memory for the state an allocation reads first (its arbiters).
  void prefetch() const {
    __builtin_prefetch(m_group.data());
    __builtin_prefetch(m_res.data());
  }
  const RrArbiter& group_arbiter(int g) const { return m_group[size_t(g)].arb; }
  const RrArbiter& resource_arbiter(int r) const { return m_res[size_t(r)]; }
  /// IslipPorts: group g's arbiter over the resources (the one it accepts by).
  const RrArbiter& group_resource_arbiter(int g) const { return m_group[size_t(g)].res_arb; }

 private:
  /// A group's arbiters, all that outlives an allocation of it (8 bytes).
  struct Group {
    RrArbiter arb;      ///< over the local indices
    RrArbiter res_arb;  ///< IslipPorts: over the resources
  };
  /// The calling thread's scratch of `role`, made or grown to the role's largest allocator.
  [[gnu::noinline]] static AllocScratch* thread_scratch(int role);
  int target(int g, int l) const { return m_starget[size_t(g) * size_t(m_locals) + size_t(l)]; }
  /// The scratch's arrays from now on (the pointers a request follows, kept in the allocator).
  void point_at(AllocScratch* s) {
    m_s = s;
    m_sgroup = s->group.data();
    m_sres = s->res.data();
    m_starget = s->target.data();
    m_sby_res = s->by_res.data();
    m_sactive = s->active.data();
  }
  /// The groups with a request, in request order.
  const uint16_t* active_begin() const { return m_sactive; }
  const uint16_t* active_end() const { return m_sactive + m_active_n; }
  /// Resource r's arbiter sees group g: keep the one first in its order.
  void offer(int r, int g) {
    AllocScratch::Res& res = m_sres[size_t(r)];
    if (res.best < 0) {
      m_s->touched.push_back(uint16_t(r));
      res.best = int16_t(g);
    } else if (m_res[size_t(r)].before(g, res.best)) {
      res.best = int16_t(g);
    }
  }
  /// Appends a grant field by field (a grant built whole on the stack and copied would stall the
  /// copy on its partial stores).
  void add_grant(int g, int l, int r) {
    Grant& gr = m_s->grants.emplace_back();
    gr.group = int16_t(g);
    gr.local = int16_t(l);
    gr.resource = int16_t(r);
  }
  void input_first();
  void output_first();
  void islip();
  void islip_ports();
  void end_iteration();  ///< iSLIP: the resources' picks of this iteration forgotten
  void end_matches();    ///< iSLIP: the matched and taken marks of this allocation cleared
  void disjoint();
  /// Disjoint requests (no resource requested by two groups): each requesting group, in request
  /// order, is granted its arbiter's pick l (resource r); under IslipPorts (every resource picks its
  /// only group, so a group accepts the first of its resources from its resource pointer, through
  /// the first of its locals requesting it from its local pointer: islip_ports' first iteration,
  /// which matches every group) its resource pointer moves too; both other pointers move, and
  /// on_grant(group, l, r) is called.
  template <class F>
  void each_own_pick(F&& on_grant) {
    const bool by_ports = m_kind == AllocatorKind::IslipPorts;
    for (const uint16_t* a = active_begin(); a != active_end(); ++a) {
      const int g = *a;
      Group& gr = m_group[size_t(g)];
      int l, r;
      if (by_ports) {
        r = gr.res_arb.pick_some(m_sgroup[size_t(g)].res);
        l = local_for(g, r);
        gr.res_arb.advance(r);
      } else {
        l = gr.arb.pick_some(m_sgroup[size_t(g)].req);
        r = target(g, l);
      }
      gr.arb.advance(l);
      m_res[size_t(r)].advance(g);
      on_grant(int(g), l, r);
    }
  }
  /// IslipPorts: the local group g offers resource r: the first from its local pointer whose
  /// request names r.
  int local_for(int g, int r) const {
    const uint32_t req = m_sgroup[size_t(g)].req;
    if ((req & (req - 1)) == 0) return __builtin_ctz(req);  // its only request
    const uint32_t upper = req & m_group[size_t(g)].arb.from_pointer();
    for (uint32_t part : {upper, req & ~upper})
      for (uint32_t m = part; m; m &= m - 1)
        if (target(g, __builtin_ctz(m)) == r) return __builtin_ctz(m);
    return -1;  // not reached: r is one of g's resources
  }

  // What every allocation reads first (a router's edge clears, requests and allocates at each busy
  // edge), then the rest: the scratch of the allocation under way (set by clear() when shared) and
  // its arrays, reached from the allocator as its own arrays were (one load, not two, per request).
  AllocScratch* m_s = nullptr;
  AllocScratch::Group* m_sgroup = nullptr;
  AllocScratch::Res* m_sres = nullptr;
  uint16_t* m_starget = nullptr;
  uint32_t* m_sby_res = nullptr;
  uint16_t* m_sactive = nullptr;
  uint32_t m_active_n = 0;  ///< groups in m_sactive
  uint32_t m_round = 0;     ///< the scratch's round of this allocation
  uint32_t m_port_groups = 0, m_wanted = 0;  ///< IslipPorts: the groups with a request, the resources requested
  bool m_shared = false;  ///< a resource was requested by two groups since the last clear()
  int8_t m_role;          ///< the shared scratch's role, or -1: m_own
  AllocatorKind m_kind;
  int m_locals, m_iterations;
  std::vector<Group> m_group;
  std::vector<RrArbiter> m_res;  ///< [r]: resource r's arbiter over the groups
  int m_groups, m_resources;
  std::unique_ptr<AllocScratch> m_own;
};

}  // namespace wormcast
