// The RV32 node processor (node.cpu = rv32, docs/cpu.md): the firmware delivers the same messages
// to the same nodes in the same per-node send order as the native processor for every broadcast
// generator and for gossip; a single send is hand-counted from the firmware's disassembly; a slower
// core clock gives a larger latency; faults end the run with one line naming the node and the PC.
// Each comparison runs the two models in two child processes (SystemC elaborates once per process).
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <fstream>
#include <map>
#include <sstream>
#include <tuple>

#include <catch2/catch.hpp>

#include "sw/broadcast/broadcast.h"
#include "sw/gossip/gossip.h"
#include "sw/gossip/gossip_run.h"
#include "sw/schedule/program_image.h"
#include "systemc/cpu/firmware.h"
#include "systemc/cpu/rv32_core.h"
#include "tb/run/programs.h"
#include "tests/sc/harness.h"

using namespace wormcast;

namespace {

/// Without the cross-compiled firmware (no riscv64-unknown-elf-g++ at configure time) every case
/// is skipped: exit 77 (ctest SKIP_RETURN_CODE).
void require_firmware() {
  if (!FirmwareImage::builtin().available()) {
    std::fprintf(stderr, "SKIPPED: this build has no RV32 node firmware\n");
    std::exit(77);
  }
}

/// Runs `body` in a child process and returns what it printed to the pipe; the child's failure
/// (a failed REQUIRE, a crash) fails the test.
std::string in_child(const std::function<std::string()>& body) {
  int fd[2];
  REQUIRE(pipe(fd) == 0);
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    close(fd[0]);
    std::string out;
    int code = 0;
    try {
      out = body();
    } catch (const std::exception& e) {
      out = std::string("exception: ") + e.what();
      code = 3;
    }
    size_t done = 0;
    while (done < out.size()) {
      const ssize_t w = write(fd[1], out.data() + done, out.size() - done);
      if (w <= 0) break;
      done += size_t(w);
    }
    close(fd[1]);
    _exit(code);
  }
  close(fd[1]);
  std::string out;
  char buf[65536];
  for (ssize_t r; (r = read(fd[0], buf, sizeof buf)) > 0;) out.append(buf, size_t(r));
  close(fd[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  INFO(out.substr(0, 400));
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);
  return out;
}

struct Summary {
  std::string deliveries;  ///< per node: the (src, tag) pairs it received, sorted
  std::string send_order;  ///< per source: (dst, tag) in the order its NIC took them
  uint64_t latency = 0;    ///< largest first receive
  std::string cpu;         ///< rv32: the core report
};

Summary parse(const std::string& text) {
  std::istringstream in(text);
  Summary s;
  std::string line;
  std::getline(in, s.deliveries);
  std::getline(in, s.send_order);
  in >> s.latency;
  std::getline(in, line);
  std::getline(in, s.cpu);
  return s;
}

/// One run of `sched` as node programs; prints deliveries, send order, latency and the core report.
std::string run_schedule(const sw::Schedule& sched, const std::string& radix, const std::string& cpu, uint32_t len,
                         const std::string& ratio = "1", const std::string& quantum = "1") {
  const Config cfg = test::config_for(radix, "torus",
                                      {{"router.vcs_per_class", "2"}, {"nic.max_packet", "4096"},
                                       {"node.cpu", cpu}, {"node.cpu_clock_ratio", ratio},
                                       {"node.cpu_quantum", quantum}});
  const sw::Topology t = cfg.net.topology();
  const sw::ProgramImage image(sched);
  auto programs = image.make_programs(len);
  std::vector<sw::NodeProgram*> ptrs;
  for (auto& p : programs) ptrs.push_back(&p);
  const bool gossip = sched.collective == sw::Collective::Gossip;
  std::unique_ptr<sw::GossipRunWatch> watch;
  struct WatchObserver final : CoreObserver {
    sw::GossipRunWatch* w = nullptr;
    void on_core_send(int node, int dst, uint32_t tag) override { if (w) w->on_send(node, dst, tag); }
    void on_core_receive(int node, const sw::Delivery& d, uint64_t now) override { if (w) w->on_receive(node, d, now); }
  } observer;
  if (gossip) {
    watch = std::make_unique<sw::GossipRunWatch>(sched, ptrs);
    ptrs = watch->programs();
    observer.w = watch.get();
  }
  FirmwareTables fw;
  for (int i = 0; i < t.num_nodes(); ++i) fw.tables.push_back(image.table(i));
  fw.length = len;
  fw.observer = &observer;
  ProgramRunOptions po;
  po.firmware = &fw;
  po.max_cycles = 2000000;
  const ProgramRun run = run_programs(cfg, ptrs, po);
  REQUIRE(run.status == RunStatus::Ok);
  REQUIRE(run.errors.empty());  // the scoreboard: no flit lost, duplicated, reordered or misdelivered
  if (gossip) {
    const sw::GossipRunReport rep = watch->report();
    INFO((rep.errors.empty() ? "" : rep.errors[0]));
    REQUIRE(rep.ok());  // every unicast received exactly once, every node holds every chunk
  } else {
    for (int i = 0; i < t.num_nodes(); ++i) REQUIRE(run.deliveries[size_t(i)] == (i == sched.source ? 0u : 1u));
  }
  std::map<int, std::vector<std::pair<int, uint32_t>>> got;
  std::map<int, std::vector<std::tuple<uint64_t, int, uint32_t>>> sent;
  uint64_t latency = 0;
  for (const MessageTiming& m : run.messages) {
    got[m.dst].emplace_back(m.src, m.tag);
    sent[m.src].emplace_back(m.message, m.dst, m.tag);
  }
  for (uint64_t v : run.first_visible)
    if (v != ~uint64_t(0)) latency = std::max(latency, v);
  std::ostringstream out;
  for (auto& [node, v] : got) {
    std::sort(v.begin(), v.end());
    out << node << ":";
    for (auto& [src, tag] : v) out << src << "/" << tag << ",";
    out << ";";
  }
  out << "\n";
  for (auto& [node, v] : sent) {
    std::sort(v.begin(), v.end());
    out << node << ":";
    for (auto& [seq, dst, tag] : v) out << dst << "/" << tag << ",";
    out << ";";
  }
  out << "\n" << latency << "\n" << (run.cpu.is_null() ? "null" : run.cpu.dump()) << "\n";
  return out.str();
}

sw::Schedule broadcast(const std::string& algo, const std::string& radix, int source) {
  const Config cfg = test::config_for(radix, "torus", {});
  return sw::generate_broadcast(sw::parse_algo(algo), cfg.net.topology(), source);
}

void same_as_native(const sw::Schedule& s, const std::string& radix, uint32_t len) {
  require_firmware();
  const Summary native = parse(in_child([&] { return run_schedule(s, radix, "native", len); }));
  const Summary rv32 = parse(in_child([&] { return run_schedule(s, radix, "rv32", len); }));
  REQUIRE(!native.deliveries.empty());
  CHECK(rv32.deliveries == native.deliveries);
  CHECK(rv32.send_order == native.send_order);
  CHECK(native.cpu == "null");
  const nlohmann::json cpu = nlohmann::json::parse(rv32.cpu);
  CHECK(cpu["instructions"].get<uint64_t>() > 0);
  // The software's cost shows in the latency: the cores take time that the native t_s = t_r = 0 does not.
  CHECK(rv32.latency > native.latency);
}

}  // namespace

