// The RV32 node firmware: the node runtime's ScheduleProgram (the same source the native model
// runs) behind a NodeApi backed by the memory-mapped NIC registers of memory_map.h. The loader
// sets sp to the top of RAM and a0 to the node's boot record; the core sleeps in wfi until the
// NIC's receive interrupt line is high (interrupts stay disabled: wfi wakes on the pending line
// and the loop reads kRxCount; no trap handler, docs/cpu.md).
//
// Freestanding C++17, built with -ffreestanding -fno-exceptions -fno-rtti for rv32imac/ilp32.
#include <stddef.h>
#include <stdint.h>

#include "sw/hal/node_api.h"
#include "sw/runtime/rv32/memory_map.h"
#include "sw/runtime/schedule_program.h"
#include "sw/topology/topology.h"

namespace {

using namespace wormcast::sw;

inline volatile uint32_t& nic(uint32_t offset) {
  return *reinterpret_cast<volatile uint32_t*>(uintptr_t(rv32::kNicBase + offset));
}

// csrrs rd, mcycle(h), x0, spelled as .insn (the multilib's -march=rv32imac names no Zicsr).
inline uint32_t csr_mcycle() {
  uint32_t v;
  asm volatile(".insn i 0x73, 2, %0, x0, -1280" : "=r"(v));  // CSR 0xb00
  return v;
}
inline uint32_t csr_mcycleh() {
  uint32_t v;
  asm volatile(".insn i 0x73, 2, %0, x0, -1152" : "=r"(v));  // CSR 0xb80
  return v;
}

class MmioApi final : public NodeApi {
 public:
  MmioApi(int self, const Topology& topo) : m_self(self), m_topo(topo) {}
  int self() const override { return m_self; }
  const Topology& topology() const override { return m_topo; }
  /// The core's cycle counter (mcycle), in core cycles.
  uint64_t now() const override {
    uint32_t hi, lo, hi2;
    do {
      hi = csr_mcycleh();
      lo = csr_mcycle();
      hi2 = csr_mcycleh();
    } while (hi != hi2);
    return (uint64_t(hi) << 32) | lo;
  }
  __attribute__((noinline)) void send(int dst, uint32_t length, const SendOptions& o) override {
    nic(rv32::kNicTx + 0) = uint32_t(dst);
    nic(rv32::kNicTx + 4) = length;
    nic(rv32::kNicTx + 8) = o.tag;
    nic(rv32::kNicTx + 12) = o.tie_negative ? 1u : 0u;  // the commit: the NIC takes the message
  }

 private:
  int m_self;
  const Topology& m_topo;
};

__attribute__((noinline)) Delivery pop_delivery() {
  Delivery d;
  d.src = int(nic(rv32::kNicRxPop + 0));  // the pop
  d.tag = nic(rv32::kNicRxPop + 4);
  d.length = nic(rv32::kNicRxPop + 8);
  d.arrival = nic(rv32::kNicRxPop + 16) | (uint64_t(nic(rv32::kNicRxPop + 20)) << 32);
  d.visible = nic(rv32::kNicRxPop + 24) | (uint64_t(nic(rv32::kNicRxPop + 28)) << 32);
  return d;
}

template <class T>
const T* at(uint32_t addr) {
  return addr ? reinterpret_cast<const T*>(uintptr_t(addr)) : nullptr;
}

}  // namespace

extern "C" [[noreturn]] __attribute__((section(".text.start"))) void _start(const rv32::BootRecord* boot) {
  int radix[kMaxDims];
  bool torus[kMaxDims];
  for (uint32_t d = 0; d < boot->dims && d < uint32_t(kMaxDims); ++d) {
    radix[d] = int(boot->radix[d]);
    torus[d] = (boot->torus_mask >> d) & 1u;
  }
  const Topology topo(int(boot->dims), radix, torus);
  NodeTable table;
  table.sends = at<SendEntry>(boot->sends);
  table.count = boot->count;
  table.lengths = at<uint32_t>(boot->lengths);
  table.receipts = at<ReceiptStep>(boot->receipts);
  table.receipt_steps = boot->receipt_steps;
  ScheduleProgram program(table, boot->length,
                          boot->counts ? reinterpret_cast<uint16_t*>(uintptr_t(boot->counts)) : nullptr);
  MmioApi api(int(boot->self), topo);
  program.on_start(api);
  for (;;) {
    if (nic(rv32::kNicRxCount) == 0) {
      asm volatile("wfi");
      continue;
    }
    program.on_receive(api, pop_delivery());
  }
}
