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
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  // Stopped with this program (output_plan.h): a converter must not run on after the run it serves
  // was stopped.
  const int pid = spawn_stoppable(argv, &fa);
  posix_spawn_file_actions_destroy(&fa);
  if (pid < 0) return -1;
  const int status = wait_stoppable(pid);
  return status >= 0 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string strip_suffix(std::string s, const std::string& suffix) {
  if (s.size() > suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0)
    s.resize(s.size() - suffix.size());
  return s;
}

}  // namespace wormcast
