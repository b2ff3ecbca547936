// The output plan: up-front path checks, unique temporaries, commit by rename, and the interrupt
// handler that removes the temporaries.
#include "tb/out/output_plan.h"

#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>

#include <fmt/format.h>

#include "systemc/common/config.h"

namespace wormcast {

namespace {

// The interrupt handler may only read plain memory: the temporaries live in a fixed table whose
// slot is filled before it is published and cleared when the file is renamed or removed.
constexpr int kSlots = 256;
char g_tmp[kSlots][PATH_MAX];
volatile sig_atomic_t g_used = 0;
constexpr int kGroups = 64;
volatile sig_atomic_t g_groups[kGroups] = {};  ///< process groups to stop (0: a free slot)
char g_scratch_dir[PATH_MAX] = {};                ///< removed after the groups stop ("" : none)
volatile sig_atomic_t g_scratch_set = 0;
volatile sig_atomic_t g_progress_shown = 0;  ///< a progress line stands on the terminal
std::ostream* g_json_stdout = nullptr;  ///< --json -: the real standard output (run_cli)

int take_slot(const std::string& path) {
  for (int i = 0; i < kSlots; ++i)
    if (g_tmp[i][0] == '\0') {
      std::snprintf(g_tmp[i], PATH_MAX, "%s", path.c_str());
      if (i >= g_used) g_used = i + 1;
      return i;
    }
  return -1;
}

void free_slot(int slot) {
  if (slot >= 0) g_tmp[slot][0] = '\0';
}

/// The signals that end a run: a terminal's (INT, QUIT, HUP), a batch system's or a user's (TERM,
/// USR1, USR2, ALRM, XCPU, VTALRM, PROF), a closed pipe (PIPE) and the file size limit (XFSZ).
/// Each removes the temporaries and exits 128 + its number (docs/reference.md, exit codes).
struct StopSignal {
  int sig;
  const char* note;
};
const StopSignal kStopSignals[] = {
    {SIGHUP, "wormcast: hung up (SIGHUP); unfinished outputs removed, no earlier file touched\n"},
    {SIGINT, "wormcast: interrupted (SIGINT); unfinished outputs removed, no earlier file touched\n"},
    {SIGQUIT, "wormcast: quit (SIGQUIT); unfinished outputs removed, no earlier file touched\n"},
    {SIGPIPE, "wormcast: standard output's reader went away (SIGPIPE); unfinished outputs removed\n"},
    {SIGALRM, "wormcast: timer expired (SIGALRM); unfinished outputs removed, no earlier file touched\n"},
    {SIGTERM, "wormcast: terminated (SIGTERM); unfinished outputs removed, no earlier file touched\n"},
    {SIGUSR1, "wormcast: stopped by SIGUSR1; unfinished outputs removed, no earlier file touched\n"},
    {SIGUSR2, "wormcast: stopped by SIGUSR2; unfinished outputs removed, no earlier file touched\n"},
    {SIGXCPU, "wormcast: CPU time limit reached (SIGXCPU); unfinished outputs removed, no earlier file touched\n"},
    {SIGXFSZ, "wormcast: file size limit reached (SIGXFSZ); unfinished outputs removed, no earlier file touched\n"},
    {SIGVTALRM, "wormcast: virtual timer expired (SIGVTALRM); unfinished outputs removed, no earlier file touched\n"},
    {SIGPROF, "wormcast: profiling timer expired (SIGPROF); unfinished outputs removed, no earlier file touched\n"},
};

extern "C" void on_interrupt(int sig) {
  for (int i = 0; i < kGroups; ++i)
    if (g_groups[i] > 0) kill(-pid_t(g_groups[i]), SIGTERM);
  for (int i = 0; i < kGroups; ++i)
    if (g_groups[i] > 0) waitpid(pid_t(g_groups[i]), nullptr, 0);
  if (g_scratch_set && g_scratch_dir[0] == '/') {  // rm -rf in a child: only async-signal-safe calls here
    const pid_t rm = fork();
    if (rm == 0) {
      const int null = open("/dev/null", O_WRONLY);
      if (null >= 0) dup2(null, 2);
      execl("/bin/rm", "rm", "-rf", "--", g_scratch_dir, static_cast<char*>(nullptr));
      _exit(127);
    }
    if (rm > 0) waitpid(rm, nullptr, 0);
  }
  for (int i = 0; i < g_used; ++i)
    if (g_tmp[i][0] != '\0') unlink(g_tmp[i]);
  if (g_progress_shown) {  // the note on a line of its own, not after the progress line
    static const char kClear[] = "\r                                                                      \r";
    ssize_t cleared = write(2, kClear, sizeof kClear - 1);
    (void)cleared;
  }
  const char* note = "wormcast: stopped by a signal; unfinished outputs removed\n";
  for (const StopSignal& s : kStopSignals)
    if (s.sig == sig) note = s.note;
  ssize_t ignored = write(2, note, std::strlen(note));
  (void)ignored;
  _exit(128 + sig);
}

std::string dir_of(const std::string& path) {
  const auto slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string base_of(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

/// One name per file: the resolved path when it exists, else the resolved directory + name.
std::string canonical(const std::string& path) {
  char buf[PATH_MAX];
  if (realpath(path.c_str(), buf)) return buf;
  if (realpath(dir_of(path).c_str(), buf)) return std::string(buf) + "/" + base_of(path);
  return path;
}

/// The inode flags that stop a rename over a file or in a directory (immutable, append-only); 0
/// when they cannot be read.
unsigned int inode_flags(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) return 0;
  int flags = 0;
  if (ioctl(fd, FS_IOC_GETFLAGS, &flags) != 0) flags = 0;
  ::close(fd);
  return unsigned(flags) & (FS_IMMUTABLE_FL | FS_APPEND_FL);
}

/// "" when a file renamed from the same directory can replace `dest`, else why not: an existing
/// file with the immutable or append-only attribute, in a directory with either (whose entries
/// cannot be replaced), or another user's file in a directory with the sticky bit (only its
/// owner, the directory's or a privileged user may replace it).
std::string replace_blocker(const std::string& dest) {
  struct stat st {}, dst {};
  const std::string dir = dir_of(dest);
  // (A new file too: a rename out of the temporary's name is a removal the attribute forbids.)
  if (inode_flags(dir)) return fmt::format("directory '{}' has the immutable or append-only attribute", dir);
  if (::lstat(dest.c_str(), &st) != 0) return "";  // a new file
  if (inode_flags(dest)) return "the file has the immutable or append-only attribute";
  const uid_t me = geteuid();
  if (::stat(dir.c_str(), &dst) == 0 && (dst.st_mode & S_ISVTX) && me != 0 && me != st.st_uid && me != dst.st_uid)
    return fmt::format("it is another user's file in directory '{}', whose sticky bit lets only its owner replace it",
                       dir);
  return "";
}

/// The first link on the way from `path` to its file that points into a process's table of open
/// files (/proc/<pid>/fd/, /proc/self/fd/, /dev/fd/), "" when none does.
std::string open_file_link(const std::string& path) {
  const auto in_fd_table = [](const std::string& p) {
    const size_t fd = p.find("/fd/");
    return (p.rfind("/proc/", 0) == 0 && fd != std::string::npos) || p.rfind("/dev/fd/", 0) == 0;
  };
  std::string at = path;
  for (int hop = 0; hop < 40; ++hop) {
    char buf[PATH_MAX];
    // The link's own directory resolved (/dev/fd/1 is /proc/self/fd/1).
    if (realpath(dir_of(at).c_str(), buf)) {
      const std::string here = std::string(buf) + "/" + base_of(at);
      if (in_fd_table(here)) return here;
    }
    const ssize_t n = readlink(at.c_str(), buf, sizeof buf - 1);
    if (n < 0) return "";
    std::string to(buf, size_t(n));
    if (!to.empty() && to[0] != '/') to = dir_of(at) + "/" + to;
    if (in_fd_table(to)) return to;
    at = to;
  }
  return "";
}

mode_t file_mode() {
  // Temporaries are created private; the renamed file gets the mode a plain create would give.
  const mode_t mask = umask(0);
  umask(mask);
  return 0666 & ~mask;
}

}  // namespace

void install_interrupt_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_interrupt;
  sigemptyset(&sa.sa_mask);
  for (const StopSignal& s : kStopSignals) sigaddset(&sa.sa_mask, s.sig);  // one handler at a time
  for (const StopSignal& s : kStopSignals) {
    // A hang-up ignored on entry (nohup) stays ignored: the run is meant to outlive its terminal.
    struct sigaction old {};
    if (s.sig == SIGHUP && sigaction(SIGHUP, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
    sigaction(s.sig, &sa, nullptr);
  }
}

void reserve_standard_streams() {
  // A closed standard stream would be the number of the next file opened, and text for the
  // terminal would land in an output file. A read-only /dev/null takes its place: writes to it
  // fail (EBADF), so a result printed there is reported as lost.
  for (int fd = 0; fd <= 2; ++fd)
    if (fcntl(fd, F_GETFD) < 0 && errno == EBADF) {
      const int got = open("/dev/null", O_RDONLY);
      if (got >= 0 && got != fd) {
        dup2(got, fd);
        close(got);
      }
    }
}

std::string check_stdout() {
  const int before = errno;  // the reason of a write that failed before this flush, if any
  errno = 0;
  std::cout.flush();
  if (g_json_stdout) g_json_stdout->flush();
  // With --json -, std::cout carries the text for people to standard error: not a result.
  const bool bad = (g_json_stdout ? !*g_json_stdout : !std::cout) || std::fflush(stdout) != 0 || std::ferror(stdout);
  if (!bad) return "";
  const int err = errno ? errno : before;
  return err ? std::strerror(err) : "a write failed";
}

bool add_interruptible_group(int pgid) {
  for (int i = 0; i < kGroups; ++i)
    if (g_groups[i] == 0) {
      g_groups[i] = pgid;
      return true;
    }
  return false;
}

void remove_interruptible_group(int pgid) {
  for (int i = 0; i < kGroups; ++i)
    if (g_groups[i] == pgid) g_groups[i] = 0;
}

int spawn_stoppable(const std::vector<std::string>& argv, const void* actions) {
  std::vector<char*> a;
  for (const std::string& s : argv) a.push_back(const_cast<char*>(s.c_str()));
  a.push_back(nullptr);
  sigset_t all, before;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, &before);
  // The child's mask is the one the program had before this hold (a mask is inherited across exec:
  // the child would otherwise start with every signal blocked, and the interrupt handler's SIGTERM
  // would wait for it to end).
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  posix_spawnattr_setpgroup(&attr, 0);
  posix_spawnattr_setsigmask(&attr, &before);
  sigset_t stops;
  sigemptyset(&stops);
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE}) sigaddset(&stops, sig);
  posix_spawnattr_setsigdefault(&attr, &stops);
  pid_t pid = 0;
  const int err =
      posix_spawnp(&pid, a[0], static_cast<const posix_spawn_file_actions_t*>(actions), &attr, a.data(), environ);
  if (err == 0 && !add_interruptible_group(int(pid))) {  // more children than the table holds: not started
    kill(-pid, SIGTERM);
    waitpid(pid, nullptr, 0);
    pid = -1;
  }
  pthread_sigmask(SIG_SETMASK, &before, nullptr);
  posix_spawnattr_destroy(&attr);
  return err == 0 ? int(pid) : -1;
}

