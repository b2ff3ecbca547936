// The signal that carries a port wire between two modules: a primitive channel with the
// semantics of sc_signal (a write is seen after the update phase), made lean for the clock loop:
// no writer-process check on every write, and its value-changed event exists only when something
// asks for it. When its value is updated it wakes its sleeping reader directly (one wake per
// reader instead of one event per wire). The links of a network share one LinkBank, which takes
// one update request per delta cycle for all the links written in it instead of one per link.
//
// Mailbox mode (set_boxed, docs/kernel.md): a network whose links all join two
// edge-set members of its own, with nothing else watching them (no waveform, no RTL router), and
// that runs its edges in one thread, turns them into mailboxes: a value written at the edge of cycle t goes straight into the link's box
// t mod 2 and sets the reader's valid bit for that parity; the reader takes the box of the cycle it
// samples at its next edge and clears the bits. A box holds a value for one cycle, so nothing is
// written for an idle output, and no update phase runs.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <systemc>

#include "systemc/kernel/edge_set.h"
#include "systemc/kernel/lanes.h"

namespace wormcast {

template <class T>
class LinkSignal;

/// The update phase of many links: one primitive channel that asks for one update per delta cycle
/// and then commits every value written to its links in that delta. The values wait in one queue
/// per value type (LinkQueue), so a write touches only the queue. With lanes (set_lanes), each
/// value waits in the list of its writer's lane and its reader's lane, and while the network is
/// busy each lane commits the values its own readers take, so that a link's state stays with the
/// thread that reads it (docs/kernel.md).
class LinkBank : public sc_core::sc_prim_channel {
 public:
  explicit LinkBank(const char* name) : sc_core::sc_prim_channel(name) {}
  /// A queue has its first value of this delta cycle.
  void wake_up() {
    if (!m_requested) {
      m_requested = true;
      request_update();
    }
  }
  struct Queue {
    virtual ~Queue() = default;
    /// Commits the values for readers of lane r, from every writer lane.
    virtual void commit(int r, sc_dt::uint64 stamp) = 0;
    virtual void set_lanes(int lanes) = 0;
  };
  void add(Queue* q) {
    m_queues.push_back(q);
    q->set_lanes(m_set ? m_set->lanes() : 1);
  }
  /// The links' readers run in `set`, whose lanes commit their values when it runs in lanes.
  void set_lanes(EdgeSet* set) {
    m_set = set;
    for (Queue* q : m_queues) q->set_lanes(set->lanes());
  }

 protected:
  void update() override {
    m_requested = false;
    m_stamp = simcontext()->change_stamp();
    if (m_set && m_set->busy()) {
      m_set->run_job(&LinkBank::commit_lane, this);
      return;
    }
    const int lanes = m_set ? m_set->lanes() : 1;
    for (int r = 0; r < lanes; ++r)
      for (Queue* q : m_queues) q->commit(r, m_stamp);
  }

 private:
  static void commit_lane(void* bank, int r) {
    auto* b = static_cast<LinkBank*>(bank);
    for (Queue* q : b->m_queues) q->commit(r, b->m_stamp);
  }
  bool m_requested = false;
  sc_dt::uint64 m_stamp = 0;
  EdgeSet* m_set = nullptr;
  std::vector<Queue*> m_queues;
};

/// The values written to a bank's links of one type in this delta cycle, in one list per writer
/// lane and reader lane (systemc/kernel/lanes.h); each list in the order written. A link has one
/// writer, so the order among lists changes nothing a reader sees.
template <class T>
class LinkQueue : public LinkBank::Queue {
 public:
  explicit LinkQueue(LinkBank& bank) : m_bank(bank) { bank.add(this); }
  /// The slot of a new value for `link`, to be filled in place by the caller. (A lane other than 0
  /// does not ask for the update: its edge set asked before the lanes started.)
  inline T& stage(LinkSignal<T>* link);
  void push(LinkSignal<T>* link, const T& v) { stage(link) = v; }
  inline void commit(int r, sc_dt::uint64 stamp) override;
  void set_lanes(int lanes) override {
    m_lanes = lanes;
    m_list.assign(size_t(lanes) * size_t(lanes), List{});
  }

