// The RV32 node processor: Unicorn executes the firmware in slices of at most node.cpu_quantum
// network cycles; a code hook charges each instruction its class's cycles and ends the slice,
// the NIC window's loads and stores become TLM transactions on the NIC's socket.
#include "systemc/cpu/rv32_core.h"

#include <dlfcn.h>
#include <unicorn/unicorn.h>

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "sw/runtime/rv32/memory_map.h"
#include "systemc/common/clock.h"
#include "systemc/common/config.h"

namespace wormcast {

namespace rv = sw::rv32;

namespace {

/// The Unicorn functions the core calls, from the library loaded when the first core is built
/// (dlopen) rather than when the program starts: the library is large, and loading it at start-up
/// cost every process about 5 ms, whether it ran a processor or not (docs/cpu.md). One list names
/// them for the table and for its loading.
#define WORMCAST_UC_FUNCTIONS(X) \
  X(open) X(close) X(strerror) X(mem_map) X(mem_read) X(mem_write) X(mmio_map) X(hook_add) X(reg_read) \
  X(reg_write) X(emu_start) X(emu_stop)
struct Unicorn {
#define WORMCAST_UC_FIELD(f) decltype(&::uc_##f) f;
  WORMCAST_UC_FUNCTIONS(WORMCAST_UC_FIELD)
#undef WORMCAST_UC_FIELD
};

template <class F>
void resolve(void* lib, F& f, const char* name) {
  f = reinterpret_cast<F>(dlsym(lib, name));
  if (!f) SC_REPORT_FATAL("wormcast/cpu", fmt::format("Unicorn 2 lacks {}: {}", name, dlerror()).c_str());
}

const Unicorn& unicorn() {
  static const Unicorn api = [] {
    Unicorn u{};
    void* lib = dlopen("libunicorn.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!lib)  // a missing package, as a missing firmware: one line, exit 2
      throw ConfigError(fmt::format("config: node.cpu = rv32 needs the Unicorn 2 library (Debian package "
                                    "libunicorn2), which does not load: {}", dlerror()));
#define WORMCAST_UC_RESOLVE(f) resolve(lib, u.f, "uc_" #f);
    WORMCAST_UC_FUNCTIONS(WORMCAST_UC_RESOLVE)
#undef WORMCAST_UC_RESOLVE
    return u;
  }();
  return api;
}
#undef WORMCAST_UC_FUNCTIONS

}  // namespace

/// Unicorn's C callbacks, forwarding to the core.
struct Rv32Hooks {
  static void code(uc_engine*, uint64_t addr, uint32_t, void* self) { static_cast<Rv32Core*>(self)->on_insn(uint32_t(addr)); }
  static uint64_t read(uc_engine*, uint64_t off, unsigned size, void* self) {
    return static_cast<Rv32Core*>(self)->mmio_read(uint32_t(off), size);
  }
  static void write(uc_engine*, uint64_t off, unsigned size, uint64_t value, void* self) {
    static_cast<Rv32Core*>(self)->mmio_write(uint32_t(off), size, value);
  }
  static void intr(uc_engine* uc, uint32_t cause, void* self) {
    auto* c = static_cast<Rv32Core*>(self);
    const char* what = cause == 2 ? "illegal instruction"
                       : cause == 0 || cause == 4 || cause == 6 ? "misaligned access"
                       : cause == 1 ? "instruction access fault"
                       : cause == 5 || cause == 7 ? "bus error"
                       : cause == 3 ? "breakpoint (ebreak)"
                       : cause == 11 ? "environment call (ecall)" : "exception";
    uint32_t word = 0;
    unicorn().mem_read(uc, c->m_insn_pc, &word, 4);
    c->fail(fmt::format("{} (cause {}, instruction word 0x{:08x})", what, cause, word));
  }
  static bool unmapped(uc_engine*, uc_mem_type type, uint64_t addr, int, int64_t, void* self) {
    auto* c = static_cast<Rv32Core*>(self);
    const char* kind = type == UC_MEM_FETCH_UNMAPPED ? "fetch from" : type == UC_MEM_WRITE_UNMAPPED ? "store to" : "load from";
    c->fail(fmt::format("bus error: {} unmapped address 0x{:08x}", kind, uint32_t(addr)));
    return false;
  }
};

Rv32Core::Rv32Core(sc_core::sc_module_name name, int node, Nic& nic, const FirmwareImage& fw, const NodeConfig& cfg,
                   std::vector<uint8_t> ram, uint32_t boot_addr, CoreObserver* observer)
    : sc_module(name), m_node(node), m_nic(nic), m_fw(fw), m_cfg(cfg), m_observer(observer) {
  socket.bind(nic.socket());
  nic.irq().bind(irq);
  nic.enable_rx_queue(true);
  SC_HAS_PROCESS(Rv32Core);
  SC_THREAD(run);
  if (ram.empty()) return;
  uc_engine* uc = nullptr;
  uc_err e = unicorn().open(UC_ARCH_RISCV, UC_MODE_RISCV32, &uc);
  if (e != UC_ERR_OK) SC_REPORT_FATAL("wormcast/cpu", (std::string(this->name()) + ": uc_open: " + unicorn().strerror(e)).c_str());
  m_uc = uc;
  const uint32_t ram_bytes = uint32_t(cfg.ram);
  auto check = [&](uc_err err, const char* what) {
    if (err != UC_ERR_OK)
      SC_REPORT_FATAL("wormcast/cpu", fmt::format("{}: {}: {}", this->name(), what, unicorn().strerror(err)).c_str());
  };
  check(unicorn().mem_map(uc, rv::kRamBase, ram_bytes, UC_PROT_ALL), "uc_mem_map");
  check(unicorn().mem_write(uc, rv::kRamBase, ram.data(), ram.size()), "uc_mem_write");
  check(unicorn().mmio_map(uc, rv::kNicBase, rv::kNicBytes, &Rv32Hooks::read, this, &Rv32Hooks::write, this), "uc_mmio_map");
  uc_hook h;
  check(unicorn().hook_add(uc, &h, UC_HOOK_CODE, reinterpret_cast<void*>(&Rv32Hooks::code), this, 1, 0), "code hook");
  check(unicorn().hook_add(uc, &h, UC_HOOK_INTR, reinterpret_cast<void*>(&Rv32Hooks::intr), this, 1, 0), "exception hook");
  check(unicorn().hook_add(uc, &h, UC_HOOK_MEM_UNMAPPED, reinterpret_cast<void*>(&Rv32Hooks::unmapped), this, 1, 0),
        "unmapped-access hook");
  const uint32_t sp = rv::kRamBase + ram_bytes, a0 = boot_addr;
  check(unicorn().reg_write(uc, UC_RISCV_REG_SP, &sp), "sp");
  check(unicorn().reg_write(uc, UC_RISCV_REG_A0, &a0), "a0");
  m_pc = fw.entry();
}

Rv32Core::~Rv32Core() {
  if (m_uc) unicorn().close(m_uc);
}

uint64_t Rv32Core::core_at(uint64_t net) const {
  const uint64_t n = uint64_t(m_cfg.clock_num), d = uint64_t(m_cfg.clock_den);
  return (net * n + d - 1) / d;
}

uint64_t Rv32Core::net_of(uint64_t core) const { return core * uint64_t(m_cfg.clock_den) / uint64_t(m_cfg.clock_num); }

void Rv32Core::set_state(CoreState s) {
  if (state.read() != uint8_t(s)) state.write(uint8_t(s));
}

void Rv32Core::fail(const std::string& what) {
  if (m_fault.empty()) m_fault = fmt::format("node {} ({}): {} at PC 0x{:08x}", m_node, name(), what, m_insn_pc);
  unicorn().emu_stop(m_uc);
}

void Rv32Core::on_insn(uint32_t addr) {
  if (m_cycle >= m_limit) {  // the slice is over: this instruction starts in a later network cycle
    unicorn().emu_stop(m_uc);
    return;
  }
  m_insn_pc = addr;
  m_insn_start = m_cycle;
  if (addr >= m_fw.text_end()) {
    fail("instruction fetch outside the program text");
    return;
  }
  const DecodedInsn& d = m_fw.at(addr);
  const uint64_t cost = uint64_t(m_cfg.cpi[size_t(d.cls)]);
  m_cycle += cost;
  m_stats.busy += cost;
  ++m_stats.instructions;
  ++m_path_insns;
  if (d.action == InsnAction::None) return;
  if (d.action == InsnAction::Wfi) {
    m_wfi = true;  // Unicorn ends the slice after it
    return;
  }
  // A counter read: the model's counters, not the host's clock (the instruction is skipped).
  const uint64_t v = d.action == InsnAction::CycleLo || d.action == InsnAction::CycleHi ? m_insn_start
                                                                                          : m_stats.instructions - 1;
  const uint32_t word = d.action == InsnAction::CycleHi || d.action == InsnAction::InstretHi ? uint32_t(v >> 32) : uint32_t(v);
  if (d.rd) unicorn().reg_write(m_uc, UC_RISCV_REG_X0 + d.rd, &word);
  const uint32_t next = addr + d.bytes;
  unicorn().reg_write(m_uc, UC_RISCV_REG_PC, &next);
}

bool Rv32Core::transport(tlm::tlm_command cmd, uint32_t addr, unsigned char* data, unsigned len, uint64_t* held) {
  const uint64_t at = net_of(m_insn_start);
  tlm::tlm_generic_payload trans;
  trans.set_command(cmd);
  trans.set_address(addr);
  trans.set_data_ptr(data);
  trans.set_data_length(len);
  trans.set_streaming_width(len);
  trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_core::sc_time delay = cycle_time() * double(at - m_sync);
  const sc_core::sc_time before = delay;
  socket->b_transport(trans, delay);
  if (trans.is_response_error()) {
    fail(fmt::format("bus error: the NIC answered {} to a {}-byte {} of register 0x{:x}", trans.get_response_string(),
                     len, cmd == tlm::TLM_READ_COMMAND ? "read" : "write", addr));
    return false;
  }
  // The transaction's annotated delay stalls the core (a send waits for the NIC to take it).
  const uint64_t extra = uint64_t((delay - before) / cycle_time() + 0.5);
  if (held) *held = extra;
  if (extra) {
    const uint64_t resume = core_at(at + extra);
    if (resume > m_cycle) {
      m_stats.wait += resume - m_cycle;
      m_cycle = resume;
    }
  }
  return true;
}

uint64_t Rv32Core::mmio_read(uint32_t off, unsigned size) {
  if (size != 4 || (off & 3)) {
    fail(fmt::format("bus error: {}-byte load from NIC offset 0x{:x} (32-bit aligned accesses only)", size, off));
    return 0;
  }
  if (off == rv::kNicRxCount) {
    uint32_t n = 0;
    transport(tlm::TLM_READ_COMMAND, uint32_t(nic_reg::kRxCount), reinterpret_cast<unsigned char*>(&n), 4);
    return n;
  }
  if (off == rv::kNicRxPop) {
    if (!transport(tlm::TLM_READ_COMMAND, uint32_t(nic_reg::kRxPop), m_rx, RxDescriptor::kBytes)) return 0;
    const sw::Delivery d = RxDescriptor::unpack(m_rx).d;
    const uint64_t now = net_of(m_insn_start);
    if (m_first_receive == ~uint64_t(0)) m_first_receive = now;
    m_stats.recv_step.push_back(d.tag);
    m_stats.recv_insns.push_back(uint32_t(m_path_insns));
    m_stats.recv_cycles.push_back(now - d.arrival);
    m_path_insns = 0;
    m_path_from = now;
    m_path_boot = false;
    if (m_observer) m_observer->on_core_receive(m_node, d, now);
  }
  if (off >= rv::kNicRxPop && off < rv::kNicRxPop + RxDescriptor::kBytes) {
    uint32_t w;
    std::memcpy(&w, m_rx + (off - rv::kNicRxPop), 4);
    return w;
  }
  fail(fmt::format("bus error: load from NIC offset 0x{:x}, which is not readable", off));
  return 0;
}

void Rv32Core::mmio_write(uint32_t off, unsigned size, uint64_t value) {
  if (size != 4 || (off & 3)) {
    fail(fmt::format("bus error: {}-byte store to NIC offset 0x{:x} (32-bit aligned accesses only)", size, off));
    return;
  }
  if (off >= rv::kNicTx && off < rv::kNicTx + TxDescriptor::kBytes) {
    m_tx[(off - rv::kNicTx) / 4] = uint32_t(value);
    if (off != rv::kNicTx + 12) return;  // write-combined until the last word
    unsigned char desc[TxDescriptor::kBytes];
    TxDescriptor{m_tx[0], m_tx[1], m_tx[2], m_tx[3]}.pack(desc);
    uint64_t held = 0;
    if (!transport(tlm::TLM_WRITE_COMMAND, uint32_t(nic_reg::kTx), desc, sizeof desc, &held)) return;
    // The send's path ends when the NIC releases the core: its t_s (nic.ts, after the NIC's
    // previous one) belongs to this send, not to the node's next event.
    const uint64_t done = net_of(m_insn_start) + held;
    m_stats.send_step.push_back(m_tx[2]);
    m_stats.send_insns.push_back(uint32_t(m_path_insns));
    m_stats.send_cycles.push_back(done - m_path_from);
    m_stats.send_after_boot.push_back(m_path_boot);
    m_path_insns = 0;
    m_path_from = done;
    m_path_boot = false;
    if (m_observer) m_observer->on_core_send(m_node, int(m_tx[0]), m_tx[2]);
    return;
  }
  fail(fmt::format("bus error: store to NIC offset 0x{:x}, which is not writable", off));
}

void Rv32Core::run() {
  if (!m_uc) {
    set_state(CoreState::Halted);
    m_idle = true;
    return;
  }
  for (;;) {
    const uint64_t t = current_cycle();
    const uint64_t at = net_of(m_cycle);
    if (at > t) {  // the core is ahead of the kernel (end of a slice, or a stall): synchronise
      wait(cycle_time() * double(at - t));
      continue;
    }
    if (m_sleeping) {
      if (!m_nic.has_rx(t)) {
        set_state(CoreState::Idle);
        m_idle = true;
        const uint64_t next = m_nic.next_rx_visible();
        if (next != ~uint64_t(0)) wait(cycle_time() * double(next - t));
        else wait(m_nic.rx_event());
        continue;
      }
      // The interrupt line is high: wfi ends, the core resumes at its first cycle in network cycle t.
      m_idle = m_sleeping = false;
      const uint64_t c = core_at(t);
      if (c > m_cycle) {
        m_stats.idle += c - m_cycle;
        m_cycle = c;
      }
      m_path_insns = 0;
      m_path_from = t;
      m_path_boot = false;
      continue;
    }
    m_sync = t;
    m_limit = core_at(t + uint64_t(m_cfg.quantum));
    const uint64_t wait_before = m_stats.wait;
    set_state(CoreState::Busy);
    const uint64_t started = m_cycle;
    const uc_err e = unicorn().emu_start(m_uc, m_pc, rv::kNicBase, 0, 0);
    unicorn().reg_read(m_uc, UC_RISCV_REG_PC, &m_pc);
    if (m_fault.empty() && e != UC_ERR_OK) fail(std::string("emulation stopped: ") + unicorn().strerror(e));
    if (m_fault.empty() && !m_wfi && m_cycle < m_limit && m_cycle == started)
      fail("emulation made no progress");
    pc.write(m_pc);
    if (!m_fault.empty()) {
      set_state(CoreState::Halted);
      m_idle = true;
      return;
    }
    if (m_stats.wait != wait_before) set_state(CoreState::Wait);
    if (m_wfi) {
      m_wfi = false;
      m_sleeping = true;
    }
  }
}

CoreStats Rv32Core::stats(uint64_t end) const {
  CoreStats s = m_stats;
  if (m_uc && m_sleeping && m_fault.empty()) {
    const uint64_t c = core_at(end);
    if (c > m_cycle) s.idle += c - m_cycle;
  }
  return s;
}

}  // namespace wormcast