TEST_CASE("rv32: DCF on 4x4 delivers what native delivers, in the same send order", "[sc]") {
  same_as_native(broadcast("dcf", "4x4", 0), "4x4", 8);
}
TEST_CASE("rv32: EDN on 4x4 delivers what native delivers, in the same send order", "[sc]") {
  same_as_native(broadcast("edn", "4x4", 5), "4x4", 8);
}
TEST_CASE("rv32: Tseng on 5x5 delivers what native delivers, in the same send order", "[sc]") {
  same_as_native(broadcast("tseng", "5x5", 3), "5x5", 8);
}
TEST_CASE("rv32: Wang-Tseng on 3x3x3 delivers what native delivers, in the same send order", "[sc]") {
  same_as_native(broadcast("wang-tseng", "3x3x3", 0), "3x3x3", 4);
}
TEST_CASE("rv32: recursive doubling on 4x4x2 delivers what native delivers, in the same send order", "[sc]") {
  same_as_native(broadcast("rd", "4x4x2", 7), "4x4x2", 4);
}
TEST_CASE("rv32: sequential on 6 nodes delivers what native delivers, in the same send order", "[sc]") {
  same_as_native(broadcast("sequential", "6", 2), "6", 4);
}
TEST_CASE("rv32: TORGOS gossip on 9x9 delivers what native delivers, in the same send order", "[sc]") {
  const Config cfg = test::config_for("9x9", "torus", {});
  sw::GossipSpec spec{sw::GossipAlgo::Torgos, true, {}, sw::CircParams::from_ab(3, 1)};
  same_as_native(sw::generate_gossip(cfg.net.topology(), spec).schedule, "9x9", 16);
}

