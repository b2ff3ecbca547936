// Validation and names of the m-way parameters.
#include "systemc/mway/params.h"

#include <stdexcept>

#include "sw/topology/mway.h"

namespace wormcast {

const char* to_string(MwayAlgorithm a) {
  switch (a) {
    case MwayAlgorithm::UnicastOnly: return "unicast";
    case MwayAlgorithm::Mst: return "mst";
    case MwayAlgorithm::MstSafe: return "mst-safe";
    case MwayAlgorithm::MstReplica: return "mst-replica";
    case MwayAlgorithm::MstUnicast: return "mst-unicast";
    case MwayAlgorithm::RecursiveDoubling: return "rd";
  }
  return "?";
}

MwayAlgorithm parse_mway_algorithm(const std::string& s) {
  for (auto a : {MwayAlgorithm::UnicastOnly, MwayAlgorithm::Mst, MwayAlgorithm::MstSafe, MwayAlgorithm::MstReplica,
                 MwayAlgorithm::MstUnicast, MwayAlgorithm::RecursiveDoubling})
    if (s == to_string(a)) return a;
  throw std::invalid_argument("algorithm: one of unicast, mst, mst-safe, mst-replica, mst-unicast, rd; got '" + s + "'");
}

namespace {
void check_range(const char* field, int v, int lo, int hi) {
  if (v < lo || v > hi)
    throw std::invalid_argument(std::string(field) + ": " + std::to_string(lo) + ".." + std::to_string(hi) + ", got " +
                                std::to_string(v));
}
}  // namespace

void MwayParams::validate() const {
  sw::MwayGeometry check(radix);  // throws on a bad radix list
  check_range("buffers", buffers, 1, 32);
  check_range("buffer_length", buffer_length, 1, 4096);
  check_range("injection_buffers", injection_buffers, 1, 32);
  check_range("ejection_buffers", ejection_buffers, 1, 32);
  check_range("max_message_length", max_message_length, 2, 4096);
  if (needs_cut_through() && buffer_length < max_message_length)
    throw std::invalid_argument(std::string("buffer_length: ") + to_string(algorithm) +
                                " needs virtual cut-through, buffer_length >= max_message_length (" +
                                std::to_string(max_message_length) + "), got " + std::to_string(buffer_length));
}

}  // namespace wormcast
