// wormcast-ibt: interlaced bypass torus metrics and pipelined broadcasts (Zhang and Deng).
#include <iostream>

#include "sw/ibt/tool/ibt_command.h"

int main(int argc, char** argv) {
  CLI::App app{"wormcast-ibt: interlaced bypass torus iBT(n^d; b): degree, diameter and average "
               "distance (exact), and pipelined k-packet line / rectangular / global broadcasts "
               "on a step-level simulator"};
  wormcast::sw::IbtArgs args;
  wormcast::sw::register_ibt_options(app, args);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  return wormcast::sw::run_ibt_command(args, std::cout, std::cerr);
}