 private:
  struct Pending {
    LinkSignal<T>* link;
    T value;
  };
  struct alignas(64) List {
    std::vector<Pending> pending;  ///< [0, size): this delta cycle's values
    size_t size = 0;
  };
  LinkBank& m_bank;
  int m_lanes = 1;
  std::vector<List> m_list = std::vector<List>(1);  ///< [writer lane * m_lanes + reader lane]
};

template <class T>
class LinkSignal : public sc_core::sc_signal_inout_if<T>, public sc_core::sc_prim_channel {
 public:
  explicit LinkSignal(const char* name) : sc_core::sc_prim_channel(name) {}

  /// The reader's sleep state (set once, after elaboration).
  void set_reader(Waker* reader) { m_reader = reader; }
  void start_of_simulation() override {
    m_reader_lane = m_queue && m_reader && m_reader->set && !m_changed ? m_reader->set->lane_of(m_reader->member) : 0;
  }
  /// Updates through this queue from now on (set before the simulation starts).
  void set_queue(LinkQueue<T>* queue) { m_queue = queue; }
  LinkQueue<T>* queue() const { return m_queue; }

  /// Keeps bit `bit` of mask[0] equal to the value's `valid` field from now on (the reader's set of
  /// valid inputs, so that it need not read the idle ones). In mailbox mode bit `bit` of mask[p]
  /// says that box p holds a value the reader has not taken: mask points to two words.
  void set_valid_mask(uint32_t* mask, uint32_t bit) {
    m_mask = mask;
    m_bit = bit;
    if (cur().valid) *m_mask |= m_bit;
  }

  /// Mailbox mode from now on (before the simulation starts; the reader's valid mask set). Only
  /// for a network that runs its edges in one thread.
  void set_boxed() { m_boxed = true; }
  bool boxed() const { return m_boxed; }
  /// Mailbox mode: the value written in a cycle of parity p (valid while the reader's bit p is set).
  /// Otherwise box 0 is the committed value.
  const T& box(int p) const { return m_box[p]; }
  /// Mailbox mode: what a writer needs to fill the box of an edge's parity, set the reader's bit
  /// and wake a sleeping reader (LinkWriter::box), which it keeps.
  T* boxes() { return m_box; }
  uint32_t* valid_mask() const { return m_mask; }
  uint32_t valid_bit() const { return m_bit; }
  Waker* reader() const { return m_reader; }

  /// The committed value (in mailbox mode: not kept; nothing reads it then).
  const T& read() const override { return cur(); }
  const T& get_data_ref() const override { return cur(); }
  /// True in the delta cycle right after the value changed (as sc_signal's event()).
  bool event() const override { return simcontext()->event_occurred(m_change_stamp); }
  const sc_core::sc_event& value_changed_event() const override {
    if (!m_changed) m_changed = std::make_unique<sc_core::sc_event>();
    return *m_changed;
  }
  const sc_core::sc_event& default_event() const override { return value_changed_event(); }
  /// One module drives each wire (the network builder binds it so). The last write of a delta
  /// cycle is the value; through a queue, earlier writes of the same delta are committed before it
  /// (the reader may be woken once more).
  void write(const T& v) override {
    if (m_queue) {
      m_queue->push(this, v);
    } else {
      m_new = v;
      request_update();
    }
  }
  const char* kind() const override { return "wormcast::LinkSignal"; }
  /// The lane that commits this link's values: its reader's lane in a set that runs in lanes; 0
  /// when its reader is woken through an event or something waits on its value-changed event
  /// (those are kernel calls, made on the SystemC thread only).
  int reader_lane() const { return m_reader_lane; }

