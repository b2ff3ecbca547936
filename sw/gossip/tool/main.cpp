// wormcast-gossip: gossip schedules of Juurlink, Sibeyn, Rao — generate, verify, cost, search.
#include <iostream>

#include "sw/gossip/tool/gossip_command.h"

int main(int argc, char** argv) {
  CLI::App app{"wormcast-gossip: gossip (all-to-all) schedules on rings and tori: generate, verify, "
               "cost step by step and in closed form, search the best (a, b)"};
  wormcast::sw::GossipArgs args;
  wormcast::sw::register_gossip_options(app, args);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  return wormcast::sw::run_gossip_command(args, std::cout, std::cerr);
}
