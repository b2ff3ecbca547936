// The RV32 node processor: the node firmware on a Unicorn RV32IMAC instruction-set model, its
// loads and stores to the NIC window issued as TLM-2.0 transactions on the NIC's socket, its time
// kept in core cycles (node.cpu_cpi per instruction class, node.cpu_clock_ratio to the network
// clock) and synchronised with the kernel by a quantum keeper (node.cpu_quantum; 1 is exact).
// docs/cpu.md is the contract.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "sw/hal/node_api.h"
#include "systemc/common/config.h"
#include "systemc/cpu/firmware.h"
#include "systemc/nic/nic.h"

struct uc_struct;

namespace wormcast {

/// What a core is doing, as traced: 0 busy (executing), 1 waiting for the NIC (a transaction's
/// annotated delay), 2 idle (asleep in wfi), 3 halted (no program, or a fault).
enum class CoreState : uint8_t { Busy = 0, Wait = 1, Idle = 2, Halted = 3 };

/// One node's software cost, measured.
struct CoreStats {
  uint64_t instructions = 0;
  uint64_t busy = 0, wait = 0, idle = 0;  ///< core cycles
  /// Per send in order: its step (tag), the instructions and network cycles since the previous
  /// NIC event (reset, wake-up, pop or send), and whether that event was the reset (boot).
  std::vector<uint32_t> send_step, send_insns;
  std::vector<uint64_t> send_cycles;
  std::vector<bool> send_after_boot;
  /// Per delivery in order: its step, the instructions since the previous event to its pop, and
  /// the network cycles from its arrival at the NIC to the pop (the receive path's latency).
  std::vector<uint32_t> recv_step, recv_insns;
  std::vector<uint64_t> recv_cycles;
};

/// Told about every send and pop the firmware makes (a gossip watch), with the network cycle.
class CoreObserver {
 public:
  virtual void on_core_send(int node, int dst, uint32_t tag) = 0;
  virtual void on_core_receive(int node, const sw::Delivery& d, uint64_t now) = 0;

 protected:
  ~CoreObserver() = default;
};

class Rv32Core : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<Rv32Core> socket{"socket"};
  sc_core::sc_signal<bool> irq{"irq"};         ///< the NIC's receive interrupt line
  sc_core::sc_signal<uint32_t> pc{"pc"};       ///< at the end of each executed slice
  sc_core::sc_signal<uint8_t> state{"state"};  ///< CoreState

  /// ram: the node's RAM image (FirmwareImage::node_ram), empty for a node without a program.
  Rv32Core(sc_core::sc_module_name name, int node, Nic& nic, const FirmwareImage& fw, const NodeConfig& cfg,
           std::vector<uint8_t> ram, uint32_t boot_addr, CoreObserver* observer = nullptr);
  ~Rv32Core() override;

  /// Asleep with nothing visible, or halted: the program has nothing to do for now.
  bool idle() const { return m_idle; }
  /// A fault stopped the core: "node N (name): <what> at PC 0x...". Empty: none.
  const std::string& fault() const { return m_fault; }
  uint64_t first_receive() const { return m_first_receive; }
  /// The statistics, with the idle cycles counted up to network cycle `end`.
  CoreStats stats(uint64_t end) const;

 private:
  friend struct Rv32Hooks;
  void run();
  uint64_t core_at(uint64_t net) const;   ///< first core cycle that starts in network cycle >= net
  uint64_t net_of(uint64_t core) const;   ///< network cycle in which core cycle `core` starts
  void on_insn(uint32_t addr);
  uint64_t mmio_read(uint32_t offset, unsigned size);
  void mmio_write(uint32_t offset, unsigned size, uint64_t value);
  /// One TLM transaction at the current instruction's time; false (and a fault) on an error.
  /// held: the network cycles the NIC's annotated delay holds the core (a send: until its t_s is over).
  bool transport(tlm::tlm_command cmd, uint32_t addr, unsigned char* data, unsigned len, uint64_t* held = nullptr);
  void fail(const std::string& what);
  void set_state(CoreState s);

  int m_node;
  Nic& m_nic;
  const FirmwareImage& m_fw;
  NodeConfig m_cfg;
  CoreObserver* m_observer;
  uc_struct* m_uc = nullptr;
  uint32_t m_pc = 0;
  uint64_t m_cycle = 0;       ///< core cycle at which the next instruction starts
  uint64_t m_limit = 0;       ///< the slice ends before the instruction starting at this core cycle
  uint64_t m_sync = 0;        ///< network cycle of the kernel while a slice runs
  uint64_t m_insn_start = 0;  ///< core cycle of the executing instruction
  uint32_t m_insn_pc = 0;
  bool m_wfi = false, m_sleeping = false, m_idle = false;
  std::string m_fault;
  uint32_t m_tx[4] = {0, 0, 0, 0};
  unsigned char m_rx[RxDescriptor::kBytes] = {};
  uint64_t m_first_receive = ~uint64_t(0);
  // Path accounting (CoreStats): instructions and the network cycle since the last NIC event.
  uint64_t m_path_insns = 0, m_path_from = 0;
  bool m_path_boot = true;
  CoreStats m_stats;
};

}  // namespace wormcast
