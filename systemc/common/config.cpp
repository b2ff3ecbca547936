// The configuration schema (the common keys of common_keys.cpp, then each family's own from its
// registration: every default and allowed range in one table), YAML loading, overrides,
// validation and the echo generated from the same table.
// Why one file: loading, overriding, validating and echoing walk the one schema table, and each
// must treat a key exactly as the others do; the keys themselves are in common_keys.cpp and the
// families' folders.
#include "systemc/common/config.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>
#include <charconv>
#include <fstream>
#include <sys/stat.h>
#include <cerrno>
#include <cstring>
#include <cstdlib>
#include <iterator>
#include <limits>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include "systemc/common/config_keys.h"
#include "systemc/common/family.h"
#include "systemc/common/limits.h"

namespace wormcast {
namespace {

using Values = std::map<std::string, std::string>;

using Field = ConfigKey;

/// Edit distance (insertions, deletions, substitutions) between a and b.
size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

/// " (did you mean 'router.buffer_depth'?)" for the schema key nearest to an unknown one: within
/// a third of its length in edits, or the only key with the same name after the section.
std::string nearest_key_hint(const std::string& key);

/// A key of the schema and the families that register it (empty: a key of every family).
struct SchemaKey {
  ConfigKey key;
  std::vector<std::string> families;
};

/// Every key: the common keys, then each registered family's keys in registration order (a key
/// several families register, e.g. their shared router's, once, with each family's name). Rebuilt
/// when a family is registered.
const std::vector<SchemaKey>& schema() {
  static std::vector<SchemaKey> keys;
  static uint64_t built = 0;
  const std::vector<std::string> names = family_names();  // first: the built-in families register
  if (built == family_registry_version()) return keys;
  keys.clear();
  for (const Field& f : common_keys()) keys.push_back(SchemaKey{f, {}});
  for (const std::string& name : names)
    for (const ConfigKey& k : find_family(name)->keys) {
      auto it = std::find_if(keys.begin(), keys.end(), [&](const SchemaKey& e) { return e.key.key == k.key; });
      if (it == keys.end()) {
        keys.push_back(SchemaKey{k, {name}});
      } else if (it->families.empty()) {
        throw std::logic_error(fmt::format("family {} registers the common key {}", name, k.key));
      } else {
        it->families.push_back(name);
      }
    }
  built = family_registry_version();
  return keys;
}

const SchemaKey* find_key(const std::string& key) {
  for (const SchemaKey& k : schema())
    if (k.key.key == key) return &k;
  return nullptr;
}

bool in_family(const SchemaKey& k, const std::string& family) {
  return k.families.empty() || std::find(k.families.begin(), k.families.end(), family) != k.families.end();
}

[[noreturn]] void bad_yaml(const std::string& path, const YAML::Mark& m, const std::string& what) {
  throw ConfigError(fmt::format("config: '{}' line {} column {}: {}{}", path, m.line + 1, m.column + 1, what,
                                what.find("allowed") == std::string::npos
                                    ? "; allowed: one YAML document, a map of sections with one value per key"
                                    : ""));
}

/// at: where the value's key stands (an empty value's own mark is the next token's, lines later).
std::string scalar_text(const std::string& path, const std::string& key, const YAML::Node& n, const YAML::Mark& at) {
  if (n.IsNull()) bad_yaml(path, at, fmt::format("{} has an empty value", key));
  if (!n.IsScalar())
    bad_yaml(path, n.Mark(), fmt::format("{} must be a single value, not a {}", key, n.IsMap() ? "map" : "list"));
  return n.Scalar();
}

/// The strict shape of a configuration: a map of sections, each a map of key -> scalar (a flat
/// list of scalars for the list keys). Duplicate keys, non-scalar keys, empty values and deeper
/// nesting are errors with their line and column; the fixed depth also bounds recursive aliases.
void flatten(const std::string& path, const YAML::Node& root, Values& out) {
  if (root.IsNull()) return;  // an empty file: every default
  if (!root.IsMap()) bad_yaml(path, root.Mark(), "expected a map of sections (net:, router:, traffic:, ...)");
  std::set<std::string> sections;
  for (auto it : root) {
    if (!it.first.IsScalar()) bad_yaml(path, it.first.Mark(), "a section name must be a plain word");
    const std::string sec = it.first.Scalar();
    if (!sections.insert(sec).second) bad_yaml(path, it.first.Mark(), fmt::format("duplicate section '{}'", sec));
    const YAML::Node& body = it.second;
    if (body.IsNull()) continue;  // a section with no keys (all commented out): as {}
    if (!body.IsMap()) bad_yaml(path, body.Mark(), fmt::format("section '{}' must be a map of keys", sec));
    std::set<std::string> keys;
    for (auto kv : body) {
      if (!kv.first.IsScalar()) bad_yaml(path, kv.first.Mark(), fmt::format("a key of section '{}' must be a plain word", sec));
      const std::string key = sec + "." + kv.first.Scalar();
      if (!keys.insert(key).second) bad_yaml(path, kv.first.Mark(), fmt::format("duplicate key '{}'", key));
      const YAML::Node& v = kv.second;
      const SchemaKey* row = v.IsSequence() || v.IsMap() ? find_key(key) : nullptr;
      if ((v.IsSequence() || v.IsMap()) && !row) {
        out[key] = "";  // an unknown key: refused as such, with the nearest key, when the values apply
        continue;
      }
      if (row && row->key.list_sep && v.IsSequence()) {
        if (v.size() == 0) bad_yaml(path, v.Mark(), fmt::format("{} has an empty list", key));
        std::string joined;
        const char sep = row->key.list_sep;
        for (size_t i = 0; i < v.size(); ++i) {
          if (i) joined += sep;
          const std::string entry = scalar_text(path, key, v[i], v.Mark());
          // (An entry holding the separator would be read as several: [3, "x"] as "3xx".)
          if (entry.find(sep) != std::string::npos)
            bad_yaml(path, v[i].Mark(), fmt::format("{} has the list entry '{}', which holds the separator '{}'; "
                                                    "allowed: one value per entry", key, entry, sep));
          joined += entry;
        }
        out[key] = joined;
      } else {
        out[key] = scalar_text(path, key, v, kv.first.Mark());
      }
    }
  }
}

/// The configuration file's text; a directory, FIFO or device is refused before it is opened
/// (opening a FIFO would block).
std::string read_config_file(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0)
    throw ConfigError(fmt::format("config: cannot read '{}': {}; allowed: a readable YAML file", path, std::strerror(errno)));
  if (S_ISDIR(st.st_mode)) throw ConfigError(fmt::format("config: '{}' is a directory; allowed: a YAML file", path));
  if (!S_ISREG(st.st_mode)) throw ConfigError(fmt::format("config: '{}' is not a regular file; allowed: a YAML file", path));
  if (st.st_size > (1 << 20)) throw ConfigError(fmt::format("config: '{}' is larger than 1 MiB; allowed: at most 1 MiB", path));
  std::ifstream in(path, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!in.good() && !in.eof()) throw ConfigError(fmt::format("config: cannot read '{}'; allowed: a readable YAML file", path));
  return text;
}

Config build_config(Values values, const Overrides& overrides);

/// Counts documents and where each starts, building nothing.
class DocumentCounter : public YAML::EventHandler {
 public:
  std::vector<YAML::Mark> starts;
  void OnDocumentStart(const YAML::Mark& mark) override { starts.push_back(mark); }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}
};