int wait_stoppable(int pid) {
  int status = 0;
  pid_t waited;
  while ((waited = waitpid(pid_t(pid), &status, 0)) < 0 && errno == EINTR) {
  }
  remove_interruptible_group(pid);
  return waited < 0 ? -1 : status;
}

void set_progress_shown(bool shown) { g_progress_shown = shown ? 1 : 0; }

void set_interrupt_scratch_dir(const std::string& dir) {
  g_scratch_set = 0;  // the handler reads the path only while the flag is set
  if (dir.empty() || dir.size() >= PATH_MAX) return;
  std::snprintf(g_scratch_dir, PATH_MAX, "%s", dir.c_str());
  g_scratch_set = 1;
}

// The running program is an input of every run: no output may replace it.
OutputPlan::OutputPlan() { m_inputs.push_back(canonical("/proc/self/exe")); }

OutputPlan::~OutputPlan() {
  for (auto& e : m_entries)
    if (!e.done) release(e);
}

void OutputPlan::release(Entry& e) {
  std::remove(e.tmp.c_str());
  free_slot(e.slot);
  e.slot = -1;
  e.done = true;
}

void OutputPlan::add_input(const std::string& path) {
  if (!path.empty()) m_inputs.push_back(canonical(path));
}

OutputPlan::Entry& OutputPlan::create(const std::string& option, const std::string& path, const std::string& dest,
                                      const std::string& suffix) {
  const std::string dir = dir_of(dest);
  // The temporary's name ('.' NAME '.XXXXXX' SUFFIX) within NAME_MAX, with room for a helper's
  // companion beside it (vcd2fst's TEMPORARY.hier): a long NAME is cut for it.
  std::string base = base_of(dest);
  const size_t reserve = 8 + suffix.size() + 8;
  const size_t room = NAME_MAX > reserve ? NAME_MAX - reserve : 1;
  if (base.size() > room) base.resize(room);
  std::string tmpl = dir + "/." + base + ".XXXXXX" + suffix;
  std::vector<char> buf(tmpl.begin(), tmpl.end());
  buf.push_back('\0');
  const int fd = mkstemps(buf.data(), int(suffix.size()));
  if (fd < 0)
    throw ConfigError(fmt::format("{} '{}': cannot create a file in '{}': {}; allowed: a file in an existing writable directory", option, path, dir, std::strerror(errno)));
  fchmod(fd, file_mode());
  close(fd);
  Entry e;
  e.option = option;
  e.path = path;
  e.dest = dest;
  e.tmp = buf.data();
  e.slot = take_slot(e.tmp);
  if (e.slot < 0) {
    std::remove(e.tmp.c_str());
    throw ConfigError(fmt::format("{} '{}': too many output files; allowed: at most {}", option, path, kSlots));
  }
  m_entries.push_back(e);
  return m_entries.back();
}

