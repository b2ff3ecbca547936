// Broadcast generator names, help texts and dispatch.
#include "sw/broadcast/broadcast.h"

#include "sw/broadcast/builder.h"

namespace wormcast::sw {

namespace {
struct AlgoInfo {
  BroadcastAlgo algo;
  const char* name;
  const char* help;
};
const AlgoInfo kAlgos[] = {
    {BroadcastAlgo::Dcf, "dcf",
     "DCF ('Depth Contention-Free Broadcasting on Torus Networks', ICS 1998): n x n torus, n = 4^k (2k steps) or 2*4^k "
     "(2k+1 steps), k >= 1; block reconstructed from the paper (--dcf-variant sol2|sol1)"},
    {BroadcastAlgo::Edn, "edn",
     "EDN: INTERPRETATION (the published EDN node sets are not available): the 'EDN-Z' stand-in, "
     "every informed node sends 3 unicasts per step on a 2^d x 2^d torus, d steps; the top step's "
     "third target uses the negative tie bit"},
    {BroadcastAlgo::Tseng, "tseng",
     "Tseng dilated diagonal on a square n x n torus, n >= 2: 2*ceil(log5 n)+1 steps "
     "(non-square tori are rejected: the dilated diagonal is not specified)"},
    {BroadcastAlgo::WangTseng, "wang-tseng",
     "Wang-Tseng span-based scheme on an n^k torus, k = 2, 3, 4: k*ceil(log_{2k+1} n)+k-1 steps"},
    {BroadcastAlgo::RecursiveDoubling, "rd",
     "recursive doubling along dimensions on any torus: sum of ceil(log2 k_d) steps"},
    {BroadcastAlgo::Sequential, "sequential",
     "the source sends N-1 unicasts, one per step (baseline)"},
};
}  // namespace

const char* algo_name(BroadcastAlgo a) {
  for (const AlgoInfo& i : kAlgos)
    if (i.algo == a) return i.name;
  return "?";
}

std::string algo_help(BroadcastAlgo a) {
  for (const AlgoInfo& i : kAlgos)
    if (i.algo == a) return i.help;
  return "";
}

std::vector<std::string> algo_names() {
  std::vector<std::string> v;
  for (const AlgoInfo& i : kAlgos) v.push_back(i.name);
  return v;
}

BroadcastAlgo parse_algo(const std::string& name) {
  for (const AlgoInfo& i : kAlgos)
    if (name == i.name) return i.algo;
  std::string all;
  for (const AlgoInfo& i : kAlgos) all += std::string(all.empty() ? "" : ", ") + i.name;
  throw std::invalid_argument("unknown broadcast algorithm '" + name + "' (allowed: " + all + ")");
}

Schedule generate_broadcast(BroadcastAlgo a, const Topology& t, int source,
                            const BroadcastOptions& options) {
  switch (a) {
    case BroadcastAlgo::Dcf: return dcf_broadcast(t, source, options.dcf_variant);
    case BroadcastAlgo::Edn: return edn_broadcast(t, source);
    case BroadcastAlgo::Tseng: return tseng_broadcast(t, source, options.keep_redundant);
    case BroadcastAlgo::WangTseng: return wang_tseng_broadcast(t, source, options.keep_redundant);
    case BroadcastAlgo::RecursiveDoubling: return recursive_doubling_broadcast(t, source);
    case BroadcastAlgo::Sequential: return sequential_broadcast(t, source);
  }
  throw std::invalid_argument("unknown broadcast algorithm");
}

namespace detail {
void require_torus(const Topology& t, int source, const char* algo, const std::string& allowed) {
  for (int d = 0; d < t.dims(); ++d)
    if (!t.torus(d))
      throw UnsupportedNetwork(std::string(algo) + ": needs " + allowed + "; got " + describe(t));
  if (source < 0 || source >= t.num_nodes())
    throw std::invalid_argument(std::string(algo) + ": source node " + std::to_string(source) +
                                " is outside " + describe(t));
}
}  // namespace detail

}  // namespace wormcast::sw
