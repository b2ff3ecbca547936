// The on-demand build of Verilated models: key, lock, build in a temporary directory, check,
// atomic rename, load (tb/rtl/rtl_cache.h).
#include "tb/rtl/rtl_cache.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <pwd.h>
#include <signal.h>
#include <spawn.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstring>
#include <functional>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "systemc/common/config.h"
#include "tb/out/output_plan.h"


namespace wormcast {

/// The identity of the header snapshot this program was built with (generated/snapshot_id.cpp,
/// written by cmake/SnapshotHeaders.cmake).
extern const char* const kHeaderSnapshotId;

namespace fs = std::filesystem;

namespace {

// ---- where the sources are, and the build settings baked in by CMake (tb/rtl/CMakeLists.txt)

/// The RTL sources and the include root the plugin is compiled against: the source tree for a
/// program run from its build tree, the installed copies (share/wormcast/rtl, include/wormcast)
/// for an installed one.
struct SourceLayout {
  fs::path rtl;
  fs::path include;
};

std::string self_exe() {
  std::error_code ec;
  const fs::path p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string() : p.string();
}

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.size() >= prefix.size() && s.compare(0, prefix.size(), prefix) == 0;
}

std::string g_prefix;  // set_rtl_install_prefix

SourceLayout source_layout() {
  std::error_code ec;
  const fs::path source_rtl = fs::path(WORMCAST_SOURCE_DIR) / "rtl";
  const std::string exe = self_exe();
  // A program of the build tree: the tree's Verilog, and the snapshot of the headers it was built
  // from (cmake/SnapshotHeaders.cmake).
  if (starts_with(exe, std::string(WORMCAST_BINARY_DIR) + "/") && fs::exists(source_rtl / "files.f", ec))
    return {source_rtl, fs::path(WORMCAST_HEADER_SNAPSHOT)};
  // An installed one: the prefix its find_package() named, the prefix of bin/wormcast, the
  // configured prefix.
  std::vector<fs::path> prefixes;
  if (!g_prefix.empty()) prefixes.push_back(g_prefix);
  if (!exe.empty()) prefixes.push_back(fs::path(exe).parent_path().parent_path());
  prefixes.push_back(fs::path(WORMCAST_INSTALL_DATADIR).parent_path().parent_path());
  for (const fs::path& p : prefixes)
    if (fs::exists(p / "share/wormcast/rtl/files.f", ec) && fs::exists(p / "include/wormcast/tb/rtl", ec))
      return {p / "share/wormcast/rtl", p / "include/wormcast"};
  if (fs::exists(source_rtl / "files.f", ec)) return {source_rtl, fs::path(WORMCAST_HEADER_SNAPSHOT)};
  throw ConfigError(fmt::format("rtl: the Verilog sources are missing (no share/wormcast/rtl/files.f under the "
                                "installation, nor {}); allowed: an installed or built wormcast, or router.model = sc",
                                source_rtl.string()));
}

/// The headers a model is compiled against must be the ones this program was built with: a model of
/// other class layouts would load and misbehave. (A snapshot without its identity file, an older
/// installation, is taken as it is.)
void check_snapshot(const fs::path& include) {
  std::ifstream in(include / ".snapshot-id");
  std::string id;
  if (!in || !std::getline(in, id) || id == kHeaderSnapshotId) return;
  throw ConfigError(fmt::format("rtl: the headers in {} are not the ones this program was built with (its build "
                                "tree was rebuilt since, or the program was copied from another build); allowed: "
                                "the program of that build (rebuild it), or router.model = sc",
                                include.string()));
}

std::string env_or(const char* name, const std::string& def) {
  const char* v = std::getenv(name);
  return v && *v ? std::string(v) : def;
}

// ---- hashing (a cache key, not a signature: FNV-1a over 8-byte words, each step mixed further)

struct Hash {
  uint64_t h = 1469598103934665603ull;
  void add(const void* data, size_t n) {
    const auto* p = static_cast<const unsigned char*>(data);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
      uint64_t w;
      std::memcpy(&w, p + i, 8);
      h = (h ^ w) * 1099511628211ull;
      h ^= h >> 29;
    }
    for (; i < n; ++i) h = (h ^ p[i]) * 1099511628211ull;
  }
  void add(const std::string& s) {
    add(s.data(), s.size());
    add("\0", 1);
  }
  std::string hex() const { return fmt::format("{:016x}", h); }
};

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary | std::ios::ate);
  if (!in) return {};
  std::string s(size_t(std::max<std::streamoff>(0, in.tellg())), '\0');
  in.seekg(0);
  in.read(s.data(), std::streamsize(s.size()));
  s.resize(size_t(std::max<std::streamsize>(0, in.gcount())));
  return s;
}

/// The files under `root` whose names end in one of `ext`, by relative path and content.
std::string hash_tree(const fs::path& root, const std::vector<std::string>& sub, const std::vector<std::string>& ext) {
  std::vector<fs::path> files;
  for (const std::string& s : sub) {
    std::error_code ec;
    if (!fs::is_directory(root / s, ec)) continue;
    for (fs::recursive_directory_iterator it(root / s, ec), end; it != end && !ec; it.increment(ec)) {
      if (!it->is_regular_file()) continue;
      const std::string name = it->path().filename().string();
      for (const std::string& e : ext)
        if (name.size() > e.size() && name.compare(name.size() - e.size(), e.size(), e) == 0) files.push_back(it->path());
    }
  }
  std::sort(files.begin(), files.end());
  Hash h;
  const size_t prefix = root.string().size();
  for (const fs::path& f : files) {
    h.add(f.string().substr(prefix));
    h.add(read_file(f));
  }
  return fmt::format("{}:{}", files.size(), h.hex());
}

