// What the sub-commands share: the schedule-selection options, the recording options, --source
// parsing, and the callback that turns a ConfigError into a one-line message and exit code 2.
#include "tb/cli/commands.h"

#include <iostream>
#include <new>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "tb/out/output_plan.h"
#include "tb/run/dry_run.h"

namespace wormcast {

int parse_source(const sw::Topology& t, const std::string& text) {
  if (text.empty()) return 0;
  const std::string usage = fmt::format(
      "--source '{}' is invalid; allowed: {} comma-separated coordinates inside {} (e.g. {})", shown_value(text),
      t.dims(), sw::describe(t), t.dims() == 1 ? "0" : t.dims() == 2 ? "0,0" : t.dims() == 3 ? "0,0,0" : "0,0,0,0");
  sw::Coord c;
  std::stringstream ss(text);
  std::string part;
  int d = 0;
  while (std::getline(ss, part, ',')) {
    if (d >= t.dims() || part.empty() || part.size() > 5 ||
        part.find_first_not_of("0123456789") != std::string::npos || (part.size() > 1 && part[0] == '0'))
      throw ConfigError(usage);
    c[d] = std::stoi(part);
    if (c[d] >= t.radix(d)) throw ConfigError(usage);
    ++d;
  }
  if (d != t.dims() || text.back() == ',') throw ConfigError(usage);
  return t.node(c);
}

void add_schedule_options(CLI::App* cmd, ScheduleChoice& c, const std::string& algo_note) {
  std::string algos;
  for (const std::string& name : sw::algo_names())
    algos += "\n  " + name + ": " + sw::algo_help(sw::parse_algo(name));
  std::string names;
  for (const std::string& name : sw::algo_names()) names += (names.empty() ? "" : ", ") + name;
  cmd->add_option("--algo", c.algo, "Algorithm" + algo_note + ":" + algos)->check(non_empty(names));
  cmd->add_option("--source", c.source, "Source node coordinates x,y,... (default: all 0)");
  cmd->add_flag("--keep-redundant", c.keep_redundant,
                "tseng, wang-tseng: keep the papers' re-sends to nodes that already hold the message");
  cmd->add_option("--dcf-variant", c.dcf_variant,
                  "dcf: sol2 (primary block reconstruction) or sol1 (B and C swapped)");
}

sw::Schedule make_schedule(const ScheduleChoice& c, const sw::Topology& t, int& source) {
  if (c.algo.empty()) throw ConfigError("--algo: required; allowed: dcf, edn, tseng, wang-tseng, rd, sequential");
  sw::BroadcastAlgo algo;
  try {
    algo = sw::parse_algo(c.algo);
  } catch (const std::invalid_argument& e) {
    throw ConfigError(std::string("--algo: ") + e.what());
  }
  sw::BroadcastOptions options;
  if (c.dcf_variant != "sol2" && c.dcf_variant != "sol1")
    throw ConfigError("--dcf-variant = '" + c.dcf_variant + "' is invalid; allowed: sol2, sol1");
  options.dcf_variant = c.dcf_variant == "sol1" ? sw::DcfVariant::Sol1 : sw::DcfVariant::Sol2;
  options.keep_redundant = c.keep_redundant;
  // The options of one algorithm only, refused with another (rather than ignored).
  if (c.keep_redundant && algo != sw::BroadcastAlgo::Tseng && algo != sw::BroadcastAlgo::WangTseng)
    throw ConfigError(fmt::format("--keep-redundant is invalid with --algo {}; allowed with --algo tseng or wang-tseng",
                                  c.algo));
  if (c.dcf_variant == "sol1" && algo != sw::BroadcastAlgo::Dcf)
    throw ConfigError(fmt::format("--dcf-variant sol1 is invalid with --algo {}; allowed with --algo dcf", c.algo));
  source = parse_source(t, c.source);
  try {
    return sw::generate_broadcast(algo, t, source, options);
  } catch (const std::invalid_argument& e) {
    throw ConfigError(fmt::format("--net/--algo: {}; allowed: the networks --algo {} is defined on, as above", e.what(),
                                  c.algo));
  }
}

CLI::Validator decimal_int(int64_t lo, int64_t hi) {
  return CLI::Validator(
      [lo, hi](std::string& v) -> std::string {
        try {
          parse_int("value", v, lo, hi);
        } catch (const ConfigError&) {
          return fmt::format("'{}' is invalid; allowed: a decimal integer {}..{}", v, lo, hi);
        }
        return "";
      },
      fmt::format("INT in {}..{}", lo, hi));
}

CLI::Validator decimal_real(double lo, double hi) {
  return CLI::Validator(
      [lo, hi](std::string& v) -> std::string {
        try {
          parse_real("value", v, lo, hi);
        } catch (const ConfigError&) {
          return fmt::format("'{}' is invalid; allowed: a finite decimal number {}..{}", shown_value(v), lo, hi);
        }
        return "";
      },
      fmt::format("NUMBER in {}..{}", lo, hi));
}

namespace {
/// The name of the checks that refuse an empty value themselves (refuse_empty_values skips them).
const char* const kRefusesEmpty = "refuses-empty";
}  // namespace

CLI::Validator non_empty(const std::string& allowed) {
  return CLI::Validator(
      [allowed](std::string& v) -> std::string {
        if (!v.empty()) return "";
        return "an empty value is not allowed (it does not stand for the default); allowed: " + allowed;
      },
      "", kRefusesEmpty);
}

CLI::Validator file_path(bool standard_output) {
  return CLI::Validator(
      [standard_output](std::string& v) -> std::string {
        if (v.empty())
          return standard_output ? "the path is empty; allowed: a file name, or - for standard output"
                                 : "the path is empty; allowed: a file name";
        return stdout_path_error(standard_output ? "--json" : "", v);
      },
      "FILE", kRefusesEmpty);
}

void refuse_empty_values(CLI::App& app) {
  for (CLI::Option* opt : app.get_options()) {
    if (opt->get_expected_max() == 0) continue;  // a flag: no value
    try {
      opt->get_validator(kRefusesEmpty);
      continue;  // its own check says what is allowed
    } catch (const CLI::OptionNotFound&) {
    }
    // What is allowed: the option's help text, its first line, at most about 160 characters.
    std::string allowed = opt->get_description();
    allowed = allowed.substr(0, allowed.find('\n'));
    if (allowed.size() > 160) {
      const size_t cut = allowed.rfind(' ', 150);
      allowed = allowed.substr(0, cut == std::string::npos ? 150 : cut) + " ...";
    }
    if (allowed.empty()) allowed = "a value (wormcast COMMAND --help)";
    opt->check(non_empty(allowed));
  }
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) refuse_empty_values(*sub);
}

