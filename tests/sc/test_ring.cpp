// The delay-line queue of the NIC port (systemc/common/ring.h): first in, first out across the
// ring's wrap and across a growth beyond its initial capacity.
#include <catch2/catch.hpp>

#include <deque>
#include <memory>
#include <random>
#include <utility>

#include "systemc/common/ring.h"

using namespace wormcast;

TEST_CASE("ring: first in first out across wraps and growth, as a deque") {
  Ring<std::pair<int, int>> ring(3);  // four slots
  std::deque<std::pair<int, int>> model;
  std::mt19937 rng(7);
  int next = 0;
  for (int step = 0; step < 20000; ++step) {
    // Mostly short (a delay line), sometimes long enough to grow the ring several times.
    const bool push = model.empty() || (rng() % 100) < (step % 2000 < 1000 ? 50u : 60u);
    if (push) {
      std::pair<int, int>& v = ring.emplace_back(next, -next);
      model.emplace_back(next, -next);
      ++next;
      REQUIRE(&v == &ring.back());
    } else {
      REQUIRE(ring.front() == model.front());
      ring.pop_front();
      model.pop_front();
    }
    REQUIRE(ring.size() == model.size());
    REQUIRE(ring.empty() == model.empty());
    if (!model.empty()) {
      REQUIRE(ring.front() == model.front());
      REQUIRE(ring.back() == model.back());
    }
  }
  CHECK(next > 10000);
}

TEST_CASE("ring: capacity 0 grows on its first value; [i] counts from the front; a popped value is released") {
  Ring<std::shared_ptr<int>> ring(0);
  REQUIRE(ring.empty());
  auto held = std::make_shared<int>(5);
  ring.emplace_back(held);
  for (int i = 0; i < 6; ++i) ring.emplace_back(std::make_shared<int>(i));
  REQUIRE(ring.size() == 7);
  REQUIRE(*ring[0] == 5);
  REQUIRE(*ring[6] == 5);
  REQUIRE(held.use_count() == 2);
  ring.pop_front();
  REQUIRE(held.use_count() == 1);  // the slot no longer holds it
  REQUIRE(*ring.front() == 0);
  REQUIRE(*ring[5] == 5);
}