TEST_CASE("rv32: a slower core clock gives a larger broadcast latency, a faster one a smaller", "[sc]") {
  require_firmware();
  const sw::Schedule s = broadcast("dcf", "4x4", 0);
  const Summary half = parse(in_child([&] { return run_schedule(s, "4x4", "rv32", 8, "0.5"); }));
  const Summary one = parse(in_child([&] { return run_schedule(s, "4x4", "rv32", 8, "1"); }));
  const Summary two = parse(in_child([&] { return run_schedule(s, "4x4", "rv32", 8, "2"); }));
  CHECK(half.deliveries == one.deliveries);
  CHECK(two.deliveries == one.deliveries);
  CHECK(half.latency > one.latency);
  CHECK(one.latency > two.latency);
  // Same instructions at every clock: the program does not depend on time.
  const auto insns = [](const Summary& x) { return nlohmann::json::parse(x.cpu)["instructions"].get<uint64_t>(); };
  CHECK(insns(half) == insns(one));
  CHECK(insns(two) == insns(one));
}

TEST_CASE("rv32: a larger quantum delivers the same messages (its timing error is measured in docs/cpu.md)", "[sc]") {
  require_firmware();
  const sw::Schedule s = broadcast("dcf", "4x4", 0);
  const Summary exact = parse(in_child([&] { return run_schedule(s, "4x4", "rv32", 8, "1", "1"); }));
  const Summary loose = parse(in_child([&] { return run_schedule(s, "4x4", "rv32", 8, "1", "16"); }));
  CHECK(loose.deliveries == exact.deliveries);
  CHECK(loose.send_order == exact.send_order);
  CHECK(loose.latency >= exact.latency);
}

namespace {

/// Node 0 runs `code` (from address 0) on a 2x2 torus, the other nodes nothing.
ProgramRun run_code(const std::vector<uint32_t>& code, uint64_t max_cycles = 100000) {
  const Config cfg = test::config_for("2x2", "torus", {{"node.cpu", "rv32"}});
  const FirmwareImage image = FirmwareImage::from_code(code);
  sw::ScheduleProgram program;  // marks node 0 as running; the firmware is `code`
  std::vector<sw::NodeProgram*> ptrs{&program, nullptr, nullptr, nullptr};
  FirmwareTables fw;
  fw.tables.assign(4, sw::NodeTable{});
  fw.image = &image;
  ProgramRunOptions po;
  po.firmware = &fw;
  po.max_cycles = max_cycles;
  return run_programs(cfg, ptrs, po);
}

std::string fault_line(const std::vector<uint32_t>& code) {
  return in_child([&] {
    const ProgramRun run = run_code(code);
    REQUIRE(run.status == RunStatus::SoftwareFault);
    REQUIRE(run.exit_code == 6);
    REQUIRE(run.errors.size() == 1);
    return run.errors[0];
  });
}

}  // namespace

TEST_CASE("rv32: an illegal instruction stops the run with one line naming the node and the PC", "[sc]") {
  require_firmware();
  const std::string line = fault_line({0x00000013 /* nop */, 0x00000000 /* illegal */});
  CHECK(line.rfind("node 0 (", 0) == 0);
  CHECK(line.find("illegal instruction") != std::string::npos);
  CHECK(line.find("at PC 0x00000004") != std::string::npos);
  CHECK(line.find('\n') == std::string::npos);
}