// ---- running the tools

/// Starts argv with standard input from /dev/null and standard output and error appended to
/// `log` (or, with `capture` >= 0, standard output into that file and standard error dropped);
/// its pid, or -1 when it could not start. The child leads a process group of its own, which the
/// interrupt handler stops (compiler driver, compiler and assembler alike) until it is waited for
/// (spawn_stoppable, tb/out/output_plan.h).
pid_t spawn(const std::vector<std::string>& argv, const std::string& log, int capture = -1) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  if (capture >= 0) {
    posix_spawn_file_actions_adddup2(&fa, capture, 1);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  } else {
    posix_spawn_file_actions_addopen(&fa, 1, log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
  }
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  const pid_t pid = spawn_stoppable(argv, &fa);
  posix_spawn_file_actions_destroy(&fa);
  return pid;
}

/// Runs argv (as spawn; with `out`, its standard output captured there); the exit status (127
/// when it could not start).
int run(const std::vector<std::string>& argv, const std::string& log, std::string* out = nullptr) {
  char tmpl[] = "/tmp/wormcast-rtl-out-XXXXXX";
  int capture = -1;
  if (out) {
    capture = mkstemp(tmpl);
    if (capture < 0) return 127;
  }
  const pid_t pid = spawn(argv, log, capture);
  const int status = pid > 0 ? wait_stoppable(pid) : -1;
  if (out) {
    *out = read_file(tmpl);
    close(capture);
    unlink(tmpl);
  }
  if (status < 0) return 127;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/// The first line of `s`, trimmed.
std::string first_line(const std::string& s) {
  std::string l = s.substr(0, s.find('\n'));
  while (!l.empty() && (l.back() == '\r' || l.back() == ' ')) l.pop_back();
  return l;
}

/// The executable `name` found on PATH (or `name` itself when it is a path to one); "" if none.
std::string which(const std::string& name) {
  if (name.find('/') != std::string::npos) return access(name.c_str(), X_OK) == 0 ? name : "";
  std::stringstream path(env_or("PATH", ""));
  for (std::string dir; std::getline(path, dir, ':');)
    if (!dir.empty() && access((fs::path(dir) / name).c_str(), X_OK) == 0) return (fs::path(dir) / name).string();
  return "";
}
bool on_path(const std::string& name) { return !which(name).empty(); }

/// The first line `prog --version` (or another query) prints, remembered in the cache directory
/// per program file (its path, size and change time): asking Verilator, a Perl program, costs a
/// run's start-up more than everything else.
std::string tool_version(const std::string& prog, const std::string& query) {
  struct stat st {};
  const std::string path = which(prog);
  std::string memo;
  if (!path.empty() && ::stat(path.c_str(), &st) == 0) {
    Hash h;
    h.add(fmt::format("{} {} {} {}.{}", path, query, uint64_t(st.st_size), int64_t(st.st_mtim.tv_sec),
                      int64_t(st.st_mtim.tv_nsec)));
    memo = (fs::path(rtl_cache_dir()) / "logs" / ("tool-" + h.hex())).string();
    const std::string known = first_line(read_file(memo));
    if (!known.empty()) return known;
  }
  std::string out;
  if (run({prog, query}, "", &out) != 0) return "";
  const std::string version = first_line(out);
  if (!memo.empty() && !version.empty()) {
    std::error_code ec;
    fs::create_directories(fs::path(memo).parent_path(), ec);
    const std::string tmp = memo + fmt::format(".{}", getpid());
    std::ofstream(tmp) << version << "\n";
    fs::rename(tmp, memo, ec);
  }
  return version;
}

/// The tools of a build: Verilator and the C++ compiler, with their versions and the flags.
struct Tools {
  std::string verilator, verilator_version, verilator_root;
  std::string cxx, cxx_version, cxxflags;
  std::string vflags;  ///< Verilator's options beyond the fixed ones
  int jobs = 1;
};

const Tools& tools() {
  static const Tools t = [] {
    Tools x;
    x.verilator = env_or("WORMCAST_VERILATOR", "verilator");
    if (!on_path(x.verilator))
      throw ConfigError(fmt::format(
          "rtl: the Verilog router needs Verilator, and '{}' is not on PATH; allowed: install it (Debian: "
          "sudo apt-get install verilator) or router.model = sc",
          x.verilator));
    x.verilator_version = tool_version(x.verilator, "--version");
    if (x.verilator_version.empty())
      throw ConfigError(fmt::format("rtl: '{} --version' failed; allowed: a working Verilator 5 on PATH, or "
                                    "router.model = sc", x.verilator));
    x.cxx = env_or("WORMCAST_RTL_CXX", WORMCAST_CXX);
    x.cxx_version = on_path(x.cxx) ? tool_version(x.cxx, "-dumpfullversion") : "";
    if (x.cxx_version.empty())
      throw ConfigError(fmt::format("rtl: the C++ compiler '{}' does not run; allowed: the compiler wormcast was "
                                    "built with, or WORMCAST_RTL_CXX naming another", x.cxx));
    x.cxxflags = env_or("WORMCAST_RTL_CXXFLAGS", WORMCAST_RTL_DEFAULT_CXXFLAGS);
    // The named assertions (--assert) cost the torus router about a quarter of its speed: they are
    // compiled in for verification (the lockstep programs and the tests set WORMCAST_RTL_ASSERT=1),
    // not by default for network runs, whose flits the scoreboard checks anyway.
    const std::string assert_on = env_or("WORMCAST_RTL_ASSERT", "0");
    if (assert_on != "0" && assert_on != "1")
      throw ConfigError(fmt::format("rtl: WORMCAST_RTL_ASSERT = '{}' is invalid; allowed: 0 or 1", assert_on));
    x.vflags = (assert_on == "1" ? "--assert " : "") + env_or("WORMCAST_RTL_VFLAGS", "");
    const long n = sysconf(_SC_NPROCESSORS_ONLN);
    x.jobs = int(std::max(1L, n));
    return x;
  }();
  return t;
}

std::string verilator_root() {
  static const std::string root = [] {
    std::string r = env_or("VERILATOR_ROOT", "");
    if (r.empty()) {
      std::string out;
      if (run({tools().verilator, "--getenv", "VERILATOR_ROOT"}, "", &out) == 0) r = first_line(out);
    }
    std::error_code ec;
    if (r.empty() || !fs::exists(fs::path(r) / "include" / "verilated.h", ec))
      throw ConfigError("rtl: Verilator's runtime headers (include/verilated.h under VERILATOR_ROOT) are missing; "
                        "allowed: a complete Verilator installation, or router.model = sc");
    return r;
  }();
  return root;
}

std::vector<std::string> split_flags(const std::string& s) {
  std::vector<std::string> v;
  std::istringstream in(s);
  for (std::string w; in >> w;) v.push_back(w);
  return v;
}

// ---- progress: a line that updates on a terminal, one line at the end when piped

class Progress {
 public:
  explicit Progress(std::string what) : m_what(std::move(what)), m_tty(isatty(2) != 0), m_start(now()) {}
  ~Progress() { clear(); }
  void step(const std::string& text) {
    if (!m_tty) return;
    std::cerr << fmt::format("\r\033[Kwormcast: building the RTL model {}: {} ({:.0f} s)", m_what, text,
                             now() - m_start)
              << std::flush;
    m_shown = true;
  }
  void clear() {
    if (m_shown) std::cerr << "\r\033[K" << std::flush;
    m_shown = false;
  }
  double seconds() const { return now() - m_start; }

 private:
  static double now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
  }
  std::string m_what;
  bool m_tty;
  double m_start;
  bool m_shown = false;
};

