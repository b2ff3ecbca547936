// Reading a waveform's declarations for its save file (tb/out/wave.h): a VCD directly, an FST
// through fst2vcd; the scopes, variables, time scale, first and last time stamps and the clock's
// period. The save files made from them are tb/out/wave.cpp's.
#include "tb/out/wave.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>

#include <fmt/format.h>

#include "systemc/common/config.h"
#include "tb/out/output_plan.h"

namespace wormcast {

namespace {

/// Lines of a dump: a VCD file, or the VCD that fst2vcd writes for an FST. The converter runs
/// without a shell (any character may be in the path), its output read through a pipe and its
/// messages kept in an unnamed temporary file for the error that names its failure.
class DumpReader {
 public:
  DumpReader(const std::string& option, const std::string& path) : m_option(option), m_path(path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
      throw ConfigError(fmt::format("{} '{}': cannot read: {}; allowed: a readable VCD or FST file", option, path, std::strerror(errno)));
    if (!S_ISREG(st.st_mode)) throw ConfigError(fmt::format("{} '{}': not a regular file; allowed: a VCD or FST file", option, path));
    m_size = uint64_t(st.st_size);
    // An FST by its name, or by its first byte (an FST starts with its header block, type 0; a VCD
    // with text): `--fst NAME` writes an FST under any name.
    bool fst = path.size() > 4 && path.compare(path.size() - 4, 4, ".fst") == 0;
    if (!fst)
      if (std::FILE* f = std::fopen(path.c_str(), "rb")) {
        fst = std::fgetc(f) == 0;
        std::fclose(f);
      }
    if (fst) {
      start_converter();
    } else {
      m_file = std::fopen(path.c_str(), "r");
      if (!m_file) throw ConfigError(fmt::format("{} '{}': cannot read: {}; allowed: a readable VCD or FST file", option, path, std::strerror(errno)));
    }
  }
  ~DumpReader() {
    std::free(m_buf);
    if (m_file) std::fclose(m_file);
    if (m_pid > 0) wait_stoppable(m_pid);  // stopped early, it ends on a broken pipe
    if (m_errors) std::fclose(m_errors);
  }
  /// For a converted FST: waits for the converter and throws ConfigError naming its failure
  /// (its exit status and first message line); nothing for a VCD or a converter that succeeded.
  void check_converter() {
    if (m_pid <= 0) return;
    std::fclose(m_file);
    m_file = nullptr;
    const pid_t pid = m_pid;
    m_pid = 0;
    const int status = wait_stoppable(pid);
    if (status < 0 || (WIFEXITED(status) && WEXITSTATUS(status) == 0)) return;
    std::string message;
    if (m_errors) {
      std::rewind(m_errors);
      char line[240];
      if (std::fgets(line, sizeof line, m_errors)) message = line;
      while (!message.empty() && (message.back() == '\n' || message.back() == '\r')) message.pop_back();
    }
    const std::string how = WIFEXITED(status) ? fmt::format("exit status {}", WEXITSTATUS(status))
                                              : fmt::format("signal {}", WTERMSIG(status));
    throw ConfigError(fmt::format("{} '{}': fst2vcd could not convert it ({}{}); allowed: an FST file fst2vcd reads, "
                                  "or a VCD",
                                  m_option, m_path, how, message.empty() ? "" : ": " + message));
  }
  bool line(std::string& out) {
    const ssize_t n = ::getline(&m_buf, &m_cap, m_file);
    if (n < 0) return false;
    out.assign(m_buf, size_t(n) - (n > 0 && m_buf[n - 1] == '\n' ? 1 : 0));
    return true;
  }
  /// The last time stamp: a VCD file is read from its last 64 KiB, a pipe to its end.
  /// The last time stamp from here on (its tail only, for a file), or fallback; `seen`: one was read.
  uint64_t last_time(uint64_t fallback, bool& seen) {
    std::string l;
    uint64_t last = fallback;
    if (m_pid <= 0 && m_size > 65536) std::fseek(m_file, long(m_size - 65536), SEEK_SET);
    while (line(l))
      if (l.size() > 1 && l[0] == '#') {
        last = std::strtoull(l.c_str() + 1, nullptr, 10);
        seen = true;
      }
    return last;
  }
  const std::string& path() const { return m_path; }
  const std::string& option() const { return m_option; }

