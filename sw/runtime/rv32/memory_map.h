// The RV32 node's memory map and boot record, shared by the node firmware and the processor model
// (systemc/cpu/rv32_core.h), so that the two cannot disagree on an address (docs/cpu.md).
//
// Freestanding C++17 (only <stdint.h>): part of the node runtime.
#pragma once

#include <stdint.h>

namespace wormcast::sw::rv32 {

/// RAM: program (text, read-only data, data, bss) from kRamBase, then the node's boot record and
/// program table, then the stack, which grows down from the top of RAM (node.cpu_ram bytes).
inline constexpr uint32_t kRamBase = 0x00000000;
/// Bytes kept for the stack at the top of RAM.
inline constexpr uint32_t kStackBytes = 4096;
/// The NIC's register window: offset o is the NIC's TLM register o (systemc/nic/nic.h nic_reg).
/// 32-bit accesses only. The four words of kTx are write-combined: the store to kTx + 12 (flags)
/// issues the 16-byte TLM write; the load of kRxPop + 0 issues the 32-byte TLM read (the pop),
/// whose words the loads of kRxPop + 4..28 then return.
inline constexpr uint32_t kNicBase = 0x40000000;
inline constexpr uint32_t kNicBytes = 0x4000;
inline constexpr uint32_t kNicTx = 0x00;       ///< dst, length, tag, flags
inline constexpr uint32_t kNicRxPop = 0x20;    ///< src, tag, length, 0, arrival lo/hi, visible lo/hi
inline constexpr uint32_t kNicRxCount = 0x40;  ///< deliveries visible to software now

/// What the loader writes into RAM for one node (little-endian words) and passes in a0 at reset.
/// Addresses are guest addresses inside RAM; 0 means absent.
struct BootRecord {
  static constexpr uint32_t kMagic = 0x57433332;  // "WC32"
  uint32_t magic;
  uint32_t self;           ///< node id
  uint32_t length;         ///< flits of every send without a per-send length
  uint32_t count;          ///< sends
  uint32_t sends;          ///< SendEntry[count]
  uint32_t lengths;        ///< uint32_t[count] or 0
  uint32_t receipts;       ///< ReceiptStep[receipt_steps] or 0
  uint32_t receipt_steps;
  uint32_t counts;         ///< uint16_t[receipt_steps], zeroed, or 0
  uint32_t dims;
  uint32_t torus_mask;     ///< bit d: dimension d wraps around
  uint32_t radix[16];
};

}  // namespace wormcast::sw::rv32