/// Runs the commands, at most `jobs` at a time; the index of the first that failed, or -1.
int run_all(const std::vector<std::vector<std::string>>& cmds, const std::string& log, int jobs, Progress& progress,
            const std::string& label) {
  size_t next = 0, done = 0;
  std::map<pid_t, size_t> running;
  int failed = -1;
  auto show = [&] { progress.step(fmt::format("{} {}/{}", label, done, cmds.size())); };
  show();
  while (done < cmds.size()) {
    while (failed < 0 && next < cmds.size() && int(running.size()) < jobs) {
      const pid_t pid = spawn(cmds[next], log);
      if (pid <= 0) {
        failed = int(next);
        ++next;
        ++done;
        continue;
      }
      running[pid] = next++;
    }
    if (running.empty()) break;
    int status = 0;
    const pid_t pid = waitpid(-1, &status, 0);
    if (pid < 0) {
      if (errno == EINTR) continue;
      break;
    }
    const auto it = running.find(pid);
    if (it == running.end()) continue;
    remove_interruptible_group(pid);  // waited for: the interrupt handler leaves its group alone
    const bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    if (!ok && failed < 0) failed = int(it->second);
    running.erase(it);
    ++done;
    show();
  }
  return failed;
}

// ---- entries

constexpr int kFormat = 3;  // 3: a model finds its runtime through $ORIGIN

/// The first line of a model's key and of the runtime's: the cache format (and, for a model, the
/// plugin interface this program loads).
std::string model_key_head() { return fmt::format("wormcast-rtl {} abi {}", kFormat, kRtlPluginAbi); }
std::string runtime_key_head() { return fmt::format("wormcast-rtl-runtime {}", kFormat); }

/// The lines of a model's key that this program's own files set, last in the key: the hashes of
/// the Verilog sources and of the harness headers a model is compiled against (hashed once).
struct SourceLines {
  std::string rtl, harness;
};
const SourceLines& source_lines() {
  static const SourceLines lines = [] {
    const SourceLayout src = source_layout();
    return SourceLines{"rtl " + hash_tree(src.rtl, {"."}, {".sv", ".svh", ".vlt", ".f"}),
                       "harness " + hash_tree(src.include, {"sw", "systemc", "tb"}, {".h"})};
  }();
  return lines;
}

/// Why this program never loads the entry of key `key` (a valid entry's record), or "" when it may:
/// a model built from other Verilog sources or harness headers, or for another plugin interface,
/// and a model or runtime built by another Verilator. (What the environment chooses, the compiler,
/// its flags and Verilator's options, is not held against an entry: another environment loads it.)
/// A part this program cannot work out (no sources, no Verilator) is not held against it either.
std::string stale_reason(const std::string& key) {
  std::vector<std::string> lines;
  for (size_t at = 0; at < key.size();) {
    const size_t end = key.find('\n', at);
    lines.push_back(key.substr(at, end == std::string::npos ? std::string::npos : end - at));
    at = end == std::string::npos ? key.size() : end + 1;
  }
  auto line = [&lines](const std::string& prefix) {
    for (const std::string& l : lines)
      if (starts_with(l, prefix)) return l;
    return std::string();
  };
  const bool runtime = !lines.empty() && starts_with(lines[0], "wormcast-rtl-runtime ");
  if (!runtime) {
    if (lines.empty() || lines[0] != model_key_head()) return "built for another plugin interface";
    try {
      if (line("rtl ") != source_lines().rtl) return "built from other Verilog sources";
      if (line("harness ") != source_lines().harness) return "built against other harness headers";
    } catch (const ConfigError&) {
    }
  }
  try {
    const std::string v = line("verilator ");
    const std::string want = "verilator " + tools().verilator_version;
    // A model's line goes on with Verilator's options: the version must end where they begin.
    if (!(starts_with(v, want) && (v.size() == want.size() || (!runtime && v[want.size()] == ' '))))
      return "built by another Verilator";
  } catch (const ConfigError&) {
  }
  return "";
}