TEST_CASE("rv32: a load from a NIC offset that is no register is a bus error at its PC", "[sc]") {
  require_firmware();
  // lui t0, 0x40000; lw a0, 0x44(t0)
  const std::string line = fault_line({0x400002b7, 0x0442a503});
  CHECK(line.rfind("node 0 (", 0) == 0);
  CHECK(line.find("bus error: load from NIC offset 0x44") != std::string::npos);
  CHECK(line.find("at PC 0x00000004") != std::string::npos);
}

TEST_CASE("rv32: a load from an unmapped address is a bus error at its PC", "[sc]") {
  require_firmware();
  // nop; lui t0, 0x80000; lw a0, 0(t0)
  const std::string line = fault_line({0x00000013, 0x800002b7, 0x0002a503});
  CHECK(line.find("bus error: load from unmapped address 0x80000000") != std::string::npos);
  CHECK(line.find("at PC 0x00000008") != std::string::npos);
}

TEST_CASE("rv32: a send to a node that does not exist is the NIC's error response, a bus error", "[sc]") {
  require_firmware();
  // lui t0, 0x40000; addi a0, x0, 99; sw a0, 0(t0); addi a0, x0, 1; sw a0, 4(t0); sw a0, 8(t0); sw a0, 12(t0)
  const std::string line = fault_line({0x400002b7, 0x06300513, 0x00a2a023, 0x00100513, 0x00a2a223, 0x00a2a423, 0x00a2a623});
  CHECK(line.find("bus error: the NIC answered") != std::string::npos);
  CHECK(line.find("at PC 0x00000018") != std::string::npos);
}

TEST_CASE("rv32: a program that never sleeps ends at the cycle limit, not in a hang", "[sc]") {
  require_firmware();
  const std::string status = in_child([] {
    const ProgramRun run = run_code({0x0000006f /* j . */}, 5000);
    return std::string(status_name(run.status)) + " " + std::to_string(run.exit_code);
  });
  CHECK(status == "timeout 1");
}

TEST_CASE("rv32: a run's cycle limit leaves room for the cores' own work at their clock and CPI", "[sw]") {
  // Node 0 sends to 1, 2 and 3: its 3 sends, then one receipt at the node of the chain: 4 events.
  const sw::SendEntry sends[3] = {{1, 1, 0, 0}, {2, 1, 0, 0}, {3, 2, 0, 0}};
  std::vector<sw::NodeTable> tables(4);
  tables[0].sends = sends;
  tables[0].count = 3;
  const Config native = test::config_for("2x2", "torus");
  CHECK(rv32_room(native, tables) == 0);
  const Config clock1 = test::config_for("2x2", "torus", {{"node.cpu", "rv32"}});
  CHECK(rv32_room(clock1, tables) == 10000 + 1000 * 4);
  // 0.001 core cycles per network cycle and 1,000 cycles for a division: 10^6 network cycles per
  // instruction of the slowest class.
  const Config slow = test::config_for("2x2", "torus",
                                       {{"node.cpu", "rv32"}, {"node.cpu_clock_ratio", "0.001"}, {"node.cpu_cpi", "div:1000"}});
  CHECK(rv32_room(slow, tables) == uint64_t(14000) * 1000000);
  const Config fast = test::config_for("2x2", "torus", {{"node.cpu", "rv32"}, {"node.cpu_clock_ratio", "3"}});
  CHECK(rv32_room(fast, tables) == 14000);  // a third of a cycle per instruction, rounded up
  // A line 0 -> 1 -> 2 -> 3, each node forwarding: the work along the chain adds up (1 + 2 + 2 + 1
  // events), where the busiest node alone has 2.
  const sw::SendEntry to1[1] = {{1, 1, 0, 0}}, to2[1] = {{2, 1, 0, 0}}, to3[1] = {{3, 1, 0, 0}};
  std::vector<sw::NodeTable> line(4);
  line[0].sends = to1;
  line[1].sends = to2;
  line[2].sends = to3;
  line[0].count = line[1].count = line[2].count = 1;
  CHECK(rv32_room(clock1, line) == 10000 + 1000 * 6);
  // Sends that form a cycle without steps (0 and 1 send to each other): every node's events count
  // (2 + 2).
  const sw::SendEntry to0[1] = {{0, 1, 0, 0}};
  std::vector<sw::NodeTable> swap(2);
  swap[0].sends = to1;
  swap[1].sends = to0;
  swap[0].count = swap[1].count = 1;
  CHECK(rv32_room(clock1, swap) == 10000 + 1000 * 4);
  // A step-synchronous exchange (gossip's tables): in each of two steps nodes 0 and 1 send to each
  // other and receive one message; node 2 receives one in step 1 only. Per step the busiest node
  // has a send, a receipt and the step's entry (3): 6 in all, not the 13 of every node's events.
  const sw::SendEntry two_to1[2] = {{1, 0, 0, 0}, {1, 1, 0, 0}}, two_to0[2] = {{0, 0, 0, 0}, {0, 1, 0, 0}};
  const sw::ReceiptStep one_each[2] = {{0, 1}, {1, 1}}, late[1] = {{1, 1}};
  std::vector<sw::NodeTable> steps(3);
  steps[0].sends = two_to1;
  steps[1].sends = two_to0;
  steps[0].count = steps[1].count = 2;
  steps[0].receipts = steps[1].receipts = one_each;
  steps[0].receipt_steps = steps[1].receipt_steps = 2;
  steps[2].receipts = late;
  steps[2].receipt_steps = 1;
  CHECK(rv32_room(clock1, steps) == 10000 + 1000 * 6);
  // The limit: the default or four times the prediction plus a million, then the room.
  CHECK(program_cycle_limit(747) == ProgramRunOptions::kDefaultProgramLimit);
  CHECK(program_cycle_limit(747, 13000) == ProgramRunOptions::kDefaultProgramLimit + 13000);
  CHECK(program_cycle_limit(100000000, 5) == 401000005);
  CHECK(program_cycle_limit(~uint64_t(0) / 2, 5) == ~uint64_t(0));
  CHECK(program_cycle_limit(747, ~uint64_t(0) - 1) == ~uint64_t(0));
}

