// The m-way family: configuration rules, the NIC port adapter, delivery bridging and registration.
#include "systemc/mway/network.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "systemc/common/clock.h"
#include "systemc/common/config_keys.h"
#include "systemc/common/limits.h"
#include "systemc/mway/config.h"

namespace wormcast {

MwayParams mway_params(const Config& cfg) {
  const MwayConfig& m = cfg.part<MwayConfig>();
  MwayParams p;
  p.radix = cfg.net.radix;
  p.algorithm = parse_mway_algorithm(m.algo);
  p.buffers = m.buffers;
  p.buffer_length = m.buffer_length;
  p.injection_buffers = m.injection_buffers;
  p.ejection_buffers = m.ejection_buffers;
  p.header_bid = m.header_bid == "blind" ? MwayHeaderBid::Blind : MwayHeaderBid::Stat;
  p.max_message_length = std::max(2, cfg.nic.max_packet);  // the NIC never makes a longer packet
  if (p.needs_cut_through() && p.buffer_length < cfg.nic.max_packet)
    throw ConfigError(fmt::format(
        "config: mway.buffer_length = {} is invalid for mway.algo = {}; allowed: at least nic.max_packet = {} (a "
        "buffer must hold a whole packet, condition c of the safe tree broadcast); lower nic.max_packet or raise "
        "mway.buffer_length",
        p.buffer_length, m.algo, cfg.nic.max_packet));
  try {
    p.validate();
  } catch (const std::invalid_argument& e) {
    throw ConfigError(std::string("config: ") + e.what());
  }
  return p;
}

namespace {
const MwayRtlLibrary& installed_rtl() {
  const MwayRtlLibrary& lib = mway_rtl_library();
  if (!lib.make)
    throw ConfigError("config: mway.model = rtl is unavailable in this program; allowed: sc (a program runs the "
                      "Verilog router once it calls install_rtl_routers(), tb/rtl/rtl_network.h)");
  return lib;
}
}  // namespace

std::unique_ptr<MwayFabricIf> make_mway_fabric(sc_core::sc_module_name name, const Config& cfg) {
  const MwayParams p = mway_params(cfg);
  if (cfg.part<MwayConfig>().model == "sc") return std::make_unique<MwayFabric>(name, p);
  return installed_rtl().make(name, p);
}

MwayNicPort::MwayNicPort(sc_core::sc_module_name name, Nic& core, MwayFabricIf& fabric)
    : sc_module(name), m_core(core), m_fabric(fabric) {
  core.attach(this);
  SC_HAS_PROCESS(MwayNicPort);
  SC_METHOD(falling_edge);
  sensitive << clk.neg();
  dont_initialize();
}

MwayMessage MwayNicPort::message(const OutPacket& p) const {
  MwayMessage m;
  m.id = p.rec.id;
  m.src = m_core.node();
  m.length = p.rec.length;
  m.created = p.rec.created;
  if (p.dest.is_region()) {
    for (size_t d = 0; d < p.dest.lo.size(); ++d) {
      m.region.lo[d] = p.dest.lo[d];
      m.region.hi[d] = p.dest.hi[d];
    }
  } else {
    m.dst = p.dest.node;
  }
  return m;
}

std::shared_ptr<const std::vector<int>> MwayNicPort::group_of(const Destination& d) const {
  const int n = m_fabric.num_nodes(), me = m_core.node();
  if (!d.is_region()) {
    if (d.node < 0 || d.node >= n || d.node == me)
      throw ConfigError(fmt::format("node {}: a unicast goes to another node 0..{}", me, n - 1));
    return nullptr;
  }
  if (int(d.lo.size()) != m_fabric.geometry().dims() || d.hi.size() != d.lo.size())
    throw ConfigError(fmt::format("node {}: a region has lo and hi for each of {} dimensions", me,
                                  m_fabric.geometry().dims()));
  OutPacket probe;
  probe.dest = d;
  std::vector<int> v;
  try {
    v = m_fabric.addressed(message(probe));
  } catch (const std::invalid_argument& e) {
    throw ConfigError(fmt::format("node {}: {}", me, e.what()));
  }
  if (v.empty()) throw ConfigError(fmt::format("node {}: a region of only the source addresses nobody", me));
  std::sort(v.begin(), v.end());
  return std::make_shared<const std::vector<int>>(std::move(v));
}

void MwayNicPort::falling_edge() {
  if (m_sleeping) {  // woken; act at the next falling edge
    m_sleeping = false;
    return;
  }
  const uint64_t t = current_cycle();
  // One packet at a time enters the node interface's source queue, when that queue is empty:
  // the backlog waits here, and a packet counts as injected (scoreboard, network latency) when
  // the node interface takes it. Latency still counts from generation, as section 4 of the
  // paper measures.
  OutPacket* p = m_core.front(0);
  if (p && p->ready <= t && m_fabric.queued(m_core.node()) == 0) {
    m_fabric.submit(m_core.node(), message(*p));
    const uint32_t len = p->rec.length;
    for (uint32_t i = 0; i < len; ++i) m_core.sent_flit(0, t);
  }
  if (m_core.queue_empty(0)) {
    m_sleeping = true;
    next_trigger(m_wake);
  }
}

MwayNetwork::MwayNetwork(sc_core::sc_module_name name, const Config& cfg, const NetworkOptions& opt)
    : Network(name, cfg, opt), m_fabric(make_mway_fabric("fabric", cfg)) {
  const int n = m_fabric->num_nodes();
  m_fabric->clock_in()(clk);
  m_fabric->set_observer(this);
  m_fabric->set_activity(&m_activity);
  for (int i = 0; i < n; ++i) {
    Nic& core = add_nic(std::make_unique<Nic>(("nic" + m_fabric->node_name(i).substr(2)).c_str(), cfg.nic, i, n, &m_sb,
                                              opt.listener));
    m_ports.push_back(std::make_unique<MwayNicPort>(("port" + m_fabric->node_name(i).substr(2)).c_str(), core, *m_fabric));
    m_ports.back()->clk(clk);
  }
}

MwayFabric& MwayNetwork::fabric() {
  auto* f = dynamic_cast<MwayFabric*>(m_fabric.get());
  if (!f) throw std::logic_error("MwayNetwork::fabric(): the fabric is not the SystemC one (mway.model = rtl)");
  return *f;
}

void MwayNetwork::on_deliver(uint64_t cycle, int node, uint64_t packet, uint32_t index, bool head, bool tail) {
  nic(node).received_flit(cycle, FlitView{packet, index, head, tail, 0});
}

void MwayNetwork::on_inject(uint64_t, uint64_t) {}

std::string MwayNetwork::link_order() const {
  return "channel id (= node id, dimension 0 fastest): flit transfers; a header taken by several ways counts once";
}

std::string MwayNetwork::set_hop_observer(HopObserver* obs) {
  m_hops = obs;
  m_fabric->set_channel_observer(obs ? this : nullptr);
  return "";
}

void MwayNetwork::on_channel(const MwayChannelEvent& e) {
  // docs/mway.md section 12: router = the channel, in_port = the driver number, out_port = the
  // way, vc = the receiving set's buffer row; a crossing with no receiver (a reservation) moves
  // no flit and is not a hop.
  for (const auto& [way, row] : e.receivers)
    m_hops->on_hop(HopEvent{e.cycle, e.channel, e.drv, way, row, e.packet, e.index, e.tag == MwayTag::H,
                            e.tag == MwayTag::T});
}

uint64_t MwayNetwork::zero_load_of(const sw::Topology& topo, int src, int dst, uint32_t length) {
  // docs/mway.md section 9: the tail is delivered h + L cycles after generation; the NIC hands the
  // packet over in the generation cycle, and a delivery counts to the end of its cycle.
  return uint64_t(topo.hops(src, dst, false)) + length + 1;
}

Family mway_family() {
  Family f;
  f.name = "mway";
  f.help = fmt::format("k-ary m-way router on shared multiway channels, region broadcast (docs/mway.md); --net "
                       "mway:8x8x8; net.radix: 1..{} dimensions, each radix 2..{}, at most {} nodes",
                       sw::kMwayMaxDims, limits::kMaxRtlRadix, limits::kMaxRtlNodes);
  f.keys = mway_keys();
  // One message, one packet (the paper's messages): the NIC's largest packet is the traffic's, so
  // the default buffers (mway.buffer_length 5) hold a whole packet as mst-safe and mst-replica need.
  f.defaults = [](const auto& value_of) { return Overrides{{"nic.max_packet", value_of("traffic.packet_len")}}; };
  f.validate = [](Config& c) {
    c.net.torus.assign(c.net.radix.size(), false);  // m-way networks are meshes (a d-cube is 2-ary)
    const int64_t nodes = c.net.nodes();
    const bool dims_ok = int(c.net.radix.size()) <= sw::kMwayMaxDims;  // 2n + 1 ways in a 32-bit way mask
    for (int k : c.net.radix)
      if (!dims_ok || k > limits::kMaxRtlRadix || nodes > limits::kMaxRtlNodes)
        throw ConfigError(fmt::format("config: net.radix = '{}' is invalid for the mway family; allowed: 1..{} "
                                      "dimensions, each radix 2..{}, at most {} nodes",
                                      join(c.net.radix, "x"), sw::kMwayMaxDims, limits::kMaxRtlRadix,
                                      limits::kMaxRtlNodes));
    // (Before the parameters' own checks, which would name the buffer length a short packet sets.)
    if (c.traffic.mode == InjectionMode::Bernoulli && c.traffic.packet_len < 2)
      throw ConfigError(fmt::format("config: traffic.packet_len = {} is invalid for the mway family (--len of wormcast "
                                    "mway); allowed: 2..4096 (a header and data)",
                                    c.traffic.packet_len));
    const MwayParams p = mway_params(c);
    if (c.part<MwayConfig>().model == "rtl") {
      const MwayRtlLibrary& lib = installed_rtl();
      if (lib.check) lib.check(p);
    }
    if (c.part<MwayConfig>().algo == "unicast" && c.traffic.broadcast_fraction > 0)
      throw ConfigError(fmt::format(
          "config: traffic.broadcast_fraction = {} is invalid with mway.algo = unicast (dimension-order unicasts "
          "only: it sends no region broadcast); allowed: traffic.broadcast_fraction 0, or mway.algo mst, mst-safe, "
          "mst-replica, mst-unicast or rd",
          c.traffic.broadcast_fraction));
    if (c.nic.max_packet < 2)  // (a message of any length would leave a packet of one flit)
      throw ConfigError(fmt::format("config: nic.max_packet = {} is invalid for the mway family; allowed: at least 2 "
                                    "(every packet needs a header and data)", c.nic.max_packet));
    if (c.traffic.packet_len > c.nic.max_packet && c.traffic.mode == InjectionMode::Bernoulli && c.traffic.sizes.empty())
      throw ConfigError(fmt::format("config: traffic.packet_len = {} is invalid; allowed: at most nic.max_packet = {}",
                                    c.traffic.packet_len, c.nic.max_packet));
    if (c.traffic.mode == InjectionMode::Message &&
        (c.traffic.message_len < 2 || c.traffic.message_len % c.nic.max_packet == 1))
      throw ConfigError(fmt::format("config: traffic.message_len = {} is invalid for the mway family with "
                                    "nic.max_packet = {}; allowed: at least 2 and not 1 more than a multiple of "
                                    "nic.max_packet (every packet needs a header and data)",
                                    c.traffic.message_len, c.nic.max_packet));
  };
  f.internals_refusal = [](const Config&) { return Network::no_internal_signals(); };
  f.self_unicast = false;   // a unicast goes to another node (MwayNic::submit)
  f.min_packet_flits = 2;   // a header and data
  f.longest_quiet = [](const Config& c) {  // Network::zero_load_crossing, the default longest_quiet
    const sw::Topology topo = c.net.topology();
    uint64_t crossing = 0;
    for (int d = 1; d < topo.num_nodes(); ++d) crossing = std::max(crossing, MwayNetwork::zero_load_of(topo, 0, d, 1));
    return crossing;
  };
  f.make = [](sc_core::sc_module_name name, const Config& cfg, const NetworkOptions& opt) -> std::unique_ptr<Network> {
    return std::make_unique<MwayNetwork>(name, cfg, opt);
  };
  return f;
}

}  // namespace wormcast