  /// The new value v takes effect (stamp: the kernel's change stamp of this update phase).
  void commit(const T& v, sc_dt::uint64 stamp) {
    if (!(v == cur())) {
      cur() = v;
      m_change_stamp = stamp;
      if (m_mask) *m_mask = v.valid ? *m_mask | m_bit : *m_mask & ~m_bit;
      if (m_changed) m_changed->notify(sc_core::SC_ZERO_TIME);
    }
    if (m_reader && m_reader->sleeping) m_reader->wake();
  }

 protected:
  void update() override { commit(m_new, simcontext()->change_stamp()); }

 private:
  T& cur() { return m_box[0]; }
  const T& cur() const { return m_box[0]; }
  // What a write in mailbox mode, or the update phase, touches, in one cache line: the committed
  // value is box 0.
  alignas(64) T m_box[2]{};
  uint32_t* m_mask = nullptr;
  Waker* m_reader = nullptr;
  uint32_t m_bit = 0;
  bool m_boxed = false;
  sc_dt::uint64 m_change_stamp = ~sc_dt::uint64(0);
  mutable std::unique_ptr<sc_core::sc_event> m_changed;
  // Cold (read-only while the simulation runs): a link without a queue (a test bench's), the queue
  // and the lane whose thread commits this link's values.
  T m_new{};
  LinkQueue<T>* m_queue = nullptr;
  int m_reader_lane = 0;
};

template <class T>
T& LinkQueue<T>::stage(LinkSignal<T>* link) {
  List& l = m_list[size_t(t_lane * m_lanes + link->reader_lane())];
  if (l.size == 0 && t_lane == 0) m_bank.wake_up();
  if (l.size == l.pending.size()) l.pending.resize(l.pending.size() * 2 + 16);
  Pending& p = l.pending[l.size++];
  p.link = link;
  return p.value;
}

template <class T>
void LinkQueue<T>::commit(int r, sc_dt::uint64 stamp) {
  for (int w = 0; w < m_lanes; ++w) {
    List& l = m_list[size_t(w * m_lanes + r)];
    for (size_t i = 0; i < l.size; ++i) l.pending[i].link->commit(l.pending[i].value, stamp);
    l.size = 0;
  }
}

/// How a module writes an output port: into the queue of the LinkSignal bound to it (without
/// touching the link), or through the interface of another kind of signal (a test bench's).
/// What a write into a mailbox tells its reader: `bit` of the reader's valid mask word of parity
/// `par` is set and a sleeping reader is woken; with `shared` (the reader has writers in another
/// lane) atomically while lanes run, else with a plain operation (docs/kernel.md).
inline void mark_box(uint32_t* masks, int par, uint32_t bit, Waker* reader, bool shared) {
  if (shared && g_lanes_running) {
    __atomic_fetch_or(&masks[par], bit, __ATOMIC_RELAXED);
    if (reader->is_sleeping()) reader->wake();
  } else {
    masks[par] |= bit;
    if (reader->sleeping) reader->wake();
  }
}

template <class T>
class LinkWriter {
 public:
  /// The writer of a bound output port (after elaboration); false when it is not bound to a signal.
  bool bind(sc_core::sc_out<T>& port) {
    m_sig = std::make_unique<Signal>();
    m_sig->any = dynamic_cast<sc_core::sc_signal_inout_if<T>*>(port.get_interface());
    m_sig->link = dynamic_cast<LinkSignal<T>*>(m_sig->any);
    m_sig->queue = m_sig->link ? m_sig->link->queue() : nullptr;
    refresh();
    return m_sig->any != nullptr;
  }
  /// The link's mode may have changed (to mailbox) since bind(). In mailbox mode the writer keeps
  /// its own copy of what staging a value needs (the boxes, the reader's mask, bit and sleep state),
  /// so that a write does not first wait for the link's line to read where they are.
  void refresh() {
    LinkSignal<T>* link = m_sig ? m_sig->link : nullptr;
    m_boxed = link && link->boxed();
    if (!m_boxed) return;
    m_boxes = link->boxes();
    m_mask = link->valid_mask();
    m_bit = link->valid_bit();
    m_reader = link->reader();
  }
  /// Mailbox mode without a LinkSignal (a network built with plain links, docs/kernel.md): the
  /// link's two boxes, its reader's valid masks (two words, one per parity), the reader's
  /// bit in them and its waker.
  void attach_boxes(T* boxes, uint32_t* mask, uint32_t bit, Waker* reader) {
    m_boxed = true;
    m_boxes = boxes;
    m_mask = mask;
    m_bit = bit;
    m_reader = reader;
  }
  /// Mailbox mode, edges run in lanes: the reader also has writers in another lane, which set bits
  /// of the same mask words in the same edge; every writer of such a reader sets its bit with an
  /// atomic operation while lanes run (g_lanes_running), and with a plain one in an edge run in one
  /// thread, where a locked operation would only wait for the stores before it (docs/kernel.md).
  void set_shared(bool shared) { m_shared = shared; }
  /// A write of v. In mailbox mode an invalid value is no write (a box holds a value for one cycle).
  void write(const T& v) {
    if (m_boxed) {
      if (v.valid) box() = v;
    } else if (m_sig->queue) {
      m_sig->queue->push(m_sig->link, v);
    } else {
      m_sig->any->write(v);
    }
  }
  /// Writes go into a link queue or box (not through a signal's interface).
  bool queued() const { return m_boxed || (m_sig && m_sig->queue); }
  /// A write built in place: fill the value begin() returns, then call end(). (Filling a value
  /// field by field and copying it whole would stall the copy on the partial stores.)
  T& begin() { return m_boxed ? box() : m_sig->queue ? m_sig->queue->stage(m_sig->link) : m_sig->scratch; }
  void end() {
    if (!m_boxed && !m_sig->queue) m_sig->any->write(m_sig->scratch);
  }
  /// begin() and end() for a caller compiled once per link mode (a module that runs one
  /// copy of its edge per mode): with Boxed (the writer is known to be in mailbox mode) the value
  /// is built in the box of this edge's parity with no branch on the mode and nothing to do after;
  /// without, as the plain calls.
  template <bool Boxed>
  T& begin_as() {
    if constexpr (Boxed)
      return box();
    else
      return begin();
  }
  template <bool Boxed>
  void end_as() {
    if constexpr (!Boxed) end();
  }