namespace {

/// The mnemonics of function `name` in the build's disassembly (build/firmware/node_rv32.dis).
std::vector<std::string> disassembled(const std::string& name) {
  std::ifstream in(WORMCAST_RV32_DISASSEMBLY);
  REQUIRE(in.good());
  std::vector<std::string> out;
  bool inside = false;
  for (std::string line; std::getline(in, line);) {
    if (line.find(">:") != std::string::npos) {
      inside = line.find("<" + name) != std::string::npos;
      continue;
    }
    const auto tab = line.find('\t');
    if (!inside || tab == std::string::npos) continue;
    std::istringstream words(line.substr(tab + 1));
    std::string m;
    words >> m;
    out.push_back(m);
  }
  return out;
}

}  // namespace

// Hand count, from build/firmware/node_rv32.dis at -O2 (gcc 12.2, rv32imac): node 0 of a 2-node
// ring sends one message to node 1 (the sequential broadcast). From reset to the store that
// commits the send the core executes
//   _start up to `jal run`: 13 (prologue, dims test) + 8 (loop set-up) + 7 (boot-record copy, one
//   dimension) + 39 (Topology's zeroed arrays and the dims test) + 4 + 11 (Topology's loop, one
//   dimension) + 31 (ScheduleProgram built, jal run)                                   = 113
//   ScheduleProgram::run up to `jalr` (entry test, prologue, broadcast trigger test, the
//   SendEntry's fields, no per-send lengths)                                           =  36
//   MmioApi::send up to the flags store (lui, 3 stores, 2 loads, the commit store)     =   7
// = 156 instructions, one core cycle each (CPI 1, clock ratio 1): the commit store starts in
// core cycle 155 = network cycle 155, the NIC takes the message then (nic.ts = 0) and injects it
// in that cycle, as the native processor's send at cycle 0 is injected at cycle 0.
TEST_CASE("rv32: one send to a neighbour costs the hand-counted 156 instructions and is injected at cycle 155", "[sc]") {
  require_firmware();
  // The disassembly the count was made from still holds: the send path's last function as counted.
  const std::vector<std::string> send = disassembled("(anonymous namespace)::MmioApi::send");
  REQUIRE(send == std::vector<std::string>{"lui", "sw", "sw", "lw", "lbu", "sw", "sw", "ret"});
  const sw::Schedule s = broadcast("sequential", "2", 0);
  REQUIRE(s.unicasts.size() == 1);
  const auto injected = [&](const std::string& cpu) {
    return in_child([&] {
      const Config cfg = test::config_for("2", "torus", {{"node.cpu", cpu}, {"nic.max_packet", "64"}});
      const sw::ProgramImage image(s);
      auto programs = image.make_programs(4);
      std::vector<sw::NodeProgram*> ptrs{&programs[0], &programs[1]};
      FirmwareTables fw;
      fw.tables = {image.table(0), image.table(1)};
      fw.length = 4;
      ProgramRunOptions po;
      po.firmware = &fw;
      const ProgramRun run = run_programs(cfg, ptrs, po);
      REQUIRE(run.status == RunStatus::Ok);
      REQUIRE(run.messages.size() == 1);
      std::string out = std::to_string(run.messages[0].injected);
      if (!run.cpu.is_null()) {
        const nlohmann::json& n0 = run.cpu["nodes"][0];
        out += " " + n0["send_path_instructions"].dump() + " " + n0["send_path_cycles"].dump();
      }
      return out;
    });
  };
  CHECK(injected("native") == "0");
  CHECK(injected("rv32") == "155 [156] [155]");
}

