// Fuzz target of the input layer. The first byte picks the input: odd, a command line (one
// argument per line after `wormcast`); even, a YAML configuration, written to a file and given to
// `wormcast run FILE` (bit 1 clear) or `wormcast config --check --config FILE` (bit 1 set), so
// that every family's keys (net.family torus, mway, ibt, ...) are read and checked.
//
// Both go through the program's own command path (run_commands_registering: the named command,
// every option check, the actions) in a dry run (tb/run/dry_run.h): each command checks its
// command line and its configuration and plans its outputs, then ends where its simulation,
// search or first written output would start; schedules and step models are computed only for
// networks of at most kDryRunMaxNodes nodes, so that one execution stays in the milliseconds.
//
// A finding: a crash or a sanitizer report, a hang (libFuzzer's -timeout), an exception escaping
// the command path (a user error must end as exit 2 with one line), and an exit code outside
// docs/reference.md's table (0..5; 128 + N is a signal, which no dry run receives). Each aborts here, naming
// what happened.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fstream>
#include <iostream>
#include <streambuf>
#include <string>
#include <vector>

#include <fcntl.h>

#include "tb/cli/command_table.h"
#include "tb/cli/commands.h"
#include "tb/run/dry_run.h"

namespace {

/// Swallows what the commands print (help texts, error lines); WORMCAST_FUZZ_VERBOSE=1 keeps it.
struct NullBuffer : std::streambuf {
  int overflow(int c) override { return c == EOF ? 0 : c; }
  std::streamsize xsputn(const char*, std::streamsize n) override { return n; }
};

NullBuffer g_null;
std::string g_dir;  ///< the scratch directory the commands run in

/// An argument the harness does not pass on: paths outside the scratch directory (absolute ones
/// other than under /nonexistent, and `..`), so that no input reads a device or a large file or
/// plans an output elsewhere.
bool outside(const std::string& a) {
  if (a.find("..") != std::string::npos) return true;
  if (a.find("/dev/") != std::string::npos || a.find("/proc/") != std::string::npos ||
      a.find("/sys/") != std::string::npos)
    return true;
  // A value may carry a path after '=' (--router-vcd r_0_0=FILE, --set KEY=VALUE).
  size_t at = 0;
  for (;;) {
    if (a[at] == '/' && a.compare(at, 12, "/nonexistent") != 0) return true;
    at = a.find('=', at);
    if (at == std::string::npos || ++at >= a.size()) return false;
  }
}

void run(const std::vector<std::string>& args) {
  std::vector<const char*> argv;
  for (auto& a : args) argv.push_back(a.c_str());
  argv.push_back(nullptr);
  int rc = 0;
  try {
    rc = wormcast::run_commands_registering(int(args.size()), argv.data(), true);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fuzz_input: an exception escaped the command path: %s\n", e.what());
    std::abort();
  } catch (const wormcast::DryRunStop&) {
    std::fprintf(stderr, "fuzz_input: a dry-run stop escaped its command\n");
    std::abort();
  } catch (...) {
    std::fprintf(stderr, "fuzz_input: an exception of unknown type escaped the command path\n");
    std::abort();
  }
  // docs/reference.md's exit-code table: 0..5 from the program itself (128 + N only from a signal).
  if (rc < 0 || rc > 5) {
    std::fprintf(stderr, "fuzz_input: exit code %d is not in docs/reference.md's table\n", rc);
    std::abort();
  }
  std::cout.clear();
  std::cerr.clear();
}

void fuzz_cli(const std::string& text) {
  std::vector<std::string> args{"wormcast"};
  std::string cur;
  for (char c : text) {
    if (c == '\n') {
      args.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  args.push_back(cur);
  if (args.size() > 40) return;
  for (size_t i = 1; i < args.size(); ++i)
    if (outside(args[i])) return;
  run(args);
}

void fuzz_yaml(const std::string& text, bool check) {
  {
    std::ofstream f("fuzz.yaml", std::ios::binary | std::ios::trunc);
    f << text;
    if (!f) {
      std::fprintf(stderr, "fuzz_input: cannot write %s/fuzz.yaml\n", g_dir.c_str());
      std::abort();
    }
  }
  if (check)
    run({"wormcast", "config", "--check", "--config", "fuzz.yaml"});
  else
    run({"wormcast", "run", "fuzz.yaml", "--json", "out.json"});
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  // The fuzzer's own paths (corpus directories, inputs to replay, artifact and dictionary
  // options) made absolute first: the commands run in a scratch directory.
  char cwd[4096];
  if (!getcwd(cwd, sizeof cwd)) {
    std::perror("fuzz_input: getcwd");
    std::abort();
  }
  const auto absolute = [&cwd](const std::string& path) {
    return path.empty() || path[0] == '/' ? path : std::string(cwd) + "/" + path;
  };
  for (int i = 1; i < *argc; ++i) {
    const std::string a = (*argv)[i];
    std::string fixed = a;
    if (a[0] != '-') {
      fixed = absolute(a);
    } else {
      for (const char* flag : {"-artifact_prefix=", "-exact_artifact_path=", "-dict=", "-seed_inputs="}) {
        const std::string f = flag;
        if (a.compare(0, f.size(), f) == 0) fixed = f + absolute(a.substr(f.size()));
      }
    }
    if (fixed != a) (*argv)[i] = strdup(fixed.c_str());
  }
  char dir[] = "/tmp/wormcast-fuzz.XXXXXX";
  if (!mkdtemp(dir) || chdir(dir) != 0) {
    std::perror("fuzz_input: scratch directory");
    std::abort();
  }
  g_dir = dir;
  // Standard input reads nothing (a configuration named '-' or /dev/stdin never waits).
  const int null_fd = open("/dev/null", O_RDONLY);
  if (null_fd >= 0) dup2(null_fd, 0);
  const char* verbose = std::getenv("WORMCAST_FUZZ_VERBOSE");
  if (!verbose || std::string(verbose) != "1") {
    std::cout.rdbuf(&g_null);
    std::cerr.rdbuf(&g_null);
  }
  wormcast::set_dry_run(true);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (data[0] & 1)
    fuzz_cli(text);
  else
    fuzz_yaml(text, data[0] & 2);
  return 0;
}

// libsystemc refers to sc_main; the fuzzer's own main runs instead.
int sc_main(int, char**) { return 0; }