/// The check a load makes: the record exists and names this key; the shared object has the size
/// and hash recorded when it was built. meta_out: the record as read (null when unreadable), also
/// when the entry fails the check.
bool entry_valid(const fs::path& dir, const std::string& key_text, nlohmann::json* meta_out = nullptr) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return false;
  nlohmann::json local;
  nlohmann::json& meta = meta_out ? *meta_out : local;
  try {
    meta = nlohmann::json::parse(read_file(dir / "meta.json"));
    if (meta.at("format").get<int>() != kFormat) return false;
    if (!key_text.empty() && meta.at("key").get<std::string>() != key_text) return false;
    const fs::path so = dir / meta.at("object").get<std::string>();
    const std::string bytes = read_file(so);
    if (bytes.size() != meta.at("bytes").get<uint64_t>()) return false;
    Hash h;
    h.add(bytes.data(), bytes.size());
    if (h.hex() != meta.at("hash").get<std::string>()) return false;
  } catch (const std::exception&) {
    return false;
  }
  return true;
}

/// An exclusive lock on `path` for the life of the object.
class FileLock {
 public:
  /// why: what the lock is taken for, named when the lock file cannot be opened for writing.
  FileLock(const fs::path& path, Progress& progress, const std::string& why) {
    m_fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (m_fd < 0)
      throw ConfigError(fmt::format("rtl: {}, but the lock file {} cannot be opened for writing: {}; allowed: a "
                                    "writable cache directory (WORMCAST_RTL_CACHE)",
                                    why, path.string(), std::strerror(errno)));
    if (flock(m_fd, LOCK_EX | LOCK_NB) != 0) {
      progress.step("waiting for another process that builds it");
      while (flock(m_fd, LOCK_EX) != 0 && errno == EINTR) {
      }
    }
  }
  ~FileLock() {
    if (m_fd >= 0) ::close(m_fd);  // closing releases the lock
  }
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

 private:
  int m_fd = -1;
};

void remove_quietly(const fs::path& p) {
  std::error_code ec;
  fs::remove_all(p, ec);
}

/// A failed step: the temporary directory goes, the log stays; one line naming both.
[[noreturn]] void build_failed(const std::string& what, const std::string& step, const fs::path& tmp,
                               const fs::path& log) {
  remove_quietly(tmp);
  // The first line of the log that looks like an error (the cause; later ones tend to follow from
  // it) says more than an exit status.
  std::string reason;
  std::istringstream in(read_file(log));
  for (std::string l; std::getline(in, l);)
    if (l.find("error") != std::string::npos || l.find("Error") != std::string::npos ||
        l.find("No space") != std::string::npos)
      if (reason.empty()) {
        reason = l;
        break;
      }
  if (reason.size() > 160) reason = reason.substr(0, 157) + "...";
  throw ConfigError(fmt::format("rtl: building the model {} failed at {}{}; log: {}", what, step,
                                reason.empty() ? "" : " (" + reason + ")", log.string()));
}

using Builder = std::function<void(const fs::path& tmp, const fs::path& log, Progress& progress)>;

/// The directory of entry `name` (key `key_text`), built by `build` if it is missing or fails its
/// check. `build` fills the temporary directory with the object and returns; the record is added
/// here. Called with `load` to dlopen the object before the entry is published.
fs::path ensure_entry(const std::string& name, const std::string& key_text, const std::string& description,
                      const std::string& object, const Builder& build, void** handle) {
  const fs::path cache = rtl_cache_dir();
  const fs::path dir = cache / name;
  auto load = [&](const fs::path& so) {
    if (!handle) return true;
    *handle = dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL);
    return *handle != nullptr;
  };
  if (entry_valid(dir, key_text) && load(dir / object)) return dir;
  std::error_code ec;
  fs::create_directories(cache / "logs", ec);
  if (ec)
    throw ConfigError(fmt::format("rtl: cannot create the cache directory {}: {}; allowed: a writable directory "
                                  "in WORMCAST_RTL_CACHE", cache.string(), ec.message()));
  Progress progress(description);
  const FileLock lock(cache / (name + ".lock"), progress,
                      fs::exists(dir, ec) ? fmt::format("the cached model {} fails its check and is to be rebuilt", dir.string())
                                          : fmt::format("the model {} is to be built", description));
  // Whoever held the lock may have built it meanwhile.
  if (entry_valid(dir, key_text) && load(dir / object)) return dir;
  // Temporaries of this entry belong to builds that died holding the lock.
  for (const auto& e : fs::directory_iterator(cache, ec))
    if (starts_with(e.path().filename().string(), ".tmp-" + name + "-")) remove_quietly(e.path());
  const fs::path tmp = cache / fmt::format(".tmp-{}-{}", name, getpid());
  const fs::path log = cache / "logs" / (name + ".log");
  remove_quietly(tmp);
  fs::create_directories(tmp, ec);
  if (ec)
    throw ConfigError(fmt::format("rtl: cannot create {}: {}; allowed: a writable cache directory "
                                  "(WORMCAST_RTL_CACHE)", tmp.string(), ec.message()));
  // A signal during the build stops the tools and removes this directory (tb/out/output_plan.h).
  struct ScratchGuard {
    explicit ScratchGuard(const fs::path& p) {
      std::error_code e;
      set_interrupt_scratch_dir(fs::absolute(p, e).string());
    }
    ~ScratchGuard() { set_interrupt_scratch_dir(""); }
  } scratch_guard(tmp);
  { std::ofstream(log, std::ios::trunc) << "# wormcast RTL build: " << description << "\n# key\n" << key_text << "\n"; }
  build(tmp, log, progress);
  const std::string bytes = read_file(tmp / object);
  Hash h;
  h.add(bytes.data(), bytes.size());
  nlohmann::json meta = {{"format", kFormat}, {"key", key_text},       {"description", description},
                         {"object", object},  {"bytes", bytes.size()}, {"hash", h.hex()},
                         {"build_seconds", progress.seconds()}};
  {
    std::ofstream out(tmp / "meta.json");
    out << meta.dump(2) << "\n";
    if (!out.flush()) build_failed(description, "writing its record (disk full?)", tmp, log);
  }
  // Loaded from the temporary directory: an object that does not load is never published.
  if (!load(tmp / object)) {
    std::ofstream(log, std::ios::app) << "dlopen: " << dlerror() << "\n";
    build_failed(description, "loading the shared object", tmp, log);
  }
  if (fs::exists(dir, ec)) {
    const fs::path trash = cache / fmt::format(".tmp-{}-{}-old", name, getpid());
    fs::rename(dir, trash, ec);
    remove_quietly(trash);
  }
  fs::rename(tmp, dir, ec);
  if (ec) build_failed(description, "publishing the entry (" + ec.message() + ")", tmp, log);
  progress.clear();
  std::cerr << fmt::format("wormcast: built the RTL model {} in {:.0f} s: {}\n", description, progress.seconds(),
                           dir.string());
  return dir;
}

