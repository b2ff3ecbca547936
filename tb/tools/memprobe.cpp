// memprobe: what reading a large array costs the machine per 64-byte line, by access pattern:
// a forward stream, independent reads of L lines of each 4 KiB page (pages in random or in
// ascending order, the lines of a page in random order), and a chain of dependent reads. The
// numbers behind docs/experiments/speed.md "Scale": a large network's edge pays per scattered line.
// Output: CSV on standard output (pattern,pages,order,lines_per_page,reads,ns_per_line).
#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace {

using Clock = std::chrono::steady_clock;

double ns_since(Clock::time_point t0) { return std::chrono::duration<double, std::nano>(Clock::now() - t0).count(); }

/// A read the compiler must make.
uint64_t read_at(const char* a, uint64_t off) { return *reinterpret_cast<const volatile uint64_t*>(a + off); }

void row(const char* pattern, const std::string& pages, const char* order, int per_page, size_t reads, double ns) {
  std::printf("%s,%s,%s,%d,%zu,%.2f\n", pattern, pages.c_str(), order, per_page, reads, ns / double(reads));
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"memprobe: the cost of a 64-byte line read from a large array, by access pattern (CSV)"};
  size_t mib = 1024;
  std::string pages = "huge";
  uint64_t reads = 8'000'000;
  app.add_option("--mib", mib, "array size in MiB")->check(CLI::Range(size_t(64), size_t(65536)));
  app.add_option("--pages", pages, "huge: the array advised onto 2 MiB pages; small: 4 KiB pages")
      ->check(CLI::IsMember({"huge", "small"}));
  app.add_option("--reads", reads, "reads per pattern (at most)")->check(CLI::Range(uint64_t(1000), uint64_t(1) << 30));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);
    std::cerr << "memprobe: " << e.what() << "; allowed: --mib 64..65536, --pages huge|small, --reads 1000..2^30\n";
    return 2;
  }
  const size_t bytes = mib << 20, lines = bytes / 64, page_count = bytes / 4096;
  auto* a = static_cast<char*>(mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  if (a == MAP_FAILED) {
    std::cerr << "memprobe: cannot map " << mib << " MiB\n";
    return 1;
  }
  madvise(a, bytes, pages == "huge" ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
  std::memset(a, 1, bytes);
  std::mt19937_64 rng(1);
  std::printf("pattern,pages,order,lines_per_page,reads,ns_per_line\n");

  {  // forward stream: one 8-byte read per line, in address order
    const size_t n = std::min<size_t>(lines, reads);
    const auto t0 = Clock::now();
    for (size_t i = 0; i < n; ++i) read_at(a, i * 64);
    row("stream", pages, "ascending", 64, n, ns_since(t0));
  }

  for (const bool ascending : {false, true}) {
    std::vector<uint32_t> order(page_count);
    for (size_t i = 0; i < page_count; ++i) order[i] = uint32_t(i);
    if (!ascending) std::shuffle(order.begin(), order.end(), rng);
    for (const int per_page : {1, 2, 4, 8, 16, 32, 64}) {
      const size_t n_pages = std::min<size_t>(page_count, reads / uint64_t(per_page));
      std::vector<uint64_t> at;  // byte offset of each read
      at.reserve(n_pages * size_t(per_page));
      for (size_t i = 0; i < n_pages; ++i) {
        uint64_t used = 0;  // per_page distinct lines of the page, in random order
        for (int k = 0; k < per_page; ++k) {
          int line;
          do line = int(rng() & 63);
          while (used >> line & 1);
          used |= uint64_t(1) << line;
          at.push_back(uint64_t(order[i]) * 4096 + uint64_t(line) * 64);
        }
      }
      const auto t0 = Clock::now();
      for (const uint64_t off : at) read_at(a, off);
      row("independent", pages, ascending ? "ascending" : "random", per_page, at.size(), ns_since(t0));
    }
  }

  {  // dependent chain: each read's line holds the offset of the next, a random cycle over lines
    const size_t n = std::min<size_t>(lines, reads / 4);
    std::vector<uint64_t> cycle(lines);
    for (size_t i = 0; i < lines; ++i) cycle[i] = i;
    std::shuffle(cycle.begin(), cycle.end(), rng);
    for (size_t i = 0; i < lines; ++i) *reinterpret_cast<uint64_t*>(a + cycle[i] * 64) = cycle[(i + 1) % lines] * 64;
    uint64_t off = cycle[0] * 64;
    const auto t0 = Clock::now();
    for (size_t i = 0; i < n; ++i) off = read_at(a, off);
    row("chain", pages, "random", 1, n, ns_since(t0));
  }
  munmap(a, bytes);
  return 0;
}