void load_yaml_text(const std::string& name, const std::string& text, Values& values) {
  try {
    // At most three documents are looked at: the library's own LoadAll never ends (and grows
    // without bound) on a stray ',' at the top level, which it takes for an endless run of empty
    // documents, all starting at the same place.
    std::istringstream in(text);
    YAML::Parser parser(in);
    DocumentCounter counter;
    for (int i = 0; i < 3 && parser.HandleNextDocument(counter); ++i) {
    }
    const auto& at = counter.starts;
    if (at.size() > 1) {
      const bool stuck = at[1].pos == at[0].pos || (at.size() > 2 && at[2].pos == at[1].pos);
      bad_yaml(name, at[1], stuck ? "cannot be read as YAML here (a stray ',' or similar)"
                              : "more than one YAML document; give one configuration per file");
    }
    if (!counter.starts.empty()) flatten(name, YAML::Load(text), values);
  } catch (const YAML::Exception& e) {
    if (e.mark.is_null()) throw ConfigError(fmt::format("config: '{}': {}", name, e.msg));
    bad_yaml(name, e.mark, e.msg);
  }
}

}  // namespace

[[noreturn]] void bad_value(const ConfigKey& k, const std::string& v, const char* kind) {
  throw ConfigError(fmt::format("config: {} = '{}' is invalid; allowed: {}{}", k.key, v, k.allowed, kind));
}