bool json_to_stdout(int argc, const char* const* argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--json=-" || (a == "--json" && i + 1 < argc && std::string(argv[i + 1]) == "-")) return true;
  }
  return false;
}

void set_json_stdout(std::ostream* out) { g_json_stdout = out; }

std::string stdout_path_error(const std::string& option, const std::string& path) {
  if (path != "-" || option == "--json") return "";
  return "'-' (standard output) is not supported for this output; allowed: a file in an existing writable directory "
         "(only --json takes - for standard output)";
}

std::string OutputPlan::add(const std::string& option, const std::string& path, bool limited, const std::string& suffix) {
  if (path == "-" && option == "--json") {
    for (auto& e : m_entries)
      if (e.to_stdout) throw ConfigError("--json -: standard output is planned twice; allowed: one result on standard output");
    Entry e;
    e.option = option;
    e.path = path;
    e.to_stdout = true;
    m_entries.push_back(e);
    return "";
  }
  if (path.empty()) throw ConfigError(fmt::format("{}: the path is empty; allowed: a file name", option));
  if (const std::string why = stdout_path_error(option, path); !why.empty()) throw ConfigError(option + ": " + why);
  const std::string base = base_of(path);
  if (base.empty() || base == "." || base == "..")
    throw ConfigError(fmt::format("{} '{}': names a directory; allowed: a file name", option, path));
  // A name of blanks only (--json ' ') is a slip, not a file anyone could find again.
  if (base.find_first_not_of(" \t\n\r\f\v") == std::string::npos)
    throw ConfigError(fmt::format("{} '{}': the file name is blank; allowed: a file name with a visible character",
                                  option, path));
  if (base.size() > NAME_MAX)
    throw ConfigError(fmt::format("{} '{}': the file name has {} bytes; allowed: a file name of at most {} bytes",
                                  option, path, base.size(), NAME_MAX));
  // A symbolic link is followed: the file it names is the one replaced (a rename over the link
  // would put a plain file in the link's place, /dev/stdout's among them). A link to a process's
  // open file (/dev/stdout, /dev/fd/N, /proc/self/fd/N) is refused: its file is whatever that
  // stream is now, e.g. a log the shell appends to, which a rename would replace.
  std::string dest = path;
  struct stat lst {};
  if (::lstat(path.c_str(), &lst) == 0 && S_ISLNK(lst.st_mode)) {
    if (const std::string via = open_file_link(path); !via.empty())
      throw ConfigError(fmt::format("{} '{}': names an open stream of a process (through '{}'); allowed: a file{}", option,
                                    path, via, option == "--json" ? ", or - for standard output" : ""));
    char buf[PATH_MAX];
    if (!realpath(path.c_str(), buf))
      throw ConfigError(fmt::format("{} '{}': is a symbolic link that names no file ({}); allowed: a new or regular "
                                    "file, or a link to one",
                                    option, path, std::strerror(errno)));
    dest = buf;
  }
  const std::string dir = dir_of(dest);
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0)
    throw ConfigError(fmt::format("{} '{}': directory '{}' {}; allowed: a file in an existing writable directory", option, path, dir,
                                  errno == ENOENT ? "does not exist" : std::strerror(errno)));
  if (!S_ISDIR(st.st_mode)) throw ConfigError(fmt::format("{} '{}': '{}' is not a directory; allowed: a file in an existing writable directory", option, path, dir));
  if (access(dir.c_str(), W_OK | X_OK) != 0)
    throw ConfigError(fmt::format("{} '{}': directory '{}' is not writable; allowed: a file in an existing writable directory", option, path, dir));
  if (::stat(dest.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) throw ConfigError(fmt::format("{} '{}': is a directory; allowed: a file name", option, path));
    if (!S_ISREG(st.st_mode))
      throw ConfigError(fmt::format("{} '{}': is not a regular file; allowed: a new or regular file", option, path));
  }
  if (const std::string why = replace_blocker(dest); !why.empty())
    throw ConfigError(fmt::format("{} '{}': cannot be replaced: {}; allowed: a file the run can replace, or a new one",
                                  option, path, why));
  const std::string name = canonical(dest);
  for (auto& in : m_inputs)
    if (in == name) throw ConfigError(fmt::format("{} '{}': is an input of this run; refusing to overwrite it; allowed: a path that is not an input", option, path));
  for (auto& e : m_entries)
    if (!e.scratch && canonical(e.path) == name)
      throw ConfigError(fmt::format("{} '{}': the same file as {} '{}'; allowed: a path of its own for each output", option, path,
                                    e.option, e.path));
  Entry& e = create(option, path, dest, suffix);
  e.limited = limited;
  return e.tmp;
}

