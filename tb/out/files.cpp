// The result identity block and quiet helper processes.
#include "tb/out/files.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include "systemc/common/version.h"
#include "tb/out/output_plan.h"

namespace wormcast {

nlohmann::json result_identity(const std::string& command) {
  return {{"command", command}, {"format", 1}, {"version", version()}, {"commit", commit()}};
}

int run_quietly(const std::vector<std::string>& argv) {
  std::vector<char*> args;
  for (auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  // In a process group of its own, which an interrupt of this program stops with it
  // (output_plan.h): a converter must not run on after the run it serves was stopped.
  posix_spawnattr_t at;
  posix_spawnattr_init(&at);
  posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&at, 0);
  pid_t pid;
  const int err = posix_spawnp(&pid, args[0], &fa, &at, args.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&at);
  if (err != 0) return -1;
  const bool stoppable = add_interruptible_group(int(pid));
  int status = 0;
  const pid_t waited = waitpid(pid, &status, 0);
  if (stoppable) remove_interruptible_group(int(pid));
  if (waited < 0) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string strip_suffix(std::string s, const std::string& suffix) {
  if (s.size() > suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0)
    s.resize(s.size() - suffix.size());
  return s;
}

}  // namespace wormcast