int64_t key_int(const ConfigKey& k, const std::string& v, int64_t lo, int64_t hi) {
  try {
    return parse_int(k.key, v, lo, hi);
  } catch (const ConfigError&) {
    bad_value(k, v, " (a decimal integer)");  // a fraction or 2.0 inside the range is not one
  }
}

double key_real(const ConfigKey& k, const std::string& v, double lo, double hi) {
  try {
    return parse_real(k.key, v, lo, hi);
  } catch (const ConfigError&) {
    bad_value(k, v);
  }
}

bool key_bool(const ConfigKey& k, const std::string& v) {
  // YAML 1.2's core spellings (true, True, TRUE) and YAML 1.1's yes / on, and 1; the same for false.
  if (v == "true" || v == "True" || v == "TRUE" || v == "1" || v == "yes" || v == "on") return true;
  if (v == "false" || v == "False" || v == "FALSE" || v == "0" || v == "no" || v == "off") return false;
  bad_value(k, v);
}

int64_t parse_int(const std::string& what, const std::string& text, int64_t lo, int64_t hi) {
  const char* b = text.data();
  const char* e = b + text.size();
  const char* digits = b + (text.size() > 0 && text[0] == '-');
  int64_t x = 0;
  const auto r = std::from_chars(b, e, x, 10);
  // No leading zeros (010 is not octal 8), and no sign on zero: -0 is refused as +0 is.
  const bool decimal = digits < e && !(*digits == '0' && digits + 1 < e) && !(digits != b && *digits == '0');
  if (text.empty() || r.ec == std::errc::result_out_of_range || r.ec != std::errc() || r.ptr != e || !decimal ||
      x < lo || x > hi)
    throw ConfigError(fmt::format("{} = '{}' is invalid; allowed: a decimal integer {}..{}", what, text, lo, hi));
  return x;
}