void require_with(const CLI::App* cmd, const std::string& flag, bool on, const std::vector<std::string>& options) {
  if (on) return;
  for (const std::string& o : options)
    if (cmd->count(o))
      throw ConfigError(fmt::format("{} needs {}; allowed: {} only together with {}", o, flag,
                                    o, flag));
}

const std::vector<std::string>& record_option_names() {
  static const std::vector<std::string> names{"--vcd",        "--fst",        "--vcd-routers",   "--vcd-window",
                                              "--trace",      "--deliveries", "--packets",       "--router-vcd",
                                              "--deadlock-dot", "--max-output-size"};
  return names;
}

namespace {
/// The name of config_value's checks: this prefix, then the key.
const std::string kConfigKeyCheck = "config-key ";

/// A key's type as help shows it, from its default and what it accepts: BOOL, INT, NUMBER or TEXT.
std::string key_type(const ConfigKey& k) {
  if (k.allowed == "true or false") return "BOOL";
  const std::string& d = k.def;
  if (d.empty() || d.find_first_not_of("0123456789.-e") != std::string::npos) return "TEXT";
  if (d.find_first_of(".e") != std::string::npos) return "NUMBER";
  // An integer default: the key is a number when it takes a fraction next to its default.
  if (key_value_error(k.key, d + ".5").empty()) return "NUMBER";
  if (d != "0" && d[0] != '-' && key_value_error(k.key, std::to_string(std::stoll(d) - 1) + ".5").empty())
    return "NUMBER";
  return "INT";
}
}  // namespace