 private:
  /// Mailbox mode: the box of this edge's parity; the reader's bit for that parity is set and a
  /// sleeping reader woken.
  T& box() {
    const int p = g_edge_parity;
    mark_box(m_mask, p, m_bit, m_reader, m_shared);
    return m_boxes[p];
  }

  // Mailbox mode: what a write reads, 40 bytes (a router of a large network has 16 writers and its
  // NIC port 8, and a busy router's edge reads most of them).
  T* m_boxes = nullptr;
  uint32_t* m_mask = nullptr;
  Waker* m_reader = nullptr;
  uint32_t m_bit = 0;
  bool m_boxed = false;
  bool m_shared = false;  ///< the reader's masks are written from several lanes at once
  /// A writer bound to a signal (bind): the signal, its queue and a scratch value for another kind
  /// of signal. None for plain links (attach_boxes).
  struct Signal {
    T scratch{};
    LinkQueue<T>* queue = nullptr;
    LinkSignal<T>* link = nullptr;
    sc_core::sc_signal_inout_if<T>* any = nullptr;
  };
  std::unique_ptr<Signal> m_sig;
};

/// Mailbox mode: val[p][i] = the box of parity p of the link bound to ports[i]; false when one of
/// them is not a mailbox link.
template <class T, class Ports>
bool point_at_boxes(Ports& ports, std::vector<const T*> (&val)[2]) {
  for (int b = 0; b < 2; ++b) {
    val[b].clear();
    for (auto& port : ports) {
      const auto* link = dynamic_cast<const LinkSignal<T>*>(port.get_interface());
      if (!link || !link->boxed()) return false;
      val[b].push_back(&link->box(b));
    }
  }
  return true;
}

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
