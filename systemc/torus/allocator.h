// Allocator units of the torus router: the round-robin arbiter (the C++ twin of
// rtl/wc_rr_arbiter.sv) and one separable allocator, input-first, output-first or iSLIP, whose
// pointer rules are written in docs/router.md section 5.6.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace wormcast {

/// Round-robin arbiter over n requesters: the grant is the first requester among ptr, ptr+1, ...,
/// n-1, 0, ..., ptr-1; the pointer moves past a grant only when told that it won.
class RrArbiter {
 public:
  explicit RrArbiter(int n = 1) : m_n(n) {}
  int size() const { return m_n; }
  int pointer() const { return m_ptr; }
  /// The granted index among req[0..n-1] (nonzero = requesting), or -1 when nobody requests.
  int pick(const std::vector<uint8_t>& req) const {
    for (int i = 0; i < m_n; ++i) {
      int k = m_ptr + i;
      if (k >= m_n) k -= m_n;
      if (req[size_t(k)]) return k;
    }
    return -1;
  }
  /// The grant `granted` won: the pointer moves to the next index.
  void advance(int granted) { m_ptr = granted + 1 == m_n ? 0 : granted + 1; }

 private:
  int m_n;
  int m_ptr = 0;
};

enum class AllocatorKind { InputFirst, OutputFirst, Islip };

/// A separable allocator between groups (the requesters: an input VC in VC allocation, an input
/// port in switch allocation) and resources (an output VC, an output port). A group offers
/// requests by local index (the output VC w it wants, the input VC v that wants the switch), each
/// naming one resource; every group gets at most one of its requests and every resource at most
/// one group. Each group has an arbiter over its local indices and each resource an arbiter over
/// the groups, and the kind decides their order and when their pointers move.
class SeparableAllocator {
 public:
  SeparableAllocator(AllocatorKind kind, int groups, int locals, int resources, int iterations = 1);

  /// Forget every request of the previous allocation.
  void clear();
  /// Group g requests resource r through its local index l.
  void request(int g, int l, int r);
  /// Allocates; grant[g] is the granted local index of group g or -1. Pointers move per kind.
  void allocate(std::vector<int>& grant);

  const RrArbiter& group_arbiter(int g) const { return m_group_arb[size_t(g)]; }
  const RrArbiter& resource_arbiter(int r) const { return m_res_arb[size_t(r)]; }

 private:
  void input_first(std::vector<int>& grant);
  void output_first(std::vector<int>& grant);
  void islip(std::vector<int>& grant);

  AllocatorKind m_kind;
  int m_groups, m_locals, m_resources, m_iterations;
  std::vector<int> m_target;        ///< [g * locals + l] requested resource or -1
  std::vector<RrArbiter> m_group_arb, m_res_arb;
  // Scratch of one allocation.
  std::vector<uint8_t> m_req;       ///< one arbiter's request vector
  std::vector<int> m_choice;        ///< [g] or [r]: a stage-1 choice
};

}  // namespace wormcast
