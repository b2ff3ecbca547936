// Sub-commands of the `wormcast` command-line program, each registered on the top-level CLI11 app.
#pragma once

#include <CLI/CLI.hpp>

namespace wormcast {

/// `wormcast schedule --net torus:16x16 --algo dcf|edn|tseng|wang-tseng|rd|sequential
///  [--source x,y,...] [--check] [--json FILE] [--svg FILE] [--keep-redundant]
///  [--dcf-variant sol1|sol2] [--quiet]`
///
/// Exit codes travel as CLI::RuntimeError(code) thrown from the sub-command's callback, so the
/// usual `CLI11_PARSE(app, argc, argv)` (or `catch (const CLI::ParseError& e) { return
/// app.exit(e); }`) returns them: 0 success, 1 a --check failed, 2 bad input (one line on stderr
/// naming the option; no output file is left behind).
void register_schedule_command(CLI::App& app);

}  // namespace wormcast