CLI::Validator config_value(const std::string& key) {
  return CLI::Validator([key](std::string& v) { return key_value_error(key, v); }, "", kConfigKeyCheck + key);
}

void show_types_and_defaults(CLI::App& app, bool recursive) {
  for (CLI::Option* opt : app.get_options()) {
    if (opt->get_expected_max() == 0) continue;  // a flag
    std::string type;
    for (int i = 0;; ++i) {
      CLI::Validator* v = nullptr;
      try {
        v = opt->get_validator(i);
      } catch (const CLI::OptionNotFound&) {
        break;
      }
      const std::string& name = v->get_name();
      if (name.compare(0, kConfigKeyCheck.size(), kConfigKeyCheck) == 0) {
        if (const ConfigKey* k = find_config_key(name.substr(kConfigKeyCheck.size()))) {
          type = key_type(*k);
          if (opt->get_default_str().empty() && !k->def.empty()) opt->default_str(k->def);
        }
      } else if (!v->get_description().empty()) {
        type += (type.empty() ? "" : " ") + v->get_description();
        v->description("");
      }
    }
    if (!type.empty()) opt->type_name(type);
    if (opt->get_default_str() == "[]") opt->default_str("");  // a repeatable option given none
    // A variable's initial value that no check accepts (-1, 0) marks "not given", not a default.
    for (int i = 0; !opt->get_default_str().empty(); ++i) {
      try {
        std::string value = opt->get_default_str();
        if (!(*opt->get_validator(i))(value).empty()) opt->default_str("");
      } catch (const CLI::OptionNotFound&) {
        break;
      }
    }
  }
  if (recursive)
    for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) show_types_and_defaults(*sub, true);
}

void add_record_options(CLI::App* cmd, RecordOptions& o) {
  cmd->add_option("--vcd", o.vcd_path, "write a VCD waveform of every router port to FILE (FILE.vcd when FILE does not end in .vcd) and a GTKWave save file next to it (its name with .gtkw for .vcd)")
      ->check(file_path());
  cmd->add_option("--fst", o.fst_path, "write that waveform as FST (compressed; GTKWave save file next to it)")
      ->check(file_path());
  cmd->add_option("--vcd-routers", o.vcd_routers,
                  "with --vcd/--fst: only these routers, e.g. r_0_0,r_1_0 (the waveform and its save file)");
  cmd->add_option("--vcd-window", o.vcd_window, "with --vcd/--fst: only cycles START:END, e.g. 5000:5200");
  cmd->add_option("--trace", o.trace_path,
                  "write every flit hop as CSV: cycle,router,in_port,out_port,vc,packet,flit,head,tail (every router model)")
      ->check(file_path());
  cmd->add_option("--deliveries", o.deliveries_path,
                  "write every flit leaving the network as CSV: cycle,node,src,packet,flit,vc")
      ->check(file_path());
  cmd->add_option("--packets", o.packets_path,
                  "write every packet delivered as CSV: packet,src,dst,via,flits,created,injected,arrived,hops,"
                  "latency,network_latency (a multi-destination packet: a line per node that received it)")
      ->check(file_path());
  cmd->add_option("--router-vcd,--rtl-vcd", o.rtl_vcd,
                  "ROUTER=FILE.vcd: the inside of that router, e.g. r_3_4=r34.vcd (repeatable): an RTL router's "
                  "every signal; a SystemC router's state per input VC (count, active, output port and VC) and "
                  "output VC (credits, allocated)");
  cmd->add_option("--deadlock-dot", o.deadlock_dot_path,
                  "on a deadlock, write the wait-for graph (buffer -> buffer it waits for, a cycle in red) as "
                  "Graphviz DOT")
      ->check(file_path());
  cmd->add_option("--max-output-size", o.max_output_size,
                  "limit on traces and waveforms together, bytes or with K, M, G, T (default 4G): a run estimated "
                  "larger is refused before it starts, one that grows larger is stopped (exit 2, nothing written)");
}