std::string OutputPlan::scratch(const std::string& option, const std::string& near, const std::string& suffix) {
  Entry& e = create(option, near, near, suffix);
  e.scratch = true;
  e.limited = true;
  return e.tmp;
}

void OutputPlan::companion(const std::string& path) {
  Entry e;
  e.option = "(helper)";
  e.path = e.tmp = path;
  e.scratch = true;
  e.slot = take_slot(path);
  if (e.slot < 0) throw ConfigError(fmt::format("'{}': too many output files; allowed: at most {}", path, kSlots));
  m_entries.push_back(e);
}

std::string OutputPlan::temp(const std::string& path) const {
  for (auto& e : m_entries)
    if (!e.scratch && !e.done && e.path == path) return e.to_stdout ? "-" : e.tmp;
  return "";
}

void OutputPlan::write(const std::string& path, const std::string& text) {
  for (auto& e : m_entries) {
    if (e.scratch || e.done || e.path != path) continue;
    if (e.to_stdout) {
      e.text = text;
      return;
    }
    std::ofstream out(e.tmp, std::ios::binary | std::ios::trunc);
    out << text;
    out.close();
    if (!out) throw ConfigError(fmt::format("{} '{}': cannot write: {}; allowed: a file system with room for it", e.option, path, std::strerror(errno)));
    return;
  }
  throw ConfigError(fmt::format("'{}': not a planned output; allowed: the outputs planned before the run", path));  // an internal slip, reported all the same
}

