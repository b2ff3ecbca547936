// The entry point of the lockstep programs (wc_lockstep, wc_mway_lockstep): the library's banner
// silenced before the kernel starts, as the wormcast program's own entry point does, so that a
// refusal is one line on standard error and a result says only what it found; then SystemC, which
// calls the program's sc_main.
#include <cstdlib>

#include <systemc>

int main(int argc, char* argv[]) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