 private:
  /// fst2vcd PATH with its standard output on a pipe read as m_file.
  void start_converter() {
    const std::string unavailable = fmt::format(
        "{} '{}': reading an FST needs fst2vcd (package gtkwave); allowed without it: a VCD", m_option, m_path);
    m_errors = std::tmpfile();
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) throw ConfigError(unavailable);
    // A path starting with '-' would read as an option of the converter.
    const std::string arg = m_path[0] == '-' ? "./" + m_path : m_path;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
    if (m_errors)
      posix_spawn_file_actions_adddup2(&fa, fileno(m_errors), 2);
    else
      posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    // Stopped with this program, and given SIGPIPE's default action: stopped early, it ends on the
    // broken pipe even where the program was started with SIGPIPE ignored.
    m_pid = spawn_stoppable({"fst2vcd", arg}, &fa);
    posix_spawn_file_actions_destroy(&fa);
    ::close(fds[1]);
    if (m_pid < 0) {
      m_pid = 0;
      ::close(fds[0]);
      throw ConfigError(unavailable);
    }
    m_file = ::fdopen(fds[0], "r");
    if (!m_file) {
      ::close(fds[0]);
      throw ConfigError(unavailable);
    }
  }

  std::string m_option, m_path;
  uint64_t m_size = 0;
  FILE* m_file = nullptr;
  pid_t m_pid = 0;            ///< the converter, while it runs
  FILE* m_errors = nullptr;   ///< the converter's messages
  char* m_buf = nullptr;  ///< getline's buffer
  size_t m_cap = 0;
};

std::vector<std::string> words(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> w;
  for (std::string x; in >> x;) w.push_back(x);
  return w;
}

}  // namespace

VcdInfo read_vcd_info(const std::string& option, const std::string& path) {
  DumpReader in(option, path);
  VcdInfo info;
  std::vector<std::string> scopes;
  std::string l, decl;
  bool ended = false;
  // Declarations: $scope, $upscope, $var and $timescale, each possibly over several lines.
  while (!ended && in.line(l)) {
    decl += " " + l;
    if (decl.find("$end") == std::string::npos) continue;
    auto w = words(decl);
    decl.clear();
    for (size_t i = 0; i < w.size(); ++i) {
      if (w[i] == "$enddefinitions") {
        ended = true;
        break;
      }
      if (w[i] == "$scope" && i + 2 < w.size()) {
        // A scope name may hold dots (a Verilated model's top): each part is one level.
        std::vector<std::string> parts;
        std::stringstream ss(w[i + 2]);
        for (std::string p; std::getline(ss, p, '.');) parts.push_back(p);
        scopes.insert(scopes.end(), parts.begin(), parts.end());
        i += 2;
      } else if (w[i] == "$upscope") {
        if (!scopes.empty()) scopes.pop_back();
      } else if (w[i] == "$timescale") {
        std::string t;
        for (size_t k = i + 1; k < w.size() && w[k] != "$end"; ++k) t += w[k];
        info.scale = std::max<uint64_t>(1, std::strtoull(t.c_str(), nullptr, 10));
      } else if (w[i] == "$var" && i + 4 < w.size()) {
        VcdVar v;
        v.scopes = scopes;
        v.width = std::atoi(w[i + 2].c_str());
        v.id = w[i + 3];
        v.name = w[i + 4];
        if (i + 5 < w.size() && w[i + 5] != "$end") v.range = w[i + 5];
        info.vars.push_back(v);
        i += 4;
      }
    }
  }
  if (!ended) in.check_converter();  // a failed conversion is named as such, not as a bad VCD
  if (!ended) throw ConfigError(fmt::format("{} '{}': not a VCD (no $enddefinitions); allowed: a VCD or FST file", option, path));
  if (info.vars.empty()) throw ConfigError(fmt::format("{} '{}': no signals declared; allowed: a waveform with signals", option, path));
  // The first time stamps: the start and the clock's period (its first two rising edges).
  std::string clk_id;
  for (auto& v : info.vars)
    if (v.name == "clk" && v.width == 1) {
      clk_id = v.id;
      break;
    }
  bool have_first = false;
  uint64_t now = 0, rise1 = 0;
  int rises = 0;
  // (The lines before the first time stamp, a windowed dump's initial values, do not count: on a
  // large network they outnumber the limit.)
  for (int n = 0; n < 200000 && in.line(l) && rises < 2; n += have_first) {
    if (l.size() > 1 && l[0] == '#') {
      now = std::strtoull(l.c_str() + 1, nullptr, 10);
      if (!have_first) info.first = now;
      have_first = true;
    } else if (have_first && !clk_id.empty() && l.size() == clk_id.size() + 1 && l[0] == '1' &&
               l.compare(1, std::string::npos, clk_id) == 0) {
      // (Only after a time stamp: the initial values of $dumpvars, which a dump cut by a window
      // writes before its first one, are not edges.)
      if (rises++ == 0)
        rise1 = now;
      else
        info.period = now - rise1;
    }
  }
  bool seen_later = false;
  info.last = in.last_time(now, seen_later);
  info.timed = have_first || seen_later;
  in.check_converter();
  return info;
}

}  // namespace wormcast