std::vector<std::string> base_cxx(const Tools& t) {
  std::vector<std::string> c{t.cxx, "-std=c++17", "-fPIC"};
  for (const std::string& f : split_flags(t.cxxflags)) c.push_back(f);
  return c;
}

/// The runtime entry's key and name (one per Verilator and compiler).
struct RuntimeKey {
  std::string key, name;
};
const RuntimeKey& runtime_key() {
  static const RuntimeKey k = [] {
    const Tools& t = tools();
    RuntimeKey r;
    r.key = fmt::format("{}\nverilator {}\ncxx {} {}\nflags {}\n", runtime_key_head(), t.verilator_version, t.cxx,
                        t.cxx_version, t.cxxflags);
    Hash h;
    h.add(r.key);
    r.name = "runtime-" + h.hex();
    return r;
  }();
  return k;
}

/// The Verilator runtime as a shared library, built when its entry is missing or fails its check.
fs::path ensure_runtime() {
  const Tools& t = tools();
  const std::string& key = runtime_key().key;
  const std::string& name = runtime_key().name;
  return ensure_entry(name, key, "runtime", "libwcverilated.so",
                      [&](const fs::path& tmp, const fs::path& log, Progress& progress) {
                        const fs::path inc = fs::path(verilator_root()) / "include";
                        std::vector<std::vector<std::string>> cmds;
                        std::vector<std::string> objs;
                        for (const char* src : {"verilated.cpp", "verilated_threads.cpp", "verilated_vcd_c.cpp",
                                                "verilated_vcd_sc.cpp"}) {
                          std::vector<std::string> c = base_cxx(t);
                          const std::string obj = (tmp / (std::string(src) + ".o")).string();
                          for (const std::string& a : {std::string("-DVM_SC=1"), std::string("-DVM_TRACE=1"),
                                                       std::string("-DVM_TRACE_VCD=1"), "-I" + inc.string(),
                                                       "-I" + (inc / "vltstd").string(), std::string("-w"),
                                                       std::string("-c"), (inc / src).string(), std::string("-o"),
                                                       obj})
                            c.push_back(a);
                          cmds.push_back(c);
                          objs.push_back(obj);
                        }
                        if (run_all(cmds, log.string(), t.jobs, progress, "compiling the Verilator runtime") >= 0)
                          build_failed("runtime", "compiling the Verilator runtime", tmp, log);
                        std::vector<std::string> link = base_cxx(t);
                        link.push_back("-shared");
                        link.push_back("-o");
                        link.push_back((tmp / "libwcverilated.so").string());
                        link.insert(link.end(), objs.begin(), objs.end());
                        link.push_back("-lsystemc");
                        link.push_back("-pthread");
                        progress.step("linking the Verilator runtime");
                        if (run(link, log.string()) != 0)
                          build_failed("runtime", "linking the Verilator runtime", tmp, log);
                        for (const std::string& o : objs) remove_quietly(o);
                      },
                      nullptr);
}

