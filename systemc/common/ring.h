// A first-in first-out queue in one contiguous ring of a power-of-two number of slots: for the
// short delay lines of a port (a channel's flits in flight), whose length has a small bound. Unlike
// a deque it allocates nothing while it stays within its capacity, so its slots stay in the cache
// lines a port touches at every edge; above it, it grows (nothing is ever dropped).
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>
#include <vector>

namespace wormcast {

template <class T>
class Ring {
 public:
  /// Room for at least n values before the first growth (0: nothing allocated until the first
  /// value, for the queues of a large network that mostly stay empty).
  explicit Ring(size_t n = 1) {
    if (n > 0) m_slots.resize(round_up(n));
    m_cap = m_slots.size();
    m_mask = m_cap ? m_cap - 1 : 0;
  }

  bool empty() const { return m_count == 0; }
  size_t size() const { return m_count; }
  T& front() { return m_slots[m_head]; }
  const T& front() const { return m_slots[m_head]; }
  T& back() { return m_slots[(m_head + m_count - 1) & m_mask]; }
  /// The i-th value from the front.
  const T& operator[](size_t i) const { return m_slots[(m_head + i) & m_mask]; }
  /// A new last value, made of args (none: a value-initialized one, to be filled in place). A slot
  /// holding no value of a type that pop_front resets is already value-initialized, so it is not
  /// written again.
  template <class... Args>
  T& emplace_back(Args&&... args) {
    if (m_count == m_cap) grow();
    T& slot = m_slots[(m_head + m_count) & m_mask];
    if constexpr (sizeof...(Args) > 0 || std::is_trivially_destructible_v<T>) slot = T(std::forward<Args>(args)...);
    ++m_count;
    return slot;
  }
  /// Removes the front value (a slot holding resources is reset, so that they are released now).
  void pop_front() {
    if constexpr (!std::is_trivially_destructible_v<T>) m_slots[m_head] = T();
    m_head = (m_head + 1) & m_mask;
    --m_count;
  }

 private:
  static size_t round_up(size_t n) {
    size_t c = 1;
    while (c < n) c <<= 1;
    return c;
  }
  void grow() {
    std::vector<T> slots(m_slots.empty() ? 1 : m_slots.size() * 2);
    for (size_t i = 0; i < m_count; ++i) slots[i] = std::move(m_slots[(m_head + i) & m_mask]);
    m_slots = std::move(slots);
    m_cap = m_slots.size();
    m_mask = m_cap - 1;
    m_head = 0;
  }

  std::vector<T> m_slots;
  size_t m_head = 0, m_count = 0;
  /// The slots (a power of two, or 0) and slots - 1, kept: the vector's size costs a division.
  size_t m_cap = 0, m_mask = 0;
};

}  // namespace wormcast