namespace {
/// Whether process pid is gone (or a zombie no one reaped) within about two seconds.
bool ends_soon(pid_t pid) {
  for (int i = 0; i < 200; ++i) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    if (!std::getline(stat, line)) return true;
    const size_t close = line.rfind(')');
    if (close != std::string::npos && close + 2 < line.size() && line[close + 2] == 'Z') return true;
    usleep(10000);
  }
  return false;
}
}  // namespace

TEST_CASE("rv32: the deferred native run dies with its parent, even while it runs", "[sw]") {
  // Process P makes a deferred run whose body reports its own pid and then runs for a minute; P
  // hands it the numbers and waits; P is killed: the deferred run must not run on.
  int fd[2];
  REQUIRE(pipe(fd) == 0);
  const pid_t p = fork();
  REQUIRE(p >= 0);
  if (p == 0) {
    close(fd[0]);
    DeferredRun twin([w = fd[1]](int64_t, int64_t) -> uint64_t {
      const pid_t self = getpid();
      if (write(w, &self, sizeof self) != ssize_t(sizeof self)) _exit(5);
      sleep(60);
      return 1;
    });
    uint64_t out = 0;
    twin.result(1, 2, out);
    _exit(0);
  }
  close(fd[1]);
  pid_t twin = -1;
  REQUIRE(read(fd[0], &twin, sizeof twin) == ssize_t(sizeof twin));
  close(fd[0]);
  REQUIRE(twin > 0);
  REQUIRE(kill(p, SIGKILL) == 0);
  int status = 0;
  waitpid(p, &status, 0);
  const bool ended = ends_soon(twin);
  if (!ended) kill(twin, SIGKILL);
  CHECK(ended);
}

TEST_CASE("rv32: a deferred native run that is gone gives no result, and no SIGPIPE", "[sw]") {
  // Process P kills its deferred run (its only child) before handing it the numbers: result() is
  // false and P goes on to exit 0, where a write to the gone child raised SIGPIPE.
  const pid_t p = fork();
  REQUIRE(p >= 0);
  if (p == 0) {
    DeferredRun twin([](int64_t, int64_t) -> uint64_t { return 1; });
    std::ifstream children("/proc/self/task/" + std::to_string(getpid()) + "/children");
    pid_t child = -1;
    if (!(children >> child) || kill(child, SIGKILL) != 0) _exit(4);
    int st = 0;
    waitpid(child, &st, 0);  // gone for certain before the numbers are sent
    uint64_t out = 0;
    _exit(twin.result(1, 2, out) ? 3 : 0);
  }
  int status = 0;
  REQUIRE(waitpid(p, &status, 0) == p);
  INFO("status " << status);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
}
