// sc_main of the `wormcast` command-line program: installs the RTL routers this program was
// built with, then runs the CLI (tb/cli/cmd_run.cpp registers every sub-command).
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

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

namespace {
// A network is hundreds of thousands of small objects (ports, signals, buffers) that the clock
// loop visits every cycle; on 4 KiB pages that is one page fault per page at elaboration and a TLB
// miss on most visits. The heap is therefore grown once by a large pad and that range is marked
// for transparent huge pages (2 MiB), so that elaboration and the loop touch few, large pages.
// Memory is still committed only where touched, in 2 MiB steps. Larger blocks than the mmap
// threshold keep their own mappings. Nothing happens where the calls are unsupported.
void reserve_huge_page_heap() {
  constexpr size_t kPad = size_t(256) << 20;
  constexpr size_t kHuge = size_t(2) << 20;
  if (mallopt(M_MMAP_THRESHOLD, 32 << 20) != 1 || mallopt(M_TOP_PAD, int(kPad)) != 1) return;
  mallopt(M_TRIM_THRESHOLD, int(kPad));
  char* const lo = static_cast<char*>(sbrk(0));
  void* volatile block = std::malloc(kHuge);  // grows the heap by the pad (volatile: kept)
  std::free(block);
  char* const hi = static_cast<char*>(sbrk(0));
  if (lo == reinterpret_cast<char*>(-1) || hi <= lo) return;
  const uintptr_t start = (reinterpret_cast<uintptr_t>(lo) + kHuge - 1) & ~uintptr_t(kHuge - 1);
  const uintptr_t end = reinterpret_cast<uintptr_t>(hi) & ~uintptr_t(kHuge - 1);
  if (end > start) madvise(reinterpret_cast<void*>(start), end - start, MADV_HUGEPAGE);
}
}  // namespace

// The program's own entry point: prepare the heap, silence the library banner before the kernel
// starts, then hand over to SystemC, which calls sc_main.
int main(int argc, char* argv[]) {
  reserve_huge_page_heap();
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
