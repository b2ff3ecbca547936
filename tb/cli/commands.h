// Sub-commands of the `wormcast` command-line program, each registered on the top-level CLI11 app.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "sw/broadcast/broadcast.h"
#include "sw/cli_fwd.h"
#include "sw/topology/topology.h"
#include "systemc/common/config.h"
#include "tb/out/recorders.h"

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

/// `wormcast broadcast --net torus:32x32 --algo dcf --len 64 --ts 200 --tr 200 [--source x,y]
///  [--router sc|rtl|mixed] [--json FILE] [--set key=value ...] + add_record_options`: the schedule as node
/// programs on the cycle-accurate model next to the analytic model. Exit codes as above, plus
/// 3 for a deadlock.
void register_broadcast_command(CLI::App& app);

/// `wormcast gossip --net torus:27x27 --algo torgos --r 50 [--a A --b B | --search] [--check]
///  [--json FILE] [--simulate [--len L] [--set key=value ...]]`: the gossip command of
/// sw/gossip/tool; --simulate runs the schedule on the cycle-accurate model. Exit codes as above.
void register_gossip_command(CLI::App& app);

/// The run, traffic and config commands (the traffic experiment of a configuration).
void register_run_commands(CLI::App& app);

/// `wormcast mway --net mesh:8x8x8 --algo mst-safe --rate R --broadcast-fraction F --buffers 4
///  --len 5 ...`: traffic on the k-ary m-way family (docs/mway.md).
void register_mway_command(CLI::App& app);
/// `ibt topo|bcast`: the interlaced bypass torus (tb/cli/cmd_ibt.cpp).
void register_ibt_command(CLI::App& app);
/// `wormcast wave`: a GTKWave save file for a waveform (tb/out/wave.h).
void register_wave_command(CLI::App& app);
/// `wormcast rtl list|build|clean`: the cache of Verilated models built on demand (tb/rtl/rtl_cache.h).
void register_rtl_command(CLI::App& app);

/// Runs the traffic experiment of cfg, writes the JSON and the recordings (planned before cycle 0,
/// none of them may be `config_file`), prints its summary; the exit code.
int run_traffic_command(const Config& cfg, const std::string& json, const RecordOptions& rec, const char* command,
                        const std::string& config_file);

/// CLI11 checks run on an option's text before it is converted, one line naming the range:
/// a strict decimal integer (parse_int's rules) in lo..hi; a finite decimal number (parse_real's
/// rules: no inf, nan or hex) in lo..hi; a value that is not empty, `allowed` naming what is.
CLI::Validator decimal_int(int64_t lo, int64_t hi);
CLI::Validator decimal_real(double lo, double hi);
CLI::Validator non_empty(const std::string& allowed);
/// An output path: not empty, and "-" (standard output) only where `standard_output` is true
/// (--json); every other output is a file.
CLI::Validator file_path(bool standard_output = false);
/// Every option that takes a value, in `app` and all its sub-commands, refuses an empty value
/// (leaving an option out gives its default; an empty value never does): an option without a
/// non_empty or file_path check of its own gets one naming its help text as what is allowed.
void refuse_empty_values(CLI::App& app);
/// The options of `options` given on cmd's command line apply only with `flag`: when `on` is
/// false, the first one given is refused (ConfigError "OPTION needs FLAG").
void require_with(const CLI::App* cmd, const std::string& flag, bool on, const std::vector<std::string>& options);
/// The recording options (add_record_options), for require_with.
const std::vector<std::string>& record_option_names();
/// The value must be one the configuration key `key` allows (its text is passed on unchanged).
CLI::Validator config_value(const std::string& key);
/// The help of every option of `app` (and, when recursive, of its sub-commands) shows the value's
/// type and default:
/// an option checked by config_value shows the key's type (INT, NUMBER, BOOL or TEXT) and its
/// default from the schema; a check with a description (FILE, INT in 1..8) shows that in place of
/// the C++ type; a bound variable's initial value shows as its default (option_defaults).
void show_types_and_defaults(CLI::App& app, bool recursive = true);