void OutputPlan::drop(const std::string& path) {
  for (auto& e : m_entries)
    if (!e.scratch && !e.done && e.path == path) {
      if (e.to_stdout) e.done = true;
      else release(e);
    }
}

void OutputPlan::commit(const std::string& summary) {
  // Every file checked before anything is printed or put in place (its attributes or its
  // directory may have changed during the run): a file that cannot be replaced leaves every
  // other as it was, and no result on standard output.
  for (auto& e : m_entries)
    if (!e.done && !e.scratch && !e.to_stdout)
      if (const std::string why = replace_blocker(e.dest); !why.empty())
        throw ConfigError(fmt::format("{} '{}': cannot be replaced: {}; nothing was written; allowed: a file the run "
                                      "can replace, or a new one",
                                      e.option, e.path, why));
  // Standard output first: a result that cannot be printed there (a full disk, a closed stream)
  // is an error before any file is put in place, and the temporaries go with the plan.
  // The summary follows the JSON only once the JSON is out (with --json - it goes to standard
  // error, and a run whose result was lost prints nothing but its error line).
  const auto check = [](const char* option) {
    const std::string why = check_stdout();
    if (!why.empty())
      throw ConfigError(fmt::format("{}: cannot write the result: {}; allowed: a writable standard output", option, why));
  };
  for (auto& e : m_entries)
    if (!e.done && e.to_stdout) {
      std::ostream& out = g_json_stdout ? *g_json_stdout : std::cout;
      errno = 0;
      out << e.text << std::flush;
      e.done = true;
      check("--json -");
    }
  if (!summary.empty()) {
    errno = 0;
    std::cout << summary;
    check("standard output");
  }
  for (auto& e : m_entries) {
    if (e.done) continue;
    if (e.scratch) {
      release(e);
      continue;
    }
    if (std::rename(e.tmp.c_str(), e.dest.c_str()) != 0) {
      const int err = errno;
      release(e);
      throw ConfigError(fmt::format("{} '{}': cannot put the file in place: {}; allowed: a path the run can rename a file to", e.option, e.path, std::strerror(err)));
    }
    free_slot(e.slot);
    e.slot = -1;
    e.done = true;
  }
}

