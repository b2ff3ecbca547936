// Parameters of a k-ary m-way fabric (docs/mway.md section 1): one plain struct, validated in one place.
#pragma once

#include <string>
#include <vector>

namespace wormcast {

/// How a multi-node Region is reached (docs/mway.md section 8).
enum class MwayAlgorithm { UnicastOnly, Mst, MstSafe, MstReplica, MstUnicast, RecursiveDoubling };

/// When a header may bid for its channel (docs/mway.md section 4.1): Stat, only when the Stat
/// lines show a free buffer where it needs one next; Blind, in every cycle.
enum class MwayHeaderBid { Stat, Blind };

const char* to_string(MwayAlgorithm a);
/// "unicast", "mst", "mst-safe", "mst-replica", "mst-unicast", "rd"; throws std::invalid_argument.
MwayAlgorithm parse_mway_algorithm(const std::string& s);

struct MwayParams {
  std::vector<int> radix{4, 4};       ///< k per dimension: 1..15 dimensions, each 2..256
  MwayAlgorithm algorithm = MwayAlgorithm::MstSafe;
  int buffers = 4;                    ///< buffers per router buffer set (DIM+, DIM-): 1..32
  int buffer_length = 5;              ///< flits per buffer: 1..4096
  int injection_buffers = 4;          ///< node interface injection set: 1..32
  int ejection_buffers = 4;           ///< node interface ejection set: 1..32
  int max_message_length = 5;         ///< longest message in flits, header included: 2..4096
  MwayHeaderBid header_bid = MwayHeaderBid::Stat;

  /// Throws std::invalid_argument with one line naming the field and the allowed range.
  void validate() const;
  int dims() const { return int(radix.size()); }
  /// The tree variants that need virtual cut-through (condition c of section 3.3).
  bool needs_cut_through() const {
    return algorithm == MwayAlgorithm::MstSafe || algorithm == MwayAlgorithm::MstReplica;
  }
};

}  // namespace wormcast
