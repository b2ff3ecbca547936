// One-to-all broadcast schedule generators (host tools): DCF, EDN, Tseng, Wang–Tseng, recursive
// doubling and the sequential baseline, each for any source node.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "sw/schedule/schedule.h"

namespace wormcast::sw {

enum class BroadcastAlgo { Dcf, Edn, Tseng, WangTseng, RecursiveDoubling, Sequential };

/// DCF block reconstruction: sol2 is the primary one (our reconstruction, section 2.3), sol1 the
/// alternative with B and C swapped.
enum class DcfVariant { Sol2, Sol1 };

struct BroadcastOptions {
  DcfVariant dcf_variant = DcfVariant::Sol2;
  /// Tseng and Wang–Tseng: keep the papers' re-sends to nodes that already hold the message
  /// (by default they are dropped, which makes delivery exactly-once).
  bool keep_redundant = false;
};

/// A generator was asked for a network it does not support. The message is one line naming the
/// algorithm and the sizes it allows.
class UnsupportedNetwork : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// Command-line names: dcf, edn, tseng, wang-tseng, rd, sequential.
const char* algo_name(BroadcastAlgo a);
/// Throws std::invalid_argument (one line, listing the names) on an unknown name.
BroadcastAlgo parse_algo(const std::string& name);
std::vector<std::string> algo_names();
/// One-line description of what the generator supports, for --help.
std::string algo_help(BroadcastAlgo a);

/// Dispatch to the generators below.
Schedule generate_broadcast(BroadcastAlgo a, const Topology& t, int source,
                            const BroadcastOptions& options = {});

/// DCF (Hou, Wang and Hsu): n x n torus, n = 4^k (2k steps) or 2*4^k (2k+1 steps), k >= 1. Block and send
/// orders as reconstructed in our reconstruction (section 2).
Schedule dcf_broadcast(const Topology& t, int source, DcfVariant variant = DcfVariant::Sol2);

/// EDN: INTERPRETATION ("EDN-Z", our reconstruction section 1) — the published node sets are not
/// available; this stand-in has every informed node send 3 unicasts per step on 2^d x 2^d, d >= 1.
Schedule edn_broadcast(const Topology& t, int source);

/// Tseng's dilated-diagonal scheme on a square n x n torus, n >= 2: 2*ceil(log5 n)+1 steps.
Schedule tseng_broadcast(const Topology& t, int source, bool keep_redundant = false);

/// Wang–Tseng span-based scheme on an n^k torus, k = 2, 3, 4, n >= 2:
/// k*ceil(log_{2k+1} n) + k - 1 steps.
Schedule wang_tseng_broadcast(const Topology& t, int source, bool keep_redundant = false);

/// Recursive doubling along dimensions (dimension 0 first) on any torus: sum_d ceil(log2 k_d) steps,
/// one send per node per step.
Schedule recursive_doubling_broadcast(const Topology& t, int source);

/// The source sends N-1 unicasts, one per step, in node-id order relative to the source.
Schedule sequential_broadcast(const Topology& t, int source);

}  // namespace wormcast::sw