void OutputPlan::check_size() const {
  if (m_limit == 0) return;
  uint64_t total = 0;
  std::string names;
  for (auto& e : m_entries) {
    struct stat st {};
    if (!e.limited || e.done || ::stat(e.tmp.c_str(), &st) != 0) continue;
    total += uint64_t(st.st_size);
    if (!e.scratch) names += (names.empty() ? "" : ", ") + e.option;
  }
  if (total > m_limit)
    throw ConfigError(fmt::format("--max-output-size: the recordings ({}) reached {} bytes, more than the limit of {} "
                                  "bytes; nothing was written; allowed: at most --max-output-size (raise it or record fewer cycles)",
                                  names.empty() ? "--fst" : names, total, m_limit));
}

uint64_t parse_size(const std::string& option, const std::string& text) {
  std::string digits = text;
  uint64_t unit = 1;
  if (!digits.empty()) {
    const char last = digits.back();
    const char* units = "KMGT";
    if (const char* p = std::strchr(units, last); p && last != '\0') {
      unit = uint64_t(1) << (10 * (p - units + 1));
      digits.pop_back();
    }
  }
  int64_t n = 0;
  try {
    n = parse_int(option, digits, 1, int64_t(1) << 50);
  } catch (const ConfigError&) {
    throw ConfigError(fmt::format("{} = '{}' is invalid; allowed: a size in bytes 1..2^50, or with a suffix K, M, G, T "
                                  "(powers of 1024), e.g. 4G",
                                  option, text));
  }
  if (uint64_t(n) > (uint64_t(1) << 50) / unit)
    throw ConfigError(fmt::format("{} = '{}' is invalid; allowed: at most 1024T", option, text));
  return uint64_t(n) * unit;
}

}  // namespace wormcast