/// The whole `wormcast` program: every sub-command registered on one CLI11 app; returns the
/// exit code (0 ok, 1 a check or run failed, 2 bad input, 3 deadlock).
int run_cli(int argc, const char* const* argv);
/// run_cli without the process's set-up and its last check of standard output (no signal
/// handlers installed, no standard stream replaced): the command line parsed, checked and run;
/// the exit code. The fuzz target of the input layer (tests/fuzz) calls it in a dry run.
int run_commands(int argc, const char* const* argv);

/// The recording options every simulating command has: --vcd, --fst, --trace, --deliveries,
/// --rtl-vcd, --deadlock-dot.
void add_record_options(CLI::App* cmd, RecordOptions& o);

/// What every traffic-running command has: --set, --json and the recording options.
struct CommonOptions {
  std::vector<std::string> sets;
  std::string json;
  RecordOptions rec;
};
void add_common(CLI::App* cmd, CommonOptions& o);

/// --seed, --warmup, --measure of the simulating commands, as configuration overrides.
struct RunLength {
  std::string seed, warmup, measure;  ///< as text: the configuration's strict parser reads them
};
void add_run_length_options(CLI::App* cmd, RunLength& r);
/// Appends sim.seed / sim.warmup / sim.measure for the options given on cmd's command line.
void run_length_overrides(const CLI::App* cmd, const RunLength& r, Overrides& ov);

/// Which broadcast schedule, from which source: --algo, --source, --keep-redundant, --dcf-variant.
struct ScheduleChoice {
  std::string algo;
  std::string source;
  std::string dcf_variant = "sol2";
  bool keep_redundant = false;
};
void add_schedule_options(CLI::App* cmd, ScheduleChoice& c, const std::string& algo_note = "");
/// The chosen schedule on t (source set to its node); throws ConfigError naming the option.
sw::Schedule make_schedule(const ScheduleChoice& c, const sw::Topology& t, int& source);

/// "--source x,y,..." -> node id (empty: node 0); throws ConfigError with a one-line message
/// naming the option and the allowed coordinates.
int parse_source(const sw::Topology& t, const std::string& text);

/// A value as an error message shows it: at most 80 characters, a longer one cut with its length
/// named (a 120 KB --set value is not echoed whole).
std::string shown_value(const std::string& value);
/// An error message as one line on stderr: line breaks and tabs become spaces, other control bytes
/// and bytes outside well-formed UTF-8 are written as \xNN, and a message longer than
/// 370 characters keeps its start (the option or key) and its end (the allowed range) around a
/// note of what was left out, so that the line with the program's prefix is at most 400.
std::string one_line_message(std::string message);
/// The one line of a command-line parse error: the library's message in the house form (an option
/// given twice says how often; a message without its allowed values points at `HELP --help`).
std::string parse_error_line(std::string what, const std::string& help);

/// Makes `action` cmd's callback: a ConfigError becomes one line on stderr ("wormcast NAME: ...")
/// and exit code 2; a non-zero exit code travels on as CLI::RuntimeError; a dry run's end
/// (tb/run/dry_run.h) is exit 0.
void set_command_action(CLI::App* cmd, std::function<int()> action);

/// A --set of a key that an option given on the command line also sets, to another value, is an
/// error (ConfigError naming both); `given` are the options' overrides.
void check_set_conflicts(const Overrides& given, const std::vector<std::string>& sets);
/// A run of traffic.trace (cfg) draws no traffic: a key of the drawn sources given on the command
/// line (`given`: its options' keys and --set pairs) would be silently unused, and is refused.
/// `length_applies`: traffic.packet_len still sets something else (the mway command's --len).
void refuse_unused_with_trace(const Config& cfg, const Overrides& given, bool length_applies = false);
/// A command that runs node software (broadcast, gossip, ibt) has no traffic sources: a --set of a
/// traffic.* key would be silently unused (and a traffic.trace named as one of its outputs
/// overwritten), and is refused, naming `command`.
void refuse_traffic_keys(const char* command, const std::vector<std::string>& sets);
/// load_config for a run whose network --net gave (`net`, as the user typed it; "": none): an
/// error about net.radix (a shape the cycle-accurate model does not build, such as a radix above
/// 1024) is named by --net, the option the user gave, not by the configuration key alone.
Config load_config_for_net(const std::string& yaml_path, const Overrides& ov, const std::string& net);

}  // namespace wormcast
