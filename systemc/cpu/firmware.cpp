// Loading the RV32 node firmware: ELF segments, instruction classes, per-node RAM images.
#include "systemc/cpu/firmware.h"

#include <elf.h>

#include <cstring>

#include <fmt/format.h>

#include "sw/runtime/rv32/memory_map.h"

namespace wormcast {

// Generated at build time from the cross-compiled firmware (cmake/Rv32Firmware.cmake); empty
// without a cross compiler.
extern const unsigned char kNodeRv32Elf[];
extern const size_t kNodeRv32ElfSize;

namespace {

InsnAction counter_action(uint32_t csr) {
  switch (csr) {
    case 0xb00: case 0xc00: return InsnAction::CycleLo;    // mcycle, cycle
    case 0xb80: case 0xc80: return InsnAction::CycleHi;    // mcycleh, cycleh
    case 0xb02: case 0xc02: return InsnAction::InstretLo;  // minstret, instret
    case 0xb82: case 0xc82: return InsnAction::InstretHi;  // minstreth, instreth
    default: return InsnAction::None;
  }
}

}  // namespace

DecodedInsn decode_rv32(uint32_t w) {
  DecodedInsn d;
  if ((w & 3) != 3) {  // compressed (RVC), quadrant and funct3
    d.bytes = 2;
    const uint32_t q = w & 3, f3 = (w >> 13) & 7;
    if (q == 0) d.cls = f3 == 2 ? InsnClass::Load : f3 == 6 ? InsnClass::Store : InsnClass::Alu;
    else if (q == 1) d.cls = (f3 == 1 || f3 == 5) ? InsnClass::Jump : f3 >= 6 ? InsnClass::Branch : InsnClass::Alu;
    else if (f3 == 2) d.cls = InsnClass::Load;
    else if (f3 == 6) d.cls = InsnClass::Store;
    else if (f3 == 4) {
      const uint32_t rs2 = (w >> 2) & 31, rd = (w >> 7) & 31;
      if (rs2 == 0 && rd != 0) d.cls = InsnClass::Jump;   // c.jr, c.jalr
      else if (rs2 == 0) d.cls = InsnClass::System;       // c.ebreak
    }
    return d;
  }
  const uint32_t op = w & 0x7f, f3 = (w >> 12) & 7;
  switch (op) {
    case 0x03: d.cls = InsnClass::Load; break;
    case 0x23: d.cls = InsnClass::Store; break;
    case 0x2f: d.cls = InsnClass::Load; break;  // AMO: a read-modify-write
    case 0x63: d.cls = InsnClass::Branch; break;
    case 0x67: case 0x6f: d.cls = InsnClass::Jump; break;
    case 0x0f: d.cls = InsnClass::System; break;  // fence
    case 0x33:
      if ((w >> 25) == 1) d.cls = f3 < 4 ? InsnClass::Mul : InsnClass::Div;
      break;
    case 0x73:
      d.cls = InsnClass::System;
      if (w == 0x10500073) d.action = InsnAction::Wfi;
      else if (f3 == 2 && ((w >> 15) & 31) == 0) {  // csrrs rd, csr, x0: a plain read
        d.action = counter_action(w >> 20);
        d.rd = uint8_t((w >> 7) & 31);
      }
      break;
    default: break;
  }
  return d;
}

const FirmwareImage& FirmwareImage::builtin() {
  static const FirmwareImage image(kNodeRv32Elf, kNodeRv32ElfSize, "the built-in RV32 node firmware");
  return image;
}

FirmwareImage::FirmwareImage(const unsigned char* elf, size_t size, const std::string& what) {
  if (size == 0) return;
  auto bad = [&](const char* why) { throw ConfigError(fmt::format("{}: not a RISC-V ELF32 executable ({})", what, why)); };
  Elf32_Ehdr eh;
  if (size < sizeof eh) bad("too short");
  std::memcpy(&eh, elf, sizeof eh);
  if (std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != ELFCLASS32 || eh.e_machine != EM_RISCV)
    bad("header");
  m_entry = eh.e_entry;
  for (unsigned i = 0; i < eh.e_phnum; ++i) {
    Elf32_Phdr ph;
    const size_t at = size_t(eh.e_phoff) + size_t(i) * eh.e_phentsize;
    if (at + sizeof ph > size) bad("program header");
    std::memcpy(&ph, elf + at, sizeof ph);
    if (ph.p_type != PT_LOAD || ph.p_memsz == 0) continue;
    if (size_t(ph.p_offset) + ph.p_filesz > size || ph.p_filesz > ph.p_memsz) bad("segment");
    const size_t end = size_t(ph.p_vaddr) + ph.p_memsz;
    if (end > (size_t(1) << 24)) bad("segment beyond 16 MiB");
    if (m_bytes.size() < end) m_bytes.resize(end, 0);
    std::memcpy(m_bytes.data() + ph.p_vaddr, elf + ph.p_offset, ph.p_filesz);
    if (ph.p_flags & PF_X) m_text_end = std::max<uint32_t>(m_text_end, uint32_t(ph.p_vaddr + ph.p_filesz));
  }
  if (m_bytes.empty()) bad("no loadable segment");
  decode_text();
}

FirmwareImage FirmwareImage::from_code(const std::vector<uint32_t>& words) {
  FirmwareImage f;
  f.m_bytes.resize(words.size() * 4);
  std::memcpy(f.m_bytes.data(), words.data(), f.m_bytes.size());
  f.m_text_end = uint32_t(f.m_bytes.size());
  f.decode_text();
  return f;
}

void FirmwareImage::decode_text() {
  m_decoded.resize(m_text_end / 2 + 1);
  for (uint32_t pc = 0; pc + 2 <= m_text_end; pc += 2) {
    uint32_t w = 0;
    std::memcpy(&w, m_bytes.data() + pc, std::min<size_t>(4, m_bytes.size() - pc));
    m_decoded[pc / 2] = decode_rv32(w);
  }
}

std::vector<uint8_t> FirmwareImage::node_ram(const sw::NodeTable& t, uint32_t length, const sw::Topology& topo, int self,
                                             uint32_t ram_bytes, uint32_t& boot_addr) const {
  using sw::rv32::BootRecord;
  auto align8 = [](size_t x) { return (x + 7) & ~size_t(7); };
  const size_t boot = align8(m_bytes.size());
  size_t at = boot + sizeof(BootRecord);
  const size_t sends = align8(at);
  at = sends + sizeof(sw::SendEntry) * t.count;
  const size_t lengths = t.lengths ? align8(at) : 0;
  if (t.lengths) at = lengths + 4 * size_t(t.count);
  const size_t receipts = t.receipts ? align8(at) : 0;
  if (t.receipts) at = receipts + sizeof(sw::ReceiptStep) * t.receipt_steps;
  const size_t counts = t.receipts ? align8(at) : 0;
  if (t.receipts) at = counts + 2 * size_t(t.receipt_steps);
  if (at + sw::rv32::kStackBytes > ram_bytes)
    throw ConfigError(fmt::format(
        "config: node.cpu_ram = {} is too small for node {}: firmware {} bytes (padded to 8) + its program table "
        "{} bytes + stack {} bytes = {}; allowed: at least that, a multiple of 4096 up to 16777216",
        ram_bytes, self, boot, at - boot, sw::rv32::kStackBytes, at + sw::rv32::kStackBytes));
  std::vector<uint8_t> ram(at, 0);
  std::memcpy(ram.data(), m_bytes.data(), m_bytes.size());
  BootRecord b{};
  b.magic = BootRecord::kMagic;
  b.self = uint32_t(self);
  b.length = length;
  b.count = t.count;
  b.sends = uint32_t(sends);
  b.lengths = uint32_t(lengths);
  b.receipts = uint32_t(receipts);
  b.receipt_steps = t.receipt_steps;
  b.counts = uint32_t(counts);
  b.dims = uint32_t(topo.dims());
  for (int d = 0; d < topo.dims() && d < 16; ++d) {
    b.radix[d] = uint32_t(topo.radix(d));
    if (topo.torus(d)) b.torus_mask |= 1u << d;
  }
  std::memcpy(ram.data() + boot, &b, sizeof b);
  if (t.count) std::memcpy(ram.data() + sends, t.sends, sizeof(sw::SendEntry) * t.count);
  if (t.lengths) std::memcpy(ram.data() + lengths, t.lengths, 4 * size_t(t.count));
  if (t.receipts) std::memcpy(ram.data() + receipts, t.receipts, sizeof(sw::ReceiptStep) * t.receipt_steps);
  boot_addr = uint32_t(boot);
  return ram;
}

}  // namespace wormcast
