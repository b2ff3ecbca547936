// The signal that carries a port wire between two modules: an sc_signal that, when its value
// changes, wakes its sleeping reader directly (one event per reader instead of one per wire).
#pragma once

#include <systemc>

namespace wormcast {

template <class T>
class LinkSignal : public sc_core::sc_signal<T> {
 public:
  explicit LinkSignal(const char* name) : sc_core::sc_signal<T>(name) {}
  /// The reader's wake event and its sleeping flag (set once, after elaboration).
  void set_reader(sc_core::sc_event* wake, const bool* sleeping) {
    m_wake = wake;
    m_sleeping = sleeping;
  }

 protected:
  void update() override {
    sc_core::sc_signal<T>::update();
    if (m_sleeping && *m_sleeping) m_wake->notify(sc_core::SC_ZERO_TIME);
  }

 private:
  sc_core::sc_event* m_wake = nullptr;
  const bool* m_sleeping = nullptr;
};

/// Registers a sleeping module's wake event with the signal behind an input port; a port bound
/// to another kind of signal (a test bench's) wakes it through its value-changed event instead.
template <class T>
void watch_input(sc_core::sc_in<T>& port, sc_core::sc_event* wake, const bool* sleeping,
                 sc_core::sc_event_or_list& fallback) {
  if (auto* link = dynamic_cast<LinkSignal<T>*>(port.get_interface()))
    link->set_reader(wake, sleeping);
  else
    fallback |= port->value_changed_event();
}

}  // namespace wormcast
