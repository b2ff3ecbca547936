// Every file a command writes, planned before the simulation: each path validated up front, written
// to a unique temporary next to it and renamed into place only on success; an interrupt removes the
// temporaries, so a failed or stopped run leaves no new file and touches no earlier one.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace wormcast {

class OutputPlan {
 public:
  OutputPlan();
  /// Removes every temporary that was not committed (an error unwinding the command, exit 2).
  ~OutputPlan();
  OutputPlan(const OutputPlan&) = delete;
  OutputPlan& operator=(const OutputPlan&) = delete;

  /// An input file no output may replace (the configuration).
  void add_input(const std::string& path);
  /// Plans the output `path` of `option`. "-" for --json is standard output: the text is held
  /// and printed at commit (see json_to_stdout). Otherwise: the directory exists and is writable, the path is not a
  /// directory, not a special file, not an input and not another output, and an existing file
  /// there can be replaced. A symbolic link is followed: the file it names is replaced, the link
  /// stays (one that names no file is refused). Creates its temporary
  /// (ending in `suffix`) and returns the temporary's path. Throws ConfigError naming the option,
  /// the path and the reason. `limited`: counts against the size limit (traces, waveforms).
  std::string add(const std::string& option, const std::string& path, bool limited = false,
                  const std::string& suffix = "");
  /// A temporary next to `near` that is always removed, never renamed (the VCD behind --fst).
  std::string scratch(const std::string& option, const std::string& near, const std::string& suffix);
  /// A file a helper program writes beside a temporary (vcd2fst's OUTPUT.hier), removed as a
  /// scratch is: when the plan ends and on an interrupt; it need not exist.
  void companion(const std::string& path);
  /// The temporary of a planned output ("" when `path` was not planned).
  std::string temp(const std::string& path) const;
  bool planned(const std::string& path) const { return !temp(path).empty(); }
  /// Writes `text` as the planned output `path`; throws ConfigError naming the option and reason.
  void write(const std::string& path, const std::string& text);
  /// Gives up the planned output `path`: its temporary goes, the path is left as it was.
  void drop(const std::string& path);
  /// Prints the result planned for standard output (--json -) and `summary` (std::cout), then
  /// renames every temporary into place; throws ConfigError when standard output cannot be
  /// written or a file cannot be replaced (checked for every file before the first rename, so
  /// that nothing is put in place then).
  void commit(const std::string& summary = "");

  /// The limit for the outputs planned as limited (0: none).
  void set_limit(uint64_t bytes) { m_limit = bytes; }
  /// Throws ConfigError when the limited temporaries together exceed the limit.
  void check_size() const;

 private:
  struct Entry {
    std::string option, path, tmp;
    std::string dest;  ///< where the file is put: `path`, or the file a symbolic link `path` names
    bool limited = false, scratch = false, done = false;
    bool to_stdout = false;  ///< --json -: `text` goes to standard output at commit
    std::string text;
    int slot = -1;  ///< index in the interrupt handler's table
  };
  Entry& create(const std::string& option, const std::string& path, const std::string& dest, const std::string& suffix);
  void release(Entry& e);

  std::vector<std::string> m_inputs;  ///< canonical paths
  std::vector<Entry> m_entries;
  uint64_t m_limit = 0;
};

/// `--json -` on a command line: the JSON result goes to standard output, and what a command
/// prints for people goes to standard error (run_cli redirects it; set_json_stdout gives the plan
/// the real standard output).
bool json_to_stdout(int argc, const char* const* argv);
void set_json_stdout(std::ostream* out);

/// SIGHUP, SIGINT, SIGQUIT, SIGPIPE, SIGALRM, SIGTERM, SIGUSR1, SIGUSR2, SIGXCPU, SIGXFSZ,
/// SIGVTALRM and SIGPROF remove every planned temporary, print one line on stderr and exit
/// 128 + the signal's number (SIGHUP stays ignored when it was ignored on entry).
void install_interrupt_handlers();
/// Standard input, output and error that are closed get a read-only /dev/null in their place, so
/// that no file opened later takes their number and a write to them fails visibly.
void reserve_standard_streams();
/// Flushes standard output (std::cout, the --json - stream, C stdio); "" when everything printed
/// so far reached it, else the reason it did not.
std::string check_stdout();
/// Child process groups the interrupt handler stops too (SIGTERM to the group, then it waits for
/// the leader): tools started in a group of their own, such as the RTL build's compilers, whose
/// own children (the compiler proper, the assembler) a signal to the leader alone would leave
/// running. At most 64 at a time; add returns false when the table is full.
bool add_interruptible_group(int pgid);
void remove_interruptible_group(int pgid);
/// Starts argv (found on PATH) with the file actions `actions` (a posix_spawn_file_actions_t, or
/// null) as the leader of a process group of its own that the interrupt handler stops
/// (add_interruptible_group), signals held from before the start until the group is registered,
/// so that a stop in between cannot miss it; the child starts with the program's signal mask and
/// the default action for the stop signals, even where the program was started with them ignored.
/// Its pid, or -1 when it could not start (or the table of groups is full). The caller waits for it
/// (wait_stoppable), which takes it out of the table.
int spawn_stoppable(const std::vector<std::string>& argv, const void* actions);
/// Waits for a child of spawn_stoppable (retrying when a signal interrupts the wait) and takes its
/// group out of the interrupt handler's table; its wait status, or -1.
int wait_stoppable(int pid);
/// A directory the interrupt handler removes with its contents once the groups have stopped (a
/// build's temporary directory); "" for none.
void set_interrupt_scratch_dir(const std::string& dir);
/// Whether a progress line stands on standard error (a stop signal's note then clears it first).
void set_progress_shown(bool shown);

/// "" when `path` may name the output of `option`, else the reason with what is allowed: "-" is
/// standard output, which only --json writes (`--json -`); every other output is a file.
std::string stdout_path_error(const std::string& option, const std::string& path);

/// "4G", "512M", "100K", "1000000": bytes (K, M, G, T are powers of 1024); throws ConfigError.
uint64_t parse_size(const std::string& option, const std::string& text);

}  // namespace wormcast
