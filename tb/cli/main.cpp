// sc_main of the `wormcast` command-line program: installs the RTL routers (built on demand),
// then runs the CLI (tb/cli/cmd_run.cpp registers every sub-command).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <new>

#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <systemc>

#include "tb/cli/commands.h"
#include "tb/run/driver.h"
#include "tb/rtl/rtl_network.h"

int sc_main(int argc, char* argv[]) {
  wormcast::install_rtl_routers();
  // The network of the run is left for the process exit to reclaim (tb/run/driver.h), and the
  // exit skips destructors: every output is written and closed by now.
  wormcast::set_exit_after_run(true);
  int rc = 0;
  try {
    rc = wormcast::run_cli(argc, argv);
  } catch (const std::exception& e) {
    // Every user error is exit 2 and every verdict of a run 0, 1, 3, 4 or 5; anything else that
    // reaches here (an exception of the simulation kernel or a library) is an internal error,
    // not a finding of the run: one line, then SIGABRT (exit 134), as a broken invariant of the
    // model ends (systemc/common/model_error.h). The planned outputs are gone by now.
    std::cout.flush();
    std::cerr << "wormcast: internal error: " << wormcast::one_line_message(e.what()) << std::endl;
    std::abort();
  }
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  std::_Exit(rc);
}

namespace {
// A network is hundreds of thousands of small objects (ports, signals, buffers) that the clock
// loop visits every cycle; on 4 KiB pages that is one page fault per page at elaboration and a TLB
// miss on most visits. The heap is therefore grown once by a large pad of address space (almost
// 2 GiB, the most the allocator's settings take; a 128x128 torus uses 1.4 GiB) and that range is
// marked for transparent huge pages (2 MiB), so that elaboration and the loop touch few, large
// pages. Memory is still committed only where touched, in 2 MiB steps. Larger blocks than the mmap
// threshold keep their own mappings. Where the heap cannot grow so (no overcommit) the allocator's
// defaults are restored; nothing happens where the calls are unsupported.
void reserve_huge_page_heap() {
  constexpr size_t kPad = (size_t(2) << 30) - (size_t(4) << 20);
  constexpr size_t kHuge = size_t(2) << 20;
  if (mallopt(M_MMAP_THRESHOLD, 32 << 20) != 1 || mallopt(M_TOP_PAD, int(kPad)) != 1) return;
  mallopt(M_TRIM_THRESHOLD, int(kPad));
  // Every run uses the first few MiB of the heap at once (the libraries' scratch heap, the
  // configuration, the first objects of the network). On small pages their first touch costs
  // microseconds per 4 KiB page on a virtual machine, even where the pages were committed ahead
  // (a 3 MiB block: about 5 ms), so they are put on huge pages too: the break is first moved up
  // to one page below a 2 MiB boundary (address space only, never touched; the allocator takes a
  // break it did not set as the start of a new top), so that the heap's growth below starts on
  // a huge-page boundary but for that page.
  const uintptr_t page = uintptr_t(sysconf(_SC_PAGESIZE));
  const uintptr_t brk0 = reinterpret_cast<uintptr_t>(sbrk(0));
  if (brk0 != uintptr_t(-1) && page < kHuge) {
    const uintptr_t target = ((brk0 + page + kHuge - 1) & ~uintptr_t(kHuge - 1)) - page;
    if (target > brk0) sbrk(intptr_t(target - brk0));
  }
  char* const lo = static_cast<char*>(sbrk(0));
  void* volatile block = std::malloc(kHuge);  // grows the heap by the pad (volatile: kept)
  std::free(block);
  char* const hi = static_cast<char*>(sbrk(0));
  // The heap grows by the pad less what its top held free already: half of it shows success.
  if (lo == reinterpret_cast<char*>(-1) || hi <= lo || size_t(hi - lo) < kPad / 2) {
    mallopt(M_TOP_PAD, 128 << 10);
    mallopt(M_TRIM_THRESHOLD, 128 << 10);
    return;
  }
  const uintptr_t start = (reinterpret_cast<uintptr_t>(lo) + kHuge - 1) & ~uintptr_t(kHuge - 1);
  const uintptr_t end = reinterpret_cast<uintptr_t>(hi) & ~uintptr_t(kHuge - 1);
  if (end <= start + kHuge) return;
  madvise(reinterpret_cast<void*>(start), end - start, MADV_HUGEPAGE);
  // Growing the heap wrote the allocator's record of its free top into the first 2 MiB, on a
  // small page, before the advice: that range is made one huge page now (MADV_COLLAPSE, Linux 6.1
  // and later). Where the kernel refuses, the first 4 MiB are committed in one call instead
  // (MADV_POPULATE_WRITE, Linux 5.14 and later), which spares their page faults but not the cost
  // of their first touch; older kernels refuse both and the pages are committed where touched.
  constexpr int kCollapse = 25;       // MADV_COLLAPSE, absent from older C headers
  constexpr int kPopulateWrite = 23;  // MADV_POPULATE_WRITE, likewise
  if (madvise(reinterpret_cast<void*>(start), kHuge, kCollapse) != 0) {
    const uintptr_t first = (reinterpret_cast<uintptr_t>(lo) + page - 1) & ~(page - 1);
    madvise(reinterpret_cast<void*>(first), std::min(size_t(4) << 20, size_t(end - first)), kPopulateWrite);
  }
}

/// The heap is prepared before its first C++ allocation: the libraries' static initializers
/// allocate too (the SystemC library a 3 MiB scratch heap that it clears at once, which on small
/// pages is hundreds of page faults before main), so the replaceable allocation functions below
/// prepare it on their first call.
void prepare_heap_once() {
  static bool done = false;
  if (done) return;
  done = true;
  reserve_huge_page_heap();
  // No fast bins: elaboration makes millions of small blocks and frees many of them again (names,
  // binding records), and with fast bins each larger request first merges every freed small block
  // back (a 128x128 torus's start: 4 % of its time). Nothing allocates in a loaded run's loop.
  mallopt(M_MXFAST, 0);
}

/// What the replaced allocation functions do besides preparing the heap: malloc, and on failure
/// the installed new-handler, as the standard ones.
void* allocate(std::size_t n) {
  prepare_heap_once();
  for (;;) {
    if (void* p = std::malloc(n ? n : 1)) return p;
    std::new_handler h = std::get_new_handler();
    if (!h) throw std::bad_alloc();
    h();
  }
}
}  // namespace

// The replaceable allocation functions allocate with malloc and free with free, a matched pair
// the compiler cannot see through the replacement (hence the warning it would give where a delete
// is inlined).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
void* operator new(std::size_t n) { return allocate(n); }
void* operator new[](std::size_t n) { return allocate(n); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
// The nothrow forms too (std::stable_sort's temporary buffer is one): every block this program
// frees with free() was allocated here, whichever form of new allocated it. (Where only the
// throwing forms were replaced, a library's own nothrow new, e.g. a sanitizer's, allocated a
// block that the replaced delete then freed with free().)
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  try {
    return allocate(n);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
  try {
    return allocate(n);
  } catch (...) {
    return nullptr;
  }
}
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
#pragma GCC diagnostic pop

// The program's own entry point: prepare the heap (if no allocation did), silence the library
// banner before the kernel starts, then hand over to SystemC, which calls sc_main.
int main(int argc, char* argv[]) {
  prepare_heap_once();
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
