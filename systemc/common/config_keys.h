// Building blocks of configuration keys (ConfigKey rows): value parsers that throw the key's
// one-line error, enum name tables, and rows for an integer, a choice or a flag of a family's part.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "systemc/common/config.h"

namespace wormcast {

/// The keys every family reads (common_keys.cpp), before the families' own in the schema.
const std::vector<ConfigKey>& common_keys();

/// One value of traffic.pattern and where it sends a packet from node src (`wormcast config
/// --markdown` lists them; the key's allowed values are these names).
struct PatternHelp {
  const char* name;
  const char* help;
};
const std::vector<PatternHelp>& pattern_help();

/// Marks keys[name] as taking effect only where `applies` holds (ConfigKey::applies, where, reads,
/// switches).
void only_where(std::vector<ConfigKey>& keys, const std::string& name, std::function<bool(const Config&)> applies,
                std::string where, std::vector<std::string> reads, Overrides switches);
/// Marks keys[name] as taking effect only where key `on` has the value `value` (only_where: `on` is
/// the condition's one key and switch).
void only_with(std::vector<ConfigKey>& keys, const std::string& name, const char* on, const char* value);

/// A decimal integer lo..hi for key k (bad_value otherwise).
int64_t key_int(const ConfigKey& k, const std::string& v, int64_t lo, int64_t hi);
/// A decimal number lo..hi for key k (bad_value otherwise).
double key_real(const ConfigKey& k, const std::string& v, double lo, double hi);
/// true/1/yes/on or false/0/no/off for key k (bad_value otherwise).
bool key_bool(const ConfigKey& k, const std::string& v);

/// One name table per enum, used both to parse and to echo.
template <class E>
using Choices = std::vector<std::pair<const char*, E>>;

template <class E>
E key_choice(const ConfigKey& k, const std::string& v, const Choices<E>& c) {
  for (auto& [name, e] : c)
    if (v == name) return e;
  bad_value(k, v);
}

template <class E>
std::string name_of(const Choices<E>& c, E e) {
  for (auto& [name, x] : c)
    if (x == e) return name;
  return "?";
}

template <class T>
std::string join(const std::vector<T>& v, const char* sep) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? sep : "") + fmt::format("{}", v[i]);
  return s;
}

/// An integer member of a family's part (Config::part<Part>()), allowed lo..hi.
template <class Part, class M>
ConfigKey int_key(const char* key, const char* def, int64_t lo, int64_t hi, M Part::*member, const char* help) {
  return ConfigKey{key, def, fmt::format("{}..{}", lo, hi), help,
                   [=](Config& c, const std::string& v, const ConfigKey& k) {
                     c.part<Part>().*member = M(key_int(k, v, lo, hi));
                   },
                   [=](const Config& c) { return nlohmann::json(c.part<Part>().*member); }};
}

/// An enum member of a family's part, named by `table`.
template <class Part, class E>
ConfigKey choice_key(const char* key, const char* def, const Choices<E>& table, E Part::*member, const char* allowed,
                     const char* help) {
  return ConfigKey{key, def, allowed, help,
                   [=](Config& c, const std::string& v, const ConfigKey& k) {
                     c.part<Part>().*member = key_choice(k, v, table);
                   },
                   [=](const Config& c) { return nlohmann::json(name_of(table, c.part<Part>().*member)); }};
}

/// A flag member of a family's part.
template <class Part>
ConfigKey bool_key(const char* key, const char* def, bool Part::*member, const char* help) {
  return ConfigKey{key, def, "true or false (True, TRUE, yes, on, 1 / False, FALSE, no, off, 0)", help,
                   [=](Config& c, const std::string& v, const ConfigKey& k) { c.part<Part>().*member = key_bool(k, v); },
                   [=](const Config& c) { return nlohmann::json(c.part<Part>().*member); }};
}

}  // namespace wormcast
