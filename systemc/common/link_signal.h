// The signal that carries a port wire between two modules: a primitive channel with the
// semantics of sc_signal (a write is seen after the update phase), made lean for the clock loop:
// no writer-process check on every write, and its value-changed event exists only when something
// asks for it. When its value is updated it wakes its sleeping reader directly (one event per
// reader instead of one per wire).
#pragma once

#include <cstdint>
#include <memory>

#include <systemc>

namespace wormcast {

template <class T>
class LinkSignal : public sc_core::sc_signal_inout_if<T>, public sc_core::sc_prim_channel {
 public:
  explicit LinkSignal(const char* name) : sc_core::sc_prim_channel(name) {}

  /// The reader's wake event and its sleeping flag (set once, after elaboration).
  void set_reader(sc_core::sc_event* wake, const bool* sleeping) {
    m_wake = wake;
    m_sleeping = sleeping;
  }

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
  void write(const T& v) override {
    m_new = v;
    request_update();
  }
  const char* kind() const override { return "wormcast::LinkSignal"; }

 protected:
  void update() override {
    if (!(m_new == m_cur)) {
      m_cur = m_new;
      m_change_stamp = simcontext()->change_stamp();
      if (m_mask) *m_mask = m_cur.valid ? *m_mask | m_bit : *m_mask & ~m_bit;
      if (m_changed) m_changed->notify(sc_core::SC_ZERO_TIME);
    }
    if (m_sleeping && *m_sleeping) m_wake->notify(sc_core::SC_ZERO_TIME);
  }

 private:
  T m_cur{}, m_new{};
  sc_dt::uint64 m_change_stamp = ~sc_dt::uint64(0);
  mutable std::unique_ptr<sc_core::sc_event> m_changed;
  sc_core::sc_event* m_wake = nullptr;
  const bool* m_sleeping = nullptr;
  uint32_t* m_mask = nullptr;
  uint32_t m_bit = 0;
};

/// Registers a sleeping module's wake event with the signal behind an input port; a port bound
/// to another kind of signal (a test bench's) wakes it through its value-changed event instead.
/// valid_mask (optional): keep *valid_mask's bit valid_bit equal to the input's valid field;
/// returns false when the port is bound to another kind of signal, which cannot.
template <class T>
bool watch_input(sc_core::sc_in<T>& port, sc_core::sc_event* wake, const bool* sleeping,
                 sc_core::sc_event_or_list& fallback, uint32_t* valid_mask = nullptr, uint32_t valid_bit = 0) {
  if (auto* link = dynamic_cast<LinkSignal<T>*>(port.get_interface())) {
    link->set_reader(wake, sleeping);
    if (valid_mask) link->set_valid_mask(valid_mask, valid_bit);
    return true;
  }
  fallback |= port->value_changed_event();
  return false;
}

}  // namespace wormcast
