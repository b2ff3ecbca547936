// GTKWave save files from a waveform's own declarations: the one generator behind `--vcd` /
// `--fst` (the save file written next to the dump) and `wormcast wave` (a save file for any dump:
// SystemC, RTL or mixed routers, m-way fabrics, the lockstep harness's mismatch dumps; or one that
// follows a packet hop by hop). docs/reference.md (Outputs) and docs/rtl.md describe the groups and the view.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace wormcast {

/// One declared variable of a VCD: its scope path, name, width, range text ("[15:0]" or "").
struct VcdVar {
  std::vector<std::string> scopes;
  std::string name;
  int width = 1;
  std::string range;
  std::string id;
};

/// What a save file needs from a dump.
struct VcdInfo {
  std::vector<VcdVar> vars;
  uint64_t scale = 1;       ///< viewer time units per dump time step (the time scale's number)
  uint64_t first = 0;       ///< first time stamp (dump steps)
  uint64_t last = 0;        ///< last time stamp
  uint64_t period = 0;      ///< clock period in dump steps (first two rising edges of a one-bit
                            ///< variable named clk), 0 when the dump has no such clock
  bool timed = false;       ///< the dump holds a time stamp (not its declarations alone)
};

/// Reads a VCD, or an FST through fst2vcd. Throws ConfigError naming `option`, the path and why.
VcdInfo read_vcd_info(const std::string& option, const std::string& path);

/// The save file of a whole dump `dump` (the path written into it): one collapsed group per
/// router, channel or node interface (torus r_<x>_<y>..., m-way r_d<dim>_..., ch_..., ni_...),
/// a sub-group per port wire or module; other scopes one group each. `only`: keep these routers
/// (empty: all). The view opens at the dump's start, `cycles` clock periods wide (or the whole
/// dump if shorter). `groups` returns the number of router/channel groups.
std::string overview_save_file(const std::string& dump, const VcdInfo& info, const std::set<std::string>& only,
                               uint64_t cycles, int* groups);

/// One hop of a packet's head flit, from a --trace CSV.
struct HopRow {
  uint64_t cycle = 0;
  int router = 0, in_port = 0, out_port = 0, vc = 0;
};

/// The head-flit hops of `packet` in the --trace CSV `path`, in cycle order. Throws ConfigError
/// (option --trace) when the file cannot be read or has no such packet.
/// `max_router` returns the largest router id of every row (every packet's).
std::vector<HopRow> read_packet_hops(const std::string& path, uint64_t packet, int* max_router = nullptr);

/// The save file that follows one packet: one open group per hop, named with the cycle, router,
/// ports and VC, holding that router's input and output port wires; the view spans the hops.
/// A dump of an m-way fabric (channel scopes ch_<x>_...) gets mway_packet_save_file's view.
/// Throws ConfigError when a hop's router or port is not in the dump, when no hop is in the dump's
/// cycles, and when the network's shape is unknown: `shape` (the radix per dimension; empty: the
/// dump's, which only a dump of every router tells: its routers fill the grid of their largest
/// coordinates, and no router id of the trace, `max_router`, lies beyond it). `groups` returns the
/// hop groups.
std::string packet_save_file(const std::string& dump, const VcdInfo& info, const std::vector<HopRow>& hops,
                             uint64_t packet, int* groups = nullptr, const std::vector<int>& shape = {},
                             int max_router = -1);

/// The dump holds m-way channel lines (scopes ch_<x>_... with a `tag` line).
bool has_mway_channels(const VcdInfo& info);

/// The m-way packet view (tb/out/wave_mway.cpp, docs/mway.md section 12): the hops of an m-way
/// --trace (router = channel, in_port = driver number, out_port = way, vc = the receiving row)
/// grouped by crossing (cycle, channel, driver), one open group each, named with the cycle, the
/// channel, the driving set and the receivers, holding the channel's lines (the packet id and
/// flit index decoded), the driving set's buffer rows and each receiving buffer row. Throws
/// ConfigError when a channel or buffer set of a hop is not in the dump.
std::string mway_packet_save_file(const std::string& dump, const VcdInfo& info, const std::vector<HopRow>& hops,
                                  uint64_t packet, int* groups);

}  // namespace wormcast
