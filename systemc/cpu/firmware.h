// The RV32 node firmware as the processor model loads it: the ELF image built from
// sw/runtime/rv32 (embedded at build time), its instruction classes for the cost model, and the
// per-node RAM image (firmware + boot record + program table).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sw/runtime/program_table.h"
#include "sw/topology/topology.h"
#include "systemc/common/config.h"

namespace wormcast {

/// What the core does besides its class's cost when it executes an instruction.
enum class InsnAction : uint8_t { None, CycleLo, CycleHi, InstretLo, InstretHi, Wfi };

struct DecodedInsn {
  InsnClass cls = InsnClass::Alu;
  InsnAction action = InsnAction::None;
  uint8_t rd = 0;     ///< destination of a counter read
  uint8_t bytes = 4;  ///< 2 (compressed) or 4
};

/// Decodes one RV32IMAC instruction word (the low 16 bits for a compressed one).
DecodedInsn decode_rv32(uint32_t word);

class FirmwareImage {
 public:
  /// The image linked into this program; available() is false when the build had no RISC-V
  /// cross compiler.
  static const FirmwareImage& builtin();
  /// Parses an ELF32 RISC-V executable; throws ConfigError naming `what` when it is not one.
  FirmwareImage(const unsigned char* elf, size_t size, const std::string& what);

  /// Instructions from address 0, entry 0 (hand-written programs: tests of faults and timing).
  static FirmwareImage from_code(const std::vector<uint32_t>& words);

  bool available() const { return !m_bytes.empty(); }
  uint32_t entry() const { return m_entry; }
  /// Bytes from address 0 to the end of the last segment (bss zero).
  const std::vector<uint8_t>& bytes() const { return m_bytes; }
  /// End of the executable segment: instructions are fetched below it.
  uint32_t text_end() const { return m_text_end; }
  /// The decoded instruction at `pc` (pc < text_end), cached.
  const DecodedInsn& at(uint32_t pc) const { return m_decoded[pc / 2]; }

  /// The RAM of one node: firmware, then at an 8-byte aligned address after it the boot record and
  /// the node's table. Throws ConfigError (node.cpu_ram) when it does not fit beside the stack.
  /// `boot_addr` receives the boot record's guest address.
  std::vector<uint8_t> node_ram(const sw::NodeTable& table, uint32_t length, const sw::Topology& topo, int self,
                                uint32_t ram_bytes, uint32_t& boot_addr) const;

 private:
  FirmwareImage() = default;
  void decode_text();

  std::vector<uint8_t> m_bytes;
  std::vector<DecodedInsn> m_decoded;  ///< per halfword below m_text_end
  uint32_t m_entry = 0;
  uint32_t m_text_end = 0;
};

}  // namespace wormcast
