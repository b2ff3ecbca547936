// The signal that carries a port wire between two modules: a primitive channel with the
// semantics of sc_signal (a write is seen after the update phase), made lean for the clock loop:
// no writer-process check on every write, and its value-changed event exists only when something
// asks for it. When its value is updated it wakes its sleeping reader directly (one wake per
// reader instead of one event per wire). The links of a network share one LinkBank, which takes
// one update request per delta cycle for all the links written in it instead of one per link.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <systemc>

#include "systemc/common/edge_set.h"

namespace wormcast {

/// The update phase of many links: a written link is marked once, and the bank's one update
/// commits every marked link.
class LinkBank : public sc_core::sc_prim_channel {
 public:
  explicit LinkBank(const char* name) : sc_core::sc_prim_channel(name) {}
  template <class L>
  void mark(L* link) {
    if (m_dirty.empty()) request_update();
    m_dirty.push_back(Dirty{link, &commit_of<L>});
  }

 protected:
  void update() override {
    for (const Dirty& d : m_dirty) d.commit(d.link);
    m_dirty.clear();
  }

 private:
  template <class L>
  static void commit_of(void* link) {
    static_cast<L*>(link)->commit();
  }
  struct Dirty {
    void* link;
    void (*commit)(void*);
  };
  std::vector<Dirty> m_dirty;
};

template <class T>
class LinkSignal : public sc_core::sc_signal_inout_if<T>, public sc_core::sc_prim_channel {
 public:
  explicit LinkSignal(const char* name) : sc_core::sc_prim_channel(name) {}

  /// The reader's sleep state (set once, after elaboration).
  void set_reader(Waker* reader) { m_reader = reader; }
  /// Updates through this bank from now on (set before the simulation starts).
  void set_bank(LinkBank* bank) { m_bank = bank; }

  /// Keeps bit `bit` of *mask equal to the value's `valid` field from now on (the reader's set of
  /// valid inputs, so that it need not read the idle ones).
  void set_valid_mask(uint32_t* mask, uint32_t bit) {
    m_mask = mask;
    m_bit = bit;
    if (m_cur.valid) *m_mask |= m_bit;
  }

  const T& read() const override { return m_cur; }
  const T& get_data_ref() const override { return m_cur; }
  /// True in the delta cycle right after the value changed (as sc_signal's event()).
  bool event() const override { return simcontext()->event_occurred(m_change_stamp); }
  const sc_core::sc_event& value_changed_event() const override {
    if (!m_changed) m_changed = std::make_unique<sc_core::sc_event>();
    return *m_changed;
  }
  const sc_core::sc_event& default_event() const override { return value_changed_event(); }
  /// One module drives each wire (the network builder binds it so); a second write in the same
  /// delta cycle replaces the first, as the last write to an sc_signal does.
  void write(const T& v) final {
    m_new = v;
    if (!m_bank) {
      request_update();
    } else if (!m_marked) {
      m_marked = true;
      m_bank->mark(this);
    }
  }
  const char* kind() const override { return "wormcast::LinkSignal"; }

  /// The update of this link (its bank's, or its own update phase).
  void commit() {
    m_marked = false;
    if (!(m_new == m_cur)) {
      m_cur = m_new;
      m_change_stamp = simcontext()->change_stamp();
      if (m_mask) *m_mask = m_cur.valid ? *m_mask | m_bit : *m_mask & ~m_bit;
      if (m_changed) m_changed->notify(sc_core::SC_ZERO_TIME);
    }
    if (m_reader && m_reader->sleeping) m_reader->wake();
  }

 protected:
  void update() override { commit(); }

 private:
  T m_cur{}, m_new{};
  sc_dt::uint64 m_change_stamp = ~sc_dt::uint64(0);
  mutable std::unique_ptr<sc_core::sc_event> m_changed;
  Waker* m_reader = nullptr;
  LinkBank* m_bank = nullptr;
  bool m_marked = false;
  uint32_t* m_mask = nullptr;
  uint32_t m_bit = 0;
};

/// How a module writes an output port: straight to the LinkSignal bound to it (no virtual call),
/// or through the interface of another kind of signal (a test bench's).
template <class T>
class LinkWriter {
 public:
  /// The writer of a bound output port (after elaboration); false when it is not bound to a signal.
  bool bind(sc_core::sc_out<T>& port) {
    m_any = dynamic_cast<sc_core::sc_signal_inout_if<T>*>(port.get_interface());
    m_link = dynamic_cast<LinkSignal<T>*>(m_any);
    return m_any != nullptr;
  }
  void write(const T& v) const {
    if (m_link)
      m_link->write(v);
    else
      m_any->write(v);
  }

 private:
  LinkSignal<T>* m_link = nullptr;
  sc_core::sc_signal_inout_if<T>* m_any = nullptr;
};

/// Registers a module's waker with the signal behind an input port; a port bound to another kind
/// of signal (a test bench's) wakes it through its value-changed event in `fallback` instead.
/// valid_mask (optional): keep *valid_mask's bit valid_bit equal to the input's valid field;
/// returns false when the port is bound to another kind of signal, which cannot.
template <class T>
bool watch_input(sc_core::sc_in<T>& port, Waker* waker, sc_core::sc_event_or_list& fallback,
                 uint32_t* valid_mask = nullptr, uint32_t valid_bit = 0) {
  if (auto* link = dynamic_cast<LinkSignal<T>*>(port.get_interface())) {
    link->set_reader(waker);
    if (valid_mask) link->set_valid_mask(valid_mask, valid_bit);
    return true;
  }
  fallback |= port->value_changed_event();
  return false;
}

}  // namespace wormcast