/// The runtime held for a model's build and load: a shared lock on the runtime entry's lock file
/// for the life of the object. `wormcast rtl clean` takes each entry's lock exclusively and leaves
/// an entry whose lock it cannot take, so the runtime a model links against and loads is not
/// removed under it (a model build holds its own entry's lock only). The runtime's own build takes
/// the lock exclusively, so the hold is taken after ensure_runtime and the entry checked again
/// under it: a clean between the two sends the loop round to build it anew.
class RuntimeHold {
 public:
  RuntimeHold() {
    const fs::path lock = fs::path(rtl_cache_dir()) / (runtime_key().name + ".lock");
    for (;;) {
      m_dir = ensure_runtime();
      m_fd = ::open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
      // A cache this user may read but not write (a shared, pre-built one): a shared lock needs
      // read access only, and where even the lock file cannot be opened nobody here could have
      // removed the runtime either; it is used as it is.
      if (m_fd < 0) m_fd = ::open(lock.c_str(), O_RDONLY | O_CLOEXEC);
      if (m_fd < 0) return;
      while (flock(m_fd, LOCK_SH) != 0 && errno == EINTR) {
      }
      if (entry_valid(m_dir, runtime_key().key)) return;
      ::close(m_fd);
      m_fd = -1;
    }
  }
  ~RuntimeHold() {
    if (m_fd >= 0) ::close(m_fd);
  }
  RuntimeHold(const RuntimeHold&) = delete;
  RuntimeHold& operator=(const RuntimeHold&) = delete;
  const fs::path& dir() const { return m_dir; }

 private:
  fs::path m_dir;
  int m_fd = -1;
};

}  // namespace

void set_rtl_install_prefix(const std::string& prefix) { g_prefix = prefix; }

std::string rtl_source_dir() { return source_layout().rtl.string(); }

std::string rtl_cache_dir() {
  std::string dir = env_or("WORMCAST_RTL_CACHE", "");
  if (dir.empty()) {
    const std::string xdg = env_or("XDG_CACHE_HOME", "");
    if (!xdg.empty() && xdg[0] == '/') {
      dir = xdg + "/wormcast/rtl";
    } else {
      // The user's home: $HOME, else the password database's entry. Never a shared directory such
      // as /tmp, where another user could place a model this process would load and run.
      std::string home = env_or("HOME", "");
      if (home.empty() || home[0] != '/') {
        std::vector<char> buf(16384);
        struct passwd pw {}, *found = nullptr;
        if (getpwuid_r(getuid(), &pw, buf.data(), buf.size(), &found) == 0 && found && found->pw_dir)
          home = found->pw_dir;
      }
      if (home.empty() || home[0] != '/')
        throw ConfigError("rtl: no cache directory: HOME is not an absolute path and the user has no home "
                          "directory; allowed: WORMCAST_RTL_CACHE (or XDG_CACHE_HOME or HOME) set to a directory");
      dir = home + "/.cache/wormcast/rtl";
    }
  }
  std::error_code ec;
  const fs::path abs = fs::absolute(dir, ec);
  const std::string path = ec ? dir : abs.lexically_normal().string();
  // The dynamic loader reads $ORIGIN, $LIB and $PLATFORM in a path it is given as tokens, so a model
  // under a path with a '$' (the working directory's too, for a relative one) would not load.
  if (path.find('$') != std::string::npos)
    throw ConfigError(fmt::format("rtl: the cache path '{}' is invalid: the dynamic loader reads '$' in a library's "
                                  "path as a token; allowed: a path without '$' (WORMCAST_RTL_CACHE, XDG_CACHE_HOME, "
                                  "HOME, and the working directory for a relative one)", path));
  return path;
}