double parse_real(const std::string& what, const std::string& text, double lo, double hi) {
  // Decimal notation only: digits, one point, an optional exponent; no sign +, hex, inf, nan, spaces.
  const auto ok_char = [](char c) { return (c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '-' || c == '+'; };
  // No leading zeros either (010 and 00, as for integers), and no sign on zero (-0, -0.0).
  const size_t int_at = !text.empty() && text[0] == '-' ? 1 : 0;
  bool valid = !text.empty() && std::all_of(text.begin(), text.end(), ok_char) && text[0] != '+' &&
               text.find_first_of("0123456789") != std::string::npos &&
               !(text.size() > int_at + 1 && text[int_at] == '0' && text[int_at + 1] >= '0' && text[int_at + 1] <= '9');
  double x = 0;
  if (valid) {
    // A value too small for a normal double (5e-324, 1e-400) is that small number or 0, not an
    // error (std::stod would refuse it); only a value too large is out of range.
    char* stop = nullptr;
    errno = 0;
    x = std::strtod(text.c_str(), &stop);
    valid = stop == text.c_str() + text.size() && std::isfinite(x) &&
            !(errno == ERANGE && std::fabs(x) > std::numeric_limits<double>::min()) && !(int_at && x == 0);
  }
  if (!valid || !(x >= lo && x <= hi))
    throw ConfigError(fmt::format("{} = '{}' is invalid; allowed: a decimal number {}..{}", what, text, lo, hi));
  return x;
}

Config load_config_text(const std::string& name, const std::string& text, const Overrides& overrides) {
  Values values;
  load_yaml_text(name, text, values);
  return build_config(values, overrides);
}

std::string key_value_error(const std::string& key, const std::string& value) {
  const SchemaKey* row = find_key(key);
  if (!row) return fmt::format("unknown key '{}'", key);
  Config scratch;
  try {
    row->key.apply(scratch, value, row->key);
  } catch (const ConfigError& e) {
    // The allowed values as the key's own refusal (bad_value) gives them, with the kind of number.
    const std::string own = fmt::format("config: {} = '{}' is invalid; allowed: ", key, value), msg = e.what();
    const std::string allowed = msg.rfind(own, 0) == 0 ? msg.substr(own.size()) : row->key.allowed;
    return fmt::format("'{}' is invalid; allowed: {} (key {})", value, allowed, key);
  }
  return "";
}

std::vector<std::string> split_list(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  std::istringstream in(s);
  while (std::getline(in, cur, sep)) out.push_back(cur);
  if (!s.empty() && s.back() == sep) out.push_back("");
  return out;
}

sw::Topology NetConfig::topology() const {
  int r[sw::kMaxDims];
  bool t[sw::kMaxDims];
  for (size_t d = 0; d < radix.size() && d < size_t(sw::kMaxDims); ++d) {
    r[d] = radix[d];
    t[d] = d < torus.size() && torus[d];
  }
  return sw::Topology(int(radix.size()), r, t);
}

Overrides net_spec_overrides(const std::string& option, const std::string& spec) {
  std::vector<std::string> examples, kinds;
  for (auto& name : family_names()) {
    const Family* f = find_family(name);
    if (!f->net_examples.empty()) examples.push_back(f->net_examples);
    if (!f->net_kind_help.empty()) kinds.push_back(f->net_kind_help);
  }
  const auto colon = spec.find(':');
  if (colon == std::string::npos)
    throw ConfigError(fmt::format("{} '{}' is invalid; allowed: KIND:SHAPE, e.g. {}", option, spec, join(examples, ", ")));
  const std::string kind = spec.substr(0, colon), shape = spec.substr(colon + 1);
  for (auto& name : family_names()) {
    const Family* f = find_family(name);
    if (!f->net_kind) continue;
    Overrides ov = f->net_kind(kind, shape);
    if (!ov.empty()) return ov;
  }
  if (!find_family(kind))
    throw ConfigError(fmt::format("{} '{}': KIND is invalid; allowed: {}{}a family ({})", option, spec,
                                  join(kinds, ", "), kinds.empty() ? "" : ", or ", join(family_names(), ", ")));
  return {{"net.family", kind}, {"net.radix", shape}};
}

std::pair<std::string, std::string> parse_override(const std::string& arg) {
  const auto eq = arg.find('=');
  if (eq == std::string::npos || eq == 0)
    throw ConfigError(fmt::format("--set '{}' is invalid; allowed: key=value, e.g. router.buffer_depth=8", arg));
  return {arg.substr(0, eq), arg.substr(eq + 1)};
}

Overrides unless_in_file(const std::string& yaml_path, Overrides defaults) {
  if (yaml_path.empty()) return defaults;
  Values values;
  load_yaml_text(yaml_path, read_config_file(yaml_path), values);
  defaults.erase(std::remove_if(defaults.begin(), defaults.end(), [&](const auto& d) { return values.count(d.first) > 0; }),
                 defaults.end());
  return defaults;
}

Config load_config(const std::string& yaml_path, const Overrides& overrides) {
  Values values;
  if (!yaml_path.empty()) load_yaml_text(yaml_path, read_config_file(yaml_path), values);
  return build_config(values, overrides);
}

std::optional<std::string> config_file_value(const std::string& yaml_path, const std::string& key) {
  if (yaml_path.empty()) return std::nullopt;
  Values values;
  load_yaml_text(yaml_path, read_config_file(yaml_path), values);
  const auto it = values.find(key);
  if (it == values.end()) return std::nullopt;
  return it->second;
}

namespace {
std::string nearest_key_hint(const std::string& key) {
  const Field* best = nullptr;
  size_t best_d = std::string::npos;
  const std::string tail = key.substr(key.find('.') == std::string::npos ? 0 : key.find('.') + 1);
  const Field* same_tail = nullptr;
  int tails = 0;
  for (const SchemaKey& row : schema()) {
    const Field& f = row.key;
    const size_t d = edit_distance(key, f.key);
    if (d < best_d) {
      best_d = d;
      best = &f;
    }
    const std::string k = f.key;
    if (k.substr(k.find('.') + 1) == tail) {
      same_tail = &f;
      ++tails;
    }
  }
  if (best && best_d <= std::max<size_t>(2, key.size() / 3)) return fmt::format(" (did you mean '{}'?)", best->key);
  if (tails == 1) return fmt::format(" (did you mean '{}'?)", same_tail->key);
  return "";
}
}  // namespace

namespace {

Config build_config(Values values, const Overrides& overrides) {
  // A file's value that the command line replaces is still checked on its own (its key's range),
  // so that a file is valid or refused whatever the command line says.
  for (auto& [k, v] : overrides)
    if (const auto f = values.find(k); f != values.end() && f->second != v)
      if (const SchemaKey* row = find_key(k)) {
        Config scratch;
        try {
          row->key.apply(scratch, f->second, row->key);
        } catch (const ConfigError&) {
          throw ConfigError(fmt::format("config: {} = '{}' in the configuration file is invalid (the command line "
                                        "replaces it); allowed: {}",
                                        k, f->second, row->key.allowed));
        }
      }
  for (auto& [k, v] : overrides) values[k] = v;

  const std::string family = values.count("net.family") ? values["net.family"] : find_key("net.family")->key.def;
  const Family* fam = find_family(family);
  if (!fam)
    throw ConfigError(fmt::format("config: net.family = '{}' is invalid; allowed: {}", family, join(family_names(), ", ")));
  for (auto& kv : values) {
    const std::string& k = kv.first;  // a named reference: C++17 lambdas cannot capture a structured binding
    const SchemaKey* row = find_key(k);
    if (!row)
      throw ConfigError(fmt::format("config: unknown key '{}'{}; allowed: the keys `wormcast config` lists", k,
                                    nearest_key_hint(k)));
    if (!in_family(*row, family))
      throw ConfigError(fmt::format("config: {} belongs to the {} famil{}; allowed with net.family = {}: the keys "
                                    "`wormcast config` lists for it",
                                    k, join(row->families, " and "), row->families.size() == 1 ? "y" : "ies", family));
  }

  // A key's value may stand for values of other keys (a named preset): those not given are set.
  for (const SchemaKey& row : schema()) {
    const auto given = values.find(row.key.key);
    if (row.key.implies && given != values.end())
      for (auto& [k, v] : row.key.implies(given->second)) values.emplace(k, v);
  }
  // The family's own defaults, for the keys still not given.
  if (fam->defaults) {
    const auto value_of = [&values](const std::string& k) {
      const auto it = values.find(k);
      return it != values.end() ? it->second : find_key(k)->key.def;
    };
    for (auto& [k, v] : fam->defaults(value_of)) values.emplace(k, v);
  }

  // The common keys and the family's own; another family's part keeps its defaults.
  Config c;
  for (const SchemaKey& row : schema()) {
    if (!in_family(row, family)) continue;
    const Field& f = row.key;
    auto it = values.find(f.key);
    f.apply(c, it == values.end() ? f.def : it->second, f);
  }
  const sw::Topology topo = c.net.topology();
  const int nodes = topo.num_nodes();
  const Pattern pat = c.traffic.pattern;
  if ((pat == Pattern::BitReverse || pat == Pattern::Shuffle || pat == Pattern::Butterfly) && (nodes & (nodes - 1)))
    throw ConfigError(fmt::format("config: traffic.pattern = {} is invalid for {} nodes; allowed: a power-of-two "
                                  "node count",
                                  find_key("traffic.pattern")->key.show(c).get<std::string>(), nodes));
  if (pat == Pattern::Transpose)
    for (int d = 0; d < topo.dims(); ++d)
      if (topo.radix(d) != topo.radix(topo.dims() - 1 - d))
        throw ConfigError("config: traffic.pattern = transpose is invalid on this net.radix; allowed: radices "
                          "symmetric under reversing the dimension order (e.g. 8x8, 4x6x4)");
  if (c.traffic.process == InjectionProcess::OnOff) {
    double mean = c.traffic.mode == InjectionMode::Message ? c.traffic.message_len : c.traffic.packet_len;
    if (!c.traffic.sizes.empty()) {
      double w = 0, lw = 0;
      for (auto& [l, x] : c.traffic.sizes) {
        w += x;
        lw += l * x;
      }
      mean = lw / w;
    }
    const double on = c.traffic.burst_alpha / (c.traffic.burst_alpha + c.traffic.burst_beta);
    if (c.traffic.rate / mean / on > 1.0)
      throw ConfigError(fmt::format("config: traffic.rate = {} is invalid with traffic.process = onoff; allowed: at "
                                    "most {:.4g} (one message per cycle while on, on {:.3g} of the time)",
                                    c.traffic.rate, mean * on, on));
  }
  for (int h : c.traffic.hotspots)
    if (h >= nodes)
      throw ConfigError(fmt::format("config: traffic.hotspots = {} is invalid; allowed: node ids 0..{}", h, nodes - 1));
  if (fam->validate) fam->validate(c);
  // A value given on the command line where it takes no effect (ConfigKey::applies) is refused,
  // not silently ignored: the setting that would make it apply was most likely forgotten. The
  // default is let through; so is a file's value (a file may hold the settings of several set-ups,
  // as a run's echoed configuration holds every key), and so is a value that the switches the
  // command line sets keep off (a sweep's shared --set meets points where it takes no effect).
  // Under a trace every drawn-traffic key is unused: the trace's own rule refuses those
  // (tb/cli/commands.cpp), naming the trace.
  const auto on_command_line = [&overrides](const std::string& key) {
    return std::any_of(overrides.begin(), overrides.end(), [&key](const auto& o) { return o.first == key; });
  };
  // (refuse_without_effect skips a key that applies everywhere, or of another family.)
  for (const auto& given : overrides)
    if (find_key(given.first) && !(!c.traffic.trace.empty() && given.first.rfind("traffic.", 0) == 0))
      refuse_without_effect(c, given.first, values[given.first], on_command_line);
  return c;
}

}  // namespace

nlohmann::json Config::echo() const {
  nlohmann::json j;
  for (const SchemaKey& row : schema()) {
    if (!in_family(row, net.family)) continue;
    const std::string& key = row.key.key;
    const auto dot = key.find('.');
    j[key.substr(0, dot)][key.substr(dot + 1)] = row.key.show(*this);
  }
  return j;
}

namespace {
/// A key's effective value in c as text, as a --set would give it (a string as it is, a number
/// in its shortest form: 0, not 0.0).
std::string shown(const Config& c, const std::string& key) {
  const nlohmann::json v = find_key(key)->key.show(c);
  if (v.is_number_float()) return fmt::format("{}", v.get<double>());
  return v.is_string() ? v.get<std::string>() : v.dump();
}
}  // namespace

void refuse_without_effect(const Config& c, const std::string& key, const std::string& value, const KeyTest& given,
                           const KeyTest& fixed) {
  const SchemaKey* row = find_key(key);
  if (!row || !row->key.applies || !in_family(*row, c.net.family)) return;
  const ConfigKey& f = row->key;
  if (f.applies(c)) return;
  Config d = c;
  f.apply(d, f.def, f);
  if (f.show(d) == f.show(c)) return;
  // The switches turned on where the user may still set them: those the command line leaves to the
  // file or their defaults (free), and those it sets too (user).
  Config free_on = c, user_on = c;
  std::vector<std::string> suggest;  // free switches that are off
  for (const auto& [k, on] : f.switches) {
    if (fixed && fixed(k)) continue;
    const ConfigKey& s = find_key(k)->key;
    s.apply(user_on, on, s);
    if (given(k)) continue;
    if (shown(c, k) != on) suggest.push_back(k);
    s.apply(free_on, on, s);
  }
  const bool forgotten = f.applies(free_on);
  if (!forgotten && f.applies(user_on)) return;  // the command line's own switches keep it off
  // The condition's keys that keep it off: a switch away from its value, and every key that is none.
  std::vector<std::string> met;
  for (const std::string& k : f.reads) {
    const auto sw = std::find_if(f.switches.begin(), f.switches.end(), [&k](const auto& o) { return o.first == k; });
    const std::string v = shown(c, k);
    if (sw == f.switches.end() || sw->second != v) met.push_back(v.empty() ? k + " empty" : k + " = " + v);
  }
  throw ConfigError(fmt::format("config: {} = '{}' is not used with {} (it applies with {}); allowed there: leave {} "
                                "out (or at its default {}){}",
                                key, value, join(met, ", "), f.where, key, f.def,
                                forgotten && !suggest.empty() ? fmt::format(", or set {} too", join(suggest, " and "))
                                                              : std::string()));
}

void only_where(std::vector<ConfigKey>& keys, const std::string& name, std::function<bool(const Config&)> applies,
                std::string where, std::vector<std::string> reads, Overrides switches) {
  for (ConfigKey& k : keys)
    if (k.key == name) {
      k.applies = std::move(applies);
      k.where = std::move(where);
      k.reads = std::move(reads);
      k.switches = std::move(switches);
      return;
    }
  throw std::logic_error("only_where: no key " + name);
}

void only_with(std::vector<ConfigKey>& keys, const std::string& name, const char* on, const char* value) {
  const std::string k = on, v = value;
  only_where(keys, name, [k, v](const Config& c) { return shown(c, k) == v; }, k + " = " + v, {k}, {{k, v}});
}

const ConfigKey* find_config_key(const std::string& key) {
  const SchemaKey* row = find_key(key);
  return row ? &row->key : nullptr;
}

std::vector<std::string> config_key_families(const std::string& key) {
  const SchemaKey* row = find_key(key);
  return row ? row->families : std::vector<std::string>{};
}

namespace {
/// A key's allowed values, and where it takes effect when that is not everywhere.
std::string allowed_where(const Field& f) {
  if (!f.applies) return f.allowed;
  std::vector<std::string> switches;
  for (const auto& [k, v] : f.switches) switches.push_back(k);
  return fmt::format("{}; only with {} (elsewhere the command line gives only the default, or sets {} too)", f.allowed,
                     f.where, join(switches, " or "));
}
}  // namespace

std::string config_reference() {
  std::string s;
  for (const SchemaKey& row : schema()) {
    const Field& f = row.key;
    s += fmt::format("  {:<26} default {:<10} {}{}\n  {:<26} allowed: {}\n", f.key, f.def, f.help,
                     row.families.empty() ? "" : fmt::format(" [family {}]", join(row.families, ",")), "",
                     allowed_where(f));
  }
  s += "\n  families:\n";
  for (auto& name : family_names()) s += fmt::format("    {:<10} {}\n", name, find_family(name)->help);
  return s;
}

namespace {
/// Text as one Markdown table cell: '|' escaped, line breaks as spaces, an empty value named.
std::string cell(std::string text) {
  std::string s;
  for (char ch : text) {
    if (ch == '|')
      s += "\\|";
    else
      s += ch == '\n' ? ' ' : ch;
  }
  return s.empty() ? "(empty)" : s;
}
}  // namespace

std::string config_reference_markdown() {
  std::string s =
      "| key | default | allowed | meaning | family |\n"
      "|---|---|---|---|---|\n";
  for (const SchemaKey& row : schema()) {
    const Field& f = row.key;
    s += fmt::format("| {} | {} | {} | {} | {} |\n", f.key, cell(f.def), cell(allowed_where(f)), cell(f.help),
                     row.families.empty() ? "all" : join(row.families, ", "));
  }
  s += "\nFamilies (`net.family`):\n\n| family | network |\n|---|---|\n";
  for (auto& name : family_names()) s += fmt::format("| {} | {} |\n", name, cell(find_family(name)->help));
  s += "\nTraffic patterns (`traffic.pattern`), the destination of a packet from node src:\n\n"
       "| pattern | destination |\n|---|---|\n";
  for (const PatternHelp& p : pattern_help()) s += fmt::format("| {} | {} |\n", p.name, cell(p.help));
  return s;
}

}  // namespace wormcast
