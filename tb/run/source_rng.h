// One traffic source's random stream (traffic.rng): a handle on either its 64-bit Mersenne twister
// or its counter-based generator, usable wherever the standard distributions take a generator.
#pragma once

#include <cmath>
#include <cstdint>
#include <random>

namespace wormcast {

class SourceRng {
 public:
  using result_type = uint64_t;
  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return ~uint64_t(0); }
  /// The twister's numbers, exactly as the twister itself gives them to a distribution (the same
  /// range: every standard distribution draws the same values through the handle).
  explicit SourceRng(std::mt19937_64* twister) : m_twister(twister) {}
  /// The counter-based generator whose state is *counter.
  explicit SourceRng(uint64_t* counter) : m_counter(counter) {}
  result_type operator()() { return m_twister ? (*m_twister)() : next(*m_counter); }

  /// A uniform double in [0, 1): the value std::uniform_real_distribution<double>(0, 1) and
  /// std::generate_canonical<double, 53> give on this generator (libstdc++: one number x, x / 2^64
  /// rounded to nearest, a value that rounds up to 1 taken to the largest double below 1), from the
  /// same one draw, inline and without a branch on x's top bit: x's two halves convert exactly and
  /// their sum rounds once, as the conversion of x does.
  double uniform01() { return unit_of((*this)()); }
  /// uniform01's value for the number x.
  static double unit_of(uint64_t x) {
    const double v = (double(uint32_t(x >> 32)) * 0x1p32 + double(uint32_t(x))) * 0x1p-64;
    return v < 1.0 ? v : 0x1.fffffffffffffp-1;
  }

  /// Cycles until the next arrival of a Bernoulli process of per-cycle probability p (geometric,
  /// >= 1), log_q = log1p(-p): one uniform01 draw when 0 < p < 1, none otherwise; a rate so small
  /// that the gap exceeds any run (or is not a number) gives "never" (2^63 - 1).
  uint64_t bernoulli_gap(double p, double log_q) {
    if (p <= 0) return ~uint64_t(0) / 2;
    if (p >= 1) return 1;
    const double gap = std::floor(std::log1p(-uniform01()) / log_q);
    if (!(gap < 0x1p62)) return ~uint64_t(0) / 2;
    return 1 + uint64_t(gap);
  }

  /// The counter-based generator (SplitMix64): the state advances by a fixed odd constant and each
  /// number is the state's mix, so a source's k-th number is mix(start + k * gamma).
  static uint64_t mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  static uint64_t next(uint64_t& state) { return mix(state += 0x9e3779b97f4a7c15ULL); }
  /// The start state of source `node`'s counter-based stream under seed `seed`.
  static uint64_t start(uint64_t seed, uint64_t node) { return mix(mix(seed ^ 0x5eed) + node * 0xd1b54a32d192ed03ULL); }

 private:
  std::mt19937_64* m_twister = nullptr;
  uint64_t* m_counter = nullptr;
};

}  // namespace wormcast