const RtlPlugin& load_rtl_plugin(const RtlBuildSpec& spec) {
  static std::mutex mutex;
  static std::map<std::string, const RtlPlugin*> loaded;
  const std::lock_guard<std::mutex> guard(mutex);

  const Tools& t = tools();
  const SourceLayout src = source_layout();
  check_snapshot(src.include);
  // The key: everything that changes the shared object.
  std::string key = fmt::format("{}\nfamily {}\nsystemc {}\ntrace {}\nfiles {}\n", model_key_head(), spec.family,
                                spec.systemc, spec.trace, spec.files);
  for (const RtlUnit& u : spec.units) {
    key += fmt::format("unit {} {}", u.top, u.prefix);
    for (const std::string& g : u.gargs) key += " " + g;
    key += "\n";
  }
  key += fmt::format("verilator {} {}\ncxx {} {}\nflags {}\n", t.verilator_version, t.vflags, t.cxx, t.cxx_version,
                     t.cxxflags);
  // Loaded once per process (the sources are hashed once too).
  const std::string spec_key = key;
  const auto found = loaded.find(spec_key);
  if (found != loaded.end()) return *found->second;
  key += source_lines().rtl + "\n" + source_lines().harness + "\n";
  Hash h;
  h.add(key);
  const std::string name = spec.family + "-" + h.hex();

  const RuntimeHold runtime_hold;  // until the model is built and loaded
  const fs::path runtime = runtime_hold.dir();
  void* handle = nullptr;
  // The variants of one parameter set told apart where a person reads them (`wormcast rtl list`).
  const std::string description = spec.description + (t.vflags.rfind("--assert", 0) == 0 ? " +assertions" : "") +
                                  (spec.trace ? " +trace" : "");
  ensure_entry(
      name, key, description, "model.so",
      [&](const fs::path& tmp, const fs::path& log, Progress& progress) {
        const fs::path gen = tmp / "gen";
        std::vector<std::vector<std::string>> verilate;
        for (const RtlUnit& u : spec.units) {
          fs::create_directories(gen / u.prefix);
          std::vector<std::string> v{t.verilator, spec.systemc ? "--sc" : "--cc", "-Wno-fatal", "--x-assign", "fast",
                                     "--x-initial", "fast", "--inline-mult", "0", "-O3",
                                     "-I" + src.rtl.string(), "--top-module", u.top, "--prefix", u.prefix, "-Mdir",
                                     (gen / u.prefix).string(), "-F", (src.rtl / spec.files).string()};
          if (spec.trace) v.push_back("--trace");
          for (const std::string& f : split_flags(t.vflags)) v.push_back(f);
          v.insert(v.end(), u.gargs.begin(), u.gargs.end());
          verilate.push_back(v);
        }
        if (run_all(verilate, log.string(), t.jobs, progress, "verilating") >= 0)
          build_failed(spec.description, "Verilator", tmp, log);
        const fs::path inc = fs::path(verilator_root()) / "include";
        std::vector<std::string> flags = base_cxx(t);
        for (const std::string& a :
             {std::string("-fvisibility=hidden"), std::string("-DVM_SC=1"),
              fmt::format("-DVM_TRACE={}", spec.trace ? 1 : 0), fmt::format("-DVM_TRACE_VCD={}", spec.trace ? 1 : 0),
              "-I" + inc.string(), "-I" + (inc / "vltstd").string(), "-I" + src.include.string(), std::string("-w")})
          flags.push_back(a);
        for (const RtlUnit& u : spec.units) flags.push_back("-I" + (gen / u.prefix).string());
        // The sources are compiled in as many translation units as there are jobs, each including
        // several of them (as Verilator's own build does in its __ALL.cpp): every file of a model
        // includes verilated.h and SystemC, so one compile per file parsed those headers once per
        // file and spent about twice the CPU time (a torus model: 16.5 s against 7.6 s). Each entry:
        // its weight (bytes) and its text.
        std::vector<std::pair<uintmax_t, std::string>> sources;
        uintmax_t largest = 0;
        for (const RtlUnit& u : spec.units)
          for (const auto& e : fs::directory_iterator(gen / u.prefix))
            if (e.path().extension() == ".cpp") {
              std::error_code ec;
              const uintmax_t size = fs::file_size(e.path(), ec);
              // By name, found through the unit's -I above (a prefix starts every file's name): the
              // cache's path may hold a quote.
              sources.emplace_back(ec ? 0 : size, "#include \"" + e.path().filename().string() + "\"\n");
              largest = std::max(largest, sources.back().first);
            }
        // The plugin, the family's entry point over these classes: it instantiates the adapter's
        // templates and weighs about as much as the largest file.
        std::string plugin;
        for (const RtlUnit& u : spec.units) plugin += "#include \"" + u.prefix + ".h\"\n";
        sources.emplace_back(largest, plugin + "#include \"tb/rtl/plugin_" + spec.family + ".h\"\n");
        // The largest first, each into the lightest group: the groups bound the time with several jobs.
        std::sort(sources.begin(), sources.end(), [](const auto& a, const auto& b) {
          return a.first != b.first ? a.first > b.first : a.second < b.second;
        });
        const size_t ngroups = std::min(sources.size(), size_t(std::max(1, t.jobs)));
        std::vector<uintmax_t> weight(ngroups, 0);
        std::vector<std::string> group(ngroups);
        for (const auto& [size, text] : sources) {
          const size_t g = size_t(std::min_element(weight.begin(), weight.end()) - weight.begin());
          weight[g] += size + 1;
          group[g] += text;
        }
        std::vector<std::vector<std::string>> compile;
        std::vector<std::string> objs;
        for (size_t i = 0; i < ngroups; ++i) {
          const fs::path unit = gen / fmt::format("group{}.cpp", i);
          {
            std::ofstream out(unit);
            out << "// Generated: a translation unit of the model's sources.\n" << group[i];
            if (!out.flush()) build_failed(spec.description, "writing a source (disk full?)", tmp, log);
          }
          std::vector<std::string> c = flags;
          const std::string obj = (tmp / fmt::format("o{}.o", i)).string();
          c.insert(c.end(), {"-c", unit.string(), "-o", obj});
          compile.push_back(c);
          objs.push_back(obj);
        }
        if (run_all(compile, log.string(), t.jobs, progress, "compiling") >= 0)
          build_failed(spec.description, "the C++ compiler", tmp, log);
        std::vector<std::string> link = base_cxx(t);
        link.insert(link.end(), {"-shared", "-o", (tmp / "model.so").string()});
        link.insert(link.end(), objs.begin(), objs.end());
        // The runtime is found beside the model's own entry ($ORIGIN: the directory the model is
        // loaded from, an entry or a build's temporary, both in the cache): a cache copied or moved
        // elsewhere keeps working, and the cache's path may hold a comma or a colon, which the
        // linker's option and a search path would split.
        link.insert(link.end(), {"-L" + runtime.string(), "-Wl,-rpath,$ORIGIN/../" + runtime.filename().string(),
                                 "-lwcverilated", "-lsystemc", "-pthread"});
        progress.step("linking");
        if (run(link, log.string()) != 0) build_failed(spec.description, "linking", tmp, log);
        for (const std::string& o : objs) remove_quietly(o);
        remove_quietly(gen);
      },
      &handle);
  const auto entry = reinterpret_cast<const RtlPlugin* (*)()>(dlsym(handle, WC_RTL_PLUGIN_NAME));
  const RtlPlugin* plugin = entry ? entry() : nullptr;
  if (!plugin || plugin->abi != kRtlPluginAbi)
    throw ConfigError(fmt::format("rtl: the model {} in {} has no plugin entry of this program's interface; "
                                  "allowed: `wormcast rtl clean` and a new run", spec.description,
                                  (fs::path(rtl_cache_dir()) / name).string()));
  loaded[spec_key] = plugin;
  return *plugin;
}

