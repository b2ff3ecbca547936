// Schedule IR: the unicasts of a collective, grouped into steps, as host tools build and check them.
#pragma once

#include <stdint.h>

#include <string>
#include <vector>

#include "sw/topology/path.h"
#include "sw/topology/topology.h"

namespace wormcast::sw {

/// The pieces of data a unicast carries. Broadcast schedules carry chunk 0 only; gossip schedules
/// (data combination) carry several, which is why this is a set and not a flag.
class ChunkSet {
 public:
  ChunkSet() = default;
  ChunkSet(const ChunkSet& o);
  ChunkSet(ChunkSet&& o) noexcept;
  ChunkSet& operator=(const ChunkSet& o);
  ChunkSet& operator=(ChunkSet&& o) noexcept;
  ~ChunkSet();
  static ChunkSet single(int chunk) {
    ChunkSet s;
    s.add(chunk);
    return s;
  }
  void add(int chunk);
  void add(const ChunkSet& other);
  bool contains(int chunk) const;
  int count() const;
  bool empty() const { return count() == 0; }
  std::vector<int> ids() const;
  /// Every chunk of this set is in `other`.
  bool subset_of(const ChunkSet& other) const;
  /// The first chunk of this set that is not in `other`, -1 if none.
  int first_missing_from(const ChunkSet& other) const;
  bool operator==(const ChunkSet& o) const;
  bool operator!=(const ChunkSet& o) const { return !(*this == o); }

 private:
  /// 64 chunks of the set from chunk 64 * index on, as a bit mask (never 0).
  struct Word {
    uint32_t index;
    uint64_t bits;
    bool operator==(const Word& o) const { return index == o.index && bits == o.bits; }
  };
  /// The set's nonzero words, by index, as a pointer and a count; `one` is where the inline
  /// word is spelled out when there is one.
  struct Words {
    const Word* data;
    uint32_t size;
  };
  Words words(Word& one) const;
  /// Replaces the words by `v` (sorted, none 0).
  void assign(const std::vector<Word>& v);
  /// Puts the word of index i at its place, its bits or'ed into an existing one's.
  void insert(uint32_t i, uint64_t bits);
  void release();

  // A unicast of a gossip schedule on thousands of nodes carries a few chunks of a range that
  // large, and a schedule holds millions of unicasts (Approach 1 on a ring of 4,096 nodes: 16.8
  // million, one chunk each). So a set of one word keeps it inline, in 12 bytes and no allocation;
  // a larger one keeps its nonzero words only, on the heap.
  //   m_tag < kHeap: one word or none, index m_tag, bits m_raw (0: the empty set);
  //   m_tag = kHeap | n: n >= 2 words at the block m_raw points to (a header word: its index the
  //   capacity; then the words).
  static constexpr uint32_t kHeap = 0x80000000u;
  uint32_t m_tag = 0;
  uint32_t m_raw[2] = {0, 0};  ///< the inline bits or the block pointer, at 4-byte alignment
  uint64_t raw() const;
  void set_raw(uint64_t v);
  Word* block() const;
  bool on_heap() const { return (m_tag & kHeap) != 0; }
  uint32_t heap_size() const { return m_tag & ~kHeap; }
};
static_assert(sizeof(ChunkSet) == 12, "a unicast's chunk set is 12 bytes: a unicast 32");

/// How many messages a node may have in flight: all-port (one per network port, sent and
/// received at once) or one-port (one send and one receipt at a time; Sec. 7.2 of Juurlink,
/// Sibeyn, Rao). Used by the analytic backend, the gossip generators, the verifier and the cost.
enum class PortModel { AllPort, OnePort };

/// One unicast of a schedule. Its path is not stored: it follows from dimension-ordered routing
/// (sw/topology) and the tie bit, so the verifier and the router can never disagree about it.
struct Unicast {
  int src = -1;
  int dst = -1;
  int step = 0;               ///< 1-based message-passing step
  int order = 0;              ///< position in src's send queue within this step, 0-based
  bool tie_negative = false;  ///< head flit's tie bit: a distance-k/2 dimension goes negative
  ChunkSet chunks = ChunkSet::single(0);
};
static_assert(sizeof(Unicast) == 32, "a schedule holds millions of unicasts");

/// What the schedule distributes: one source's message (chunk 0), or every node's own data
/// (gossip, all-to-all start: node x holds chunks x*chunks_per_node .. (x+1)*chunks_per_node-1).
enum class Collective { Broadcast, Gossip };

struct Schedule {
  Topology topology;
  Collective collective = Collective::Broadcast;
  /// Gossip: how many chunks each node's data is cut into (colours of HIGH-DIM-GOS', packet
  /// parts); a unicast's size in units of one node's data is chunks.count() / chunks_per_node.
  int chunks_per_node = 1;
  int source = 0;  ///< broadcast only
  std::string algo;  ///< generator name, e.g. "dcf"
  int num_steps = 0; ///< steps 1..num_steps; a step may be empty (see the generator's notes)
  std::vector<Unicast> unicasts;
};

/// Arcs of the unicast's dimension-ordered path.
std::vector<Arc> unicast_path(const Topology& t, const Unicast& u);

/// The network port of the unicast's first hop (its injection channel), -1 when src == dst.
int first_port(const Topology& t, const Unicast& u);

/// Node `node` moved by the coordinates of `by` (mod radix in torus dimensions): translating a
/// schedule written for source 0 to another source keeps every route's shape (node symmetry).
int translate_node(const Topology& t, int node, int by);

/// The same schedule for source `new_source` (every node translated). Torus dimensions only.
Schedule translate(const Schedule& s, int new_source);

/// Sort by (step, src, order): the canonical order used for printing and JSON.
void sort_canonical(Schedule& s);

/// Drop every unicast whose destination already holds chunk 0 before its step (the source holds
/// it from the start), then renumber the send orders so that each (src, step) counts from 0.
/// Dropping deliveries never delays a sender, so causality is kept.
void drop_redundant(Schedule& s);

/// "(3,1)" style coordinates of a node.
std::string format_node(const Topology& t, int node);

/// "x+" style name of a network port.
std::string format_port(int port);

/// Smallest s with base^s >= value (value >= 1, base >= 2): step counts and lower bounds.
int ceil_log(long long value, long long base);

/// Coordinates of `node` as a list (for JSON and the CLI).
std::vector<int> node_coords(const Topology& t, int node);

}  // namespace wormcast::sw