void add_common(CLI::App* cmd, CommonOptions& o) {
  cmd->add_option("--set", o.sets, "override a configuration key: --set router.buffer_depth=8 (repeatable)");
  cmd->add_option("--json", o.json, "write the result (effective configuration echoed) as JSON (- for standard output)")
      ->check(file_path(true));
  add_record_options(cmd, o.rec);
}

void add_run_length_options(CLI::App* cmd, RunLength& r) {
  cmd->add_option("--seed", r.seed, "random seed")->check(config_value("sim.seed"));
  cmd->add_option("--warmup", r.warmup, "warm-up cycles")->check(config_value("sim.warmup"));
  cmd->add_option("--measure", r.measure, "measured cycles")->check(config_value("sim.measure"));
}

void run_length_overrides(const CLI::App* cmd, const RunLength& r, Overrides& ov) {
  if (cmd->count("--seed")) ov.emplace_back("sim.seed", r.seed);
  if (cmd->count("--warmup")) ov.emplace_back("sim.warmup", r.warmup);
  if (cmd->count("--measure")) ov.emplace_back("sim.measure", r.measure);
}

namespace {
/// A decimal number's exact canonical form (its significant digits without leading or trailing
/// zeros, the exponent of the last one, the sign), or "" when the text is no decimal number.
std::string canonical_decimal(const std::string& t) {
  const bool minus = !t.empty() && t[0] == '-';
  size_t i = !t.empty() && (t[0] == '-' || t[0] == '+') ? 1 : 0;
  std::string digits;
  long long exp = 0;
  bool any = false, point = false;
  for (; i < t.size(); ++i) {
    const char c = t[i];
    if (c >= '0' && c <= '9') {
      digits += c;
      any = true;
      if (point) --exp;
    } else if (c == '.' && !point) {
      point = true;
    } else {
      break;
    }
  }
  if (!any) return "";
  const bool zero = digits.find_first_not_of('0') == std::string::npos;
  if (i < t.size()) {
    if (t[i] != 'e' && t[i] != 'E') return "";
    std::string e = t.substr(i + 1);
    const bool e_minus = !e.empty() && e[0] == '-';
    if (!e.empty() && (e[0] == '-' || e[0] == '+')) e.erase(0, 1);
    if (e.empty() || e.find_first_not_of("0123456789") != std::string::npos) return "";
    if (zero) return "0";  // zero whatever its exponent
    e.erase(0, std::min(e.find_first_not_of('0'), e.size() - 1));  // its leading zeros
    if (e.size() > 12) return "";  // beyond any key's range: compared as text
    exp += e_minus ? -std::stoll(e) : std::stoll(e);
  }
  if (zero) return "0";
  const size_t first = digits.find_first_not_of('0');
  digits.erase(0, first);
  while (digits.back() == '0') {
    digits.pop_back();
    ++exp;
  }
  return std::string(minus ? "-" : "") + digits + "e" + std::to_string(exp);
}

/// Two values of one key are the same: the same text, or the same number written two ways (0.1,
/// 0.10, 1e-1; compared exactly, digit by digit, not as floating point).
bool same_value(const std::string& a, const std::string& b) {
  if (a == b) return true;
  const std::string x = canonical_decimal(a);
  return !x.empty() && x == canonical_decimal(b);
}
}  // namespace

void check_set_conflicts(const Overrides& given, const std::vector<std::string>& sets) {
  for (auto& s : sets) {
    const auto kv = parse_override(s);
    for (auto& g : given)
      if (g.first == kv.first && !same_value(g.second, kv.second))
        throw ConfigError(fmt::format("--set {}={} conflicts with {} = '{}' given by an option of the command line; "
                                      "allowed: one of them, or the same value in both",
                                      kv.first, kv.second, g.first, g.second));
  }
}