namespace {

/// An entry's directory name: <kind>-<16 hex digits> (ensure_entry's names).
bool entry_name(const std::string& name) {
  const size_t dash = name.rfind('-');
  if (dash == std::string::npos || dash == 0 || name.size() - dash - 1 != 16) return false;
  for (size_t i = 0; i < dash; ++i)
    if (!std::islower(static_cast<unsigned char>(name[i]))) return false;
  for (size_t i = dash + 1; i < name.size(); ++i)
    if (!std::isxdigit(static_cast<unsigned char>(name[i])) || std::isupper(static_cast<unsigned char>(name[i])))
      return false;
  return true;
}

/// The cache directory, which must be a directory if it exists.
fs::path existing_cache() {
  const fs::path cache = rtl_cache_dir();
  std::error_code ec;
  if (fs::exists(cache, ec) && !fs::is_directory(cache, ec))
    throw ConfigError(fmt::format("rtl: the cache {} is not a directory; allowed: a directory in WORMCAST_RTL_CACHE "
                                  "(or none yet)", cache.string()));
  return cache;
}

}  // namespace

std::vector<RtlCacheEntry> rtl_cache_entries() {
  std::vector<RtlCacheEntry> v;
  const fs::path cache = existing_cache();
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(cache, ec)) {
    const std::string name = e.path().filename().string();
    if (!e.is_directory() || !entry_name(name)) continue;
    RtlCacheEntry x;
    x.name = name;
    nlohmann::json meta;
    x.valid = entry_valid(e.path(), "", &meta);
    if (x.valid) {  // and in the directory its key names (a load looks for it there only)
      const auto key = meta.find("key");
      Hash h;
      if (key != meta.end() && key->is_string()) h.add(key->get<std::string>());
      x.valid = key != meta.end() && key->is_string() && name.substr(name.rfind('-') + 1) == h.hex();
    }
    if (x.valid) {
      x.description = meta.value("description", "");
      x.build_seconds = meta.value("build_seconds", 0.0);
      x.stale = stale_reason(meta["key"].get<std::string>());
    } else if (const auto f = meta.find("format"); f != meta.end() && f->is_number_integer() && *f != kFormat) {
      x.other_format = true;
      if (const auto d = meta.find("description"); d != meta.end() && d->is_string()) x.description = *d;
    }
    for (fs::recursive_directory_iterator it(e.path(), ec), end; it != end && !ec; it.increment(ec))
      if (it->is_regular_file()) x.bytes += it->file_size();
    v.push_back(x);
  }
  std::sort(v.begin(), v.end(), [](const RtlCacheEntry& a, const RtlCacheEntry& b) { return a.name < b.name; });
  return v;
}

RtlCacheClean rtl_cache_clean(bool unusable_only) {
  RtlCacheClean out;
  const fs::path cache = existing_cache();
  std::error_code ec;
  // The entries this program loads as they are (unusable_only leaves them).
  std::set<std::string> usable;
  if (unusable_only)
    for (const RtlCacheEntry& e : rtl_cache_entries())
      if (e.valid && e.stale.empty()) usable.insert(e.name);
  // Entries by name: those with a directory, and those a build has only a temporary of so far.
  std::set<std::string> names;
  for (const auto& e : fs::directory_iterator(cache, ec)) {
    const std::string f = e.path().filename().string();
    if (e.is_directory() && entry_name(f)) {
      names.insert(f);
    } else if (e.is_directory() && starts_with(f, ".tmp-")) {
      // .tmp-<entry>-<pid>[-old]: the entry is the name's first two fields after ".tmp-".
      const std::string rest = f.substr(5);
      const size_t first = rest.find('-');
      const size_t dash = first == std::string::npos ? first : rest.find('-', first + 1);
      if (dash != std::string::npos && entry_name(rest.substr(0, dash))) names.insert(rest.substr(0, dash));
    } else if (e.is_regular_file() && f.size() > 5 && f.compare(f.size() - 5, 5, ".lock") == 0 &&
               entry_name(f.substr(0, f.size() - 5))) {
      names.insert(f.substr(0, f.size() - 5));  // a failed build leaves its lock and its log only
    } else if (f != "logs") {
      ++out.foreign;
    }
  }
  for (const std::string& name : names) {
    if (usable.count(name)) {
      ++out.kept;
      continue;
    }
    // The entry's lock, as a build takes it: held, a build of it runs now and keeps it. (The lock
    // file stays: a process waiting for it holds it open.)
    // (Read-only, where the cache is not writable: a lone lock file is then nothing to remove, and
    // an entry beside it is named below as one that could not be removed.)
    int fd = ::open((cache / (name + ".lock")).c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    const int open_error = errno;
    if (fd < 0 && (open_error == EACCES || open_error == EROFS || open_error == EPERM))
      fd = ::open((cache / (name + ".lock")).c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      out.failed.push_back(fmt::format("{}: {}", (cache / name).string(), std::strerror(open_error)));
      continue;
    }
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
      ::close(fd);
      ++out.busy;
      continue;
    }
    std::vector<fs::path> parts = {cache / name, cache / "logs" / (name + ".log")};
    for (const auto& e : fs::directory_iterator(cache, ec))
      if (starts_with(e.path().filename().string(), ".tmp-" + name + "-")) parts.push_back(e.path());
    // Counted as an entry only when its directory was there; else, when a log or temporaries were,
    // as a failed build's leftovers.
    std::error_code xc;
    const bool entry = fs::is_directory(cache / name, xc);
    std::string why;
    bool any = false;  // something of the entry's was there
    for (const fs::path& p : parts) {
      std::error_code rc;
      any |= fs::remove_all(p, rc) > 0;
      if (rc && why.empty()) why = rc.message();
    }
    ::close(fd);
    if (why.empty()) {
      if (entry)
        ++out.removed;
      else if (any)
        ++out.failed_builds;
    } else {
      out.failed.push_back(fmt::format("{}: {}", (cache / name).string(), why));
    }
  }
  return out;
}

}  // namespace wormcast
