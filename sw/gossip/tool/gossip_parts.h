// The gossip command's parts, shared by its files (options and validation, closed forms,
// generation and step-by-step cost, the paper's tables): not for use outside sw/gossip/tool/.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sw/gossip/gossip.h"
#include "sw/gossip/search.h"
#include "sw/gossip/tool/gossip_command.h"
#include "sw/schedule/verify.h"

namespace wormcast::sw::gossip_tool {

using nlohmann::json;

/// A number as the command prints it (%.10g).
std::string str(double v);

// Options and validation (gossip_options.cpp); each throws GossipParamError naming the option.
std::vector<double> parse_r(const std::string& text);
Topology parse_gossip_net(const std::string& text);
PortModel port_model(const GossipArgs& a);
/// gossip_check_parameters.
void check_parameters(const GossipArgs& a);
/// --algo names plus the "approachI-J[-K]" shorthand for HIGH-DIM-GOS' with approaches per phase.
GossipSpec make_spec(const GossipArgs& a, const Topology& t);

// The paper's closed forms and lower bounds (gossip_closed_forms.cpp).
json closed_form_json(const GossipSpec& s, const Topology& t, double r, HalfRule half);
json lower_bounds_json(const Topology& t, double r);
std::string spec_label(const GossipSpec& s);

// Generation, verification and step-by-step cost (gossip_command.cpp).
/// Generated schedule with its verdict, reused for several r.
struct Built {
  GossipSchedule g;
  Verdict verdict;
  PortModel ports = PortModel::AllPort;  ///< the rule it was verified and is costed under
};
std::optional<Built> build(const Topology& t, const GossipSpec& s, const GossipArgs& a, std::string& why);
json step_json(const Built& b, double r, const GossipArgs& a, bool per_step);
/// The schedule itself, named as `wormcast schedule --json` names a broadcast's: dims, topology,
/// algo, steps, chunks_per_node and per unicast src, dst (coordinates), step, order, tie
/// ("negative" only where it changes the route), chunks (ids; chunk c is node c / chunks_per_node's
/// part c mod chunks_per_node) and path (the nodes of its dimension-ordered route, src to dst).
json schedule_json(const Schedule& s);

// The paper's table comparisons (gossip_tables.cpp).
json ab_json(const SearchResult& w);
/// Every algorithm of the paper's Table 1 (rings), 2 (2-D) or 3 (3-D) for one r.
json table_row(const Topology& t, double r, const GossipArgs& a);

}  // namespace wormcast::sw::gossip_tool