void refuse_unused_with_trace(const Config& cfg, const Overrides& given, bool length_applies) {
  if (cfg.traffic.trace.empty()) return;
  static const char* const kDrawn[] = {"traffic.rate",      "traffic.pattern",  "traffic.process",
                                       "traffic.burst_alpha", "traffic.burst_beta", "traffic.sizes",
                                       "traffic.hotspots",  "traffic.hotspot_fraction", "traffic.message_len",
                                       "traffic.packet_len", "traffic.region", "traffic.source_queue"};
  for (const auto& [key, value] : given)
    for (const char* k : kDrawn)
      if (key == k && !(length_applies && key == "traffic.packet_len"))
        throw ConfigError(fmt::format("config: {} = {} is not used with traffic.trace (the trace injects exactly its "
                                      "messages, each with its cycle, source, destination and length); allowed with a trace: leave {} out",
                                      key, shown_value(value), key));
}

Config load_config_for_net(const std::string& yaml_path, const Overrides& ov, const std::string& net) {
  try {
    return load_config(yaml_path, ov);
  } catch (const ConfigError& e) {
    if (!net.empty() && std::string(e.what()).find("net.radix") != std::string::npos)
      throw ConfigError(fmt::format("--net = '{}' is invalid: {}", net, e.what()));
    throw;
  }
}

void refuse_traffic_keys(const char* command, const std::vector<std::string>& sets) {
  for (const std::string& s : sets) {
    const auto [key, value] = parse_override(s);
    if (key.rfind("traffic.", 0) == 0)
      throw ConfigError(fmt::format("--set {} = {} is not used by `wormcast {}` (its node software sends every "
                                    "message; no traffic source runs); allowed: leave {} out",
                                    key, shown_value(value), command, key));
  }
}

namespace {
// A cut of `s` at `at` moved back to the start of a UTF-8 sequence (at most 3 bytes: a longer run
// of continuation bytes is no sequence, cut where asked), so that no character is split.
size_t character_start(const std::string& s, size_t at) {
  const auto continuation = [&](size_t i) { return (uint8_t(s[i]) & 0xC0) == 0x80; };
  for (size_t back = 0; back < 3 && at > back && at - back < s.size() && continuation(at - back); ++back)
    if (!continuation(at - back - 1)) return at - back - 1;
  return at;
}

// The length of the well-formed UTF-8 sequence at s[i] (2..4 bytes; no overlong form, surrogate
// or code point above U+10FFFF), 0 when there is none.
size_t utf8_length(const std::string& s, size_t i) {
  const auto byte = [&](size_t j) { return j < s.size() ? uint8_t(s[j]) : uint8_t(0); };
  const uint8_t b = byte(i);
  const auto cont = [&](size_t j) { return (byte(j) & 0xC0) == 0x80; };
  if (b >= 0xC2 && b <= 0xDF) return cont(i + 1) ? 2 : 0;
  if (b >= 0xE0 && b <= 0xEF) {
    const uint8_t lo = b == 0xE0 ? 0xA0 : 0x80, hi = b == 0xED ? 0x9F : 0xBF;
    return byte(i + 1) >= lo && byte(i + 1) <= hi && cont(i + 2) ? 3 : 0;
  }
  if (b >= 0xF0 && b <= 0xF4) {
    const uint8_t lo = b == 0xF0 ? 0x90 : 0x80, hi = b == 0xF4 ? 0x8F : 0xBF;
    return byte(i + 1) >= lo && byte(i + 1) <= hi && cont(i + 2) && cont(i + 3) ? 4 : 0;
  }
  return 0;
}

// Characters in s[from, to): its UTF-8 sequences, and each byte that is in none.
size_t characters(const std::string& s, size_t from, size_t to) {
  size_t n = 0;
  for (size_t i = from; i < to && i < s.size(); ++n) i += std::max<size_t>(1, utf8_length(s, i));
  return n;
}

// utf8_length, but 0 (escaped as the other control bytes are) for the C1 control characters
// (U+0080..U+009F, among them a terminal's escape U+009B) and the line and paragraph separators
// (U+2028, U+2029).
size_t utf8_sequence(const std::string& s, size_t i) {
  const size_t n = utf8_length(s, i);
  if (n == 2 && uint8_t(s[i]) == 0xC2 && uint8_t(s[i + 1]) < 0xA0) return 0;  // U+0080..U+009F
  if (n == 3 && uint8_t(s[i]) == 0xE2 && uint8_t(s[i + 1]) == 0x80 &&
      (uint8_t(s[i + 2]) == 0xA8 || uint8_t(s[i + 2]) == 0xA9))
    return 0;  // U+2028, U+2029
  return n;
}
}  // namespace

