// Bare-metal build check of the node runtime: a node firmware that runs its ROM program tables
// (a broadcast's and a gossip's) through a NodeApi backed by memory-mapped NIC registers. Compiled for rv32imac with picolibc,
// -ffreestanding -fno-exceptions -fno-rtti, by scripts/check-runtime-baremetal (never linked).
#include <stddef.h>
#include <stdint.h>

#include "sw/runtime/schedule_program.h"
#include "sw/topology/topology.h"

namespace {

using wormcast::sw::Delivery;
using wormcast::sw::NodeApi;
using wormcast::sw::NodeTable;
using wormcast::sw::ReceiptStep;
using wormcast::sw::ScheduleProgram;
using wormcast::sw::SendEntry;
using wormcast::sw::SendOptions;
using wormcast::sw::Topology;

// A 4x4 torus node's slice of a schedule, as a host tool would emit it into ROM.
constexpr SendEntry kMySends[] = {
    {2, 2, 1, 0},
    {7, 2, 1, 0},
    {13, 2, 1, SendEntry::kTieNegative},
};

// The same node's slice of a gossip schedule (Approach 1-1 on the 4x4 torus, one colour shown):
// per-send lengths follow the chunks carried, and receipts are counted per step.
constexpr SendEntry kMyGossipSends[] = {
    {1, 1, 0, 0}, {3, 1, 0, 0}, {4, 1, 0, 0}, {12, 1, 0, 0},
    {1, 2, 0, 0}, {3, 2, 0, 0}, {4, 2, 0, 0}, {12, 2, 0, 0},
};
constexpr uint32_t kMyGossipLengths[] = {32, 32, 32, 32, 64, 64, 64, 64};
constexpr ReceiptStep kMyGossipReceipts[] = {{1, 4}, {2, 4}};

constexpr int kRadix[] = {4, 4};
constexpr bool kTorus[] = {true, true};
constexpr Topology kTopology(2, kRadix, kTorus);

// Memory-mapped NIC registers (addresses are the firmware's, not the model's).
struct NicRegs {
  volatile uint32_t dst;
  volatile uint32_t length;
  volatile uint32_t tag;
  volatile uint32_t flags;
  volatile uint32_t go;
  volatile uint32_t cycle_lo;
  volatile uint32_t cycle_hi;
};

class MmioApi final : public NodeApi {
 public:
  MmioApi(NicRegs* regs, int self) : m_regs(regs), m_self(self) {}
  int self() const override { return m_self; }
  const Topology& topology() const override { return kTopology; }
  uint64_t now() const override {
    return (uint64_t(m_regs->cycle_hi) << 32) | m_regs->cycle_lo;
  }
  void send(int dst, uint32_t length, const SendOptions& o) override {
    m_regs->dst = uint32_t(dst);
    m_regs->length = length;
    m_regs->tag = o.tag;
    m_regs->flags = o.tie_negative ? 1u : 0u;
    m_regs->go = 1;
  }

 private:
  NicRegs* m_regs;
  int m_self;
};

// Static storage only: nothing is allocated at run time.
ScheduleProgram g_program(NodeTable{kMySends, sizeof(kMySends) / sizeof(kMySends[0])}, 64);
// Gossip: the receipt counters are the only RAM the table needs, one per receipt step.
uint16_t g_gossip_counts[sizeof(kMyGossipReceipts) / sizeof(kMyGossipReceipts[0])];
ScheduleProgram g_gossip(NodeTable{kMyGossipSends, sizeof(kMyGossipSends) / sizeof(kMyGossipSends[0]), kMyGossipLengths,
                                   kMyGossipReceipts, sizeof(kMyGossipReceipts) / sizeof(kMyGossipReceipts[0])},
                         64, g_gossip_counts);

static_assert(sizeof(SendEntry) == 8, "program table entries stay compact");
static_assert(sizeof(ReceiptStep) == 4, "receipt entries stay compact");
static_assert(kTopology.hops(0, 10, false) == 4, "route math is usable at compile time");

}  // namespace

extern "C" void node_start(void* nic_base, int self) {
  MmioApi api(static_cast<NicRegs*>(nic_base), self);
  g_program.on_start(api);
}

extern "C" void node_on_receive(void* nic_base, int self, int src, uint32_t tag) {
  MmioApi api(static_cast<NicRegs*>(nic_base), self);
  Delivery d;
  d.src = src;
  d.tag = tag;
  g_program.on_receive(api, d);
}

extern "C" int node_done(void) { return g_program.done() ? 1 : 0; }

extern "C" void gossip_start(void* nic_base, int self) {
  MmioApi api(static_cast<NicRegs*>(nic_base), self);
  g_gossip.on_start(api);
}

extern "C" void gossip_on_receive(void* nic_base, int self, int src, uint32_t tag) {
  MmioApi api(static_cast<NicRegs*>(nic_base), self);
  Delivery d;
  d.src = src;
  d.tag = tag;
  g_gossip.on_receive(api, d);
}

extern "C" int gossip_done(void) { return g_gossip.done() ? 1 : 0; }
