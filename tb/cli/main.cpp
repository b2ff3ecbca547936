// sc_main of the `wormcast` command-line program: installs the RTL routers this program was
// built with, then runs the CLI (tb/cli/cmd_run.cpp registers every sub-command).
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include <systemc>

#include "tb/cli/commands.h"
#include "tb/run/driver.h"
#ifdef WORMCAST_HAVE_RTL
#include "tb/rtl/rtl_network.h"
#endif

int sc_main(int argc, char* argv[]) {
#ifdef WORMCAST_HAVE_RTL
  wormcast::install_rtl_routers();
#endif
  // The network of the run is left for the process exit to reclaim (tb/run/driver.h), and the
  // exit skips destructors: every output is written and closed by now.
  wormcast::set_exit_after_run(true);
  const int rc = wormcast::run_cli(argc, argv);
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  std::_Exit(rc);
}

// The program's own entry point: silence the library banner before the kernel starts, then hand
// over to SystemC, which calls sc_main.
int main(int argc, char* argv[]) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