std::string shown_value(const std::string& value) {
  constexpr size_t kMax = 80;
  if (value.size() <= kMax) return value;
  return fmt::format("{}... ({} characters)", value.substr(0, character_start(value, kMax - 20)),
                     characters(value, 0, value.size()));
}

std::string one_line_message(std::string raw) {
  // A line break or tab becomes a space; any other control byte, and a byte that is not part of
  // well-formed UTF-8 (a value typed in another encoding), is written as \xNN, so that a message
  // echoing the user's text is one line of plain text on any terminal.
  std::string message;
  message.reserve(raw.size());
  for (size_t i = 0; i < raw.size();) {
    const uint8_t c = uint8_t(raw[i]);
    if (c == '\n' || c == '\r' || c == '\t') {
      message += ' ';
      ++i;
    } else if (c >= 0x20 && c < 0x7F) {
      message += char(c);
      ++i;
    } else if (const size_t n = c >= 0x80 ? utf8_sequence(raw, i) : 0; n) {
      message.append(raw, i, n);
      i += n;
    } else {
      message += fmt::format("\\x{:02X}", c);
      ++i;
    }
  }
  // The shortened message (its head, the count left out, its tail) stays within kMax characters
  // too (the marker takes at most 45 of them, a 20-digit count), and the line with the program's
  // prefix ("wormcast broadcast: ", at most 30) within 400.
  constexpr size_t kMax = 370, kHead = 125, kTail = 200;
  if (message.size() <= kMax) return message;
  // (The cuts move back to the start of a UTF-8 sequence: no character is split.)
  const size_t head = character_start(message, kHead), tail = character_start(message, message.size() - kTail);
  return fmt::format("{} ... [{} characters left out] ... {}", message.substr(0, head),
                     characters(message, head, tail), message.substr(tail));
}

std::string parse_error_line(std::string what, const std::string& help) {
  // CLI11's wording for an option given twice, in the house form.
  const std::string twice = "At Most 1 required but received ";
  if (const size_t at = what.find(twice); at != std::string::npos)
    what = what.substr(0, at) + "given " + what.substr(at + twice.size()) + " times; allowed: once";
  if (what.find("allowed") == std::string::npos)
    what += "; allowed: the options and arguments `" + help + " --help` lists";
  return one_line_message(what);  // one line, whatever the library wrote
}

void set_command_action(CLI::App* cmd, std::function<int()> action) {
  // The command's whole path below the program ("rtl build", "ibt bcast"), as typed.
  std::string name = cmd->get_name();
  for (const CLI::App* up = cmd->get_parent(); up && up->get_parent(); up = up->get_parent())
    name = up->get_name() + " " + name;
  cmd->callback([name, action]() {
    int rc = 0;
    try {
      rc = action();
    } catch (const DryRunStop&) {
      rc = 0;  // a dry run ends where the work would start (tb/run/dry_run.h)
    } catch (const ConfigError& e) {
      std::cerr << "wormcast " << name << ": " << one_line_message(e.what()) << "\n";
      rc = 2;
    } catch (const std::bad_alloc&) {
      std::cerr << "wormcast " << name << ": out of memory\n";
      rc = 2;
    }
    if (rc != 0) throw CLI::RuntimeError(rc);
  });
}

}  // namespace wormcast
