// The Verilated models built on demand: a parameter set is Verilated, compiled into a shared
// object and loaded into the running process on first use, and cached for the next run.
//
// An entry of the cache is a directory named by a key that covers everything that changes the
// model: the Verilog parameters, the RTL sources, the harness headers the plugin is compiled
// against, the Verilator version, the compiler with its flags, trace on or off. An entry appears
// only whole (built in a temporary directory, renamed into place under a lock), so two processes
// asking for one model at once build it once; an entry that fails its check (a truncated or
// altered shared object, another format) is rebuilt, never loaded. Where: $WORMCAST_RTL_CACHE,
// else $XDG_CACHE_HOME/wormcast/rtl, else ~/.cache/wormcast/rtl (docs/rtl.md, "RTL on demand").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tb/rtl/rtl_plugin.h"

namespace wormcast {

/// One Verilated top module of a model: the module, its class name and its parameter overrides.
struct RtlUnit {
  std::string top;                 ///< the Verilog module
  std::string prefix;              ///< the C++ class of the Verilated model
  std::vector<std::string> gargs;  ///< "-GName=value" for every parameter
};

/// What to build: the family's plugin (its RtlPlugin entry), its units and how they are Verilated.
struct RtlBuildSpec {
  std::string family;       ///< "torus" or "mway": tb/rtl/plugin_<family>.inc is the plugin's source
  std::string description;  ///< what a person reads in the progress line and in `wormcast rtl list`
  std::string files;        ///< the Verilator -F file list, relative to rtl/ ("files.f")
  bool systemc = false;     ///< Verilator --sc (an sc_module) rather than --cc
  bool trace = false;       ///< the model can dump its internal signals (Verilator --trace)
  std::vector<RtlUnit> units;
};

/// The plugin for `spec`, built now if the cache has no valid entry for it; the shared object
/// stays loaded until the process ends. Throws ConfigError (exit 2) with one line naming the
/// cause when it cannot: Verilator missing, a failed build (with its log file), no cache directory.
const RtlPlugin& load_rtl_plugin(const RtlBuildSpec& spec);

/// The installation a program was built against (its find_package prefix), where the sources and
/// headers of a build are looked for first.
void set_rtl_install_prefix(const std::string& prefix);

/// The directory of the Verilog sources a build uses (the source tree's rtl/, or the installed copy).
std::string rtl_source_dir();

/// The cache directory (not created).
std::string rtl_cache_dir();

/// One entry of the cache, for `wormcast rtl list`.
struct RtlCacheEntry {
  std::string name;         ///< the directory name
  std::string description;  ///< RtlBuildSpec::description, "" if unreadable
  bool valid = false;       ///< passes the check a load makes
  /// Its record is of another cache format (a program of another format wrote it): never loaded,
  /// rebuilt if a run asks for its key; removed by rtl_cache_clean.
  bool other_format = false;
  /// A valid entry this program never loads, and why (built from other Verilog sources or harness
  /// headers, for another plugin interface, or by another Verilator); "" when it may load it.
  std::string stale;
  uint64_t bytes = 0;       ///< size on disk
  double build_seconds = 0;
};
/// The cache's entries (directories named <kind>-<16 hex digits>); nothing else in the directory.
/// Throws ConfigError when the cache path exists and is not a directory.
std::vector<RtlCacheEntry> rtl_cache_entries();
/// What rtl_cache_clean did.
struct RtlCacheClean {
  int removed = 0;                  ///< entries removed
  int busy = 0;                     ///< entries a running build holds (their lock): left
  int foreign = 0;                  ///< files and directories that are not the cache's: left
  int failed_builds = 0;            ///< builds that left no entry, whose log or temporaries were removed
  int kept = 0;                     ///< entries this program loads, left (unusable_only)
  std::vector<std::string> failed;  ///< "PATH: reason" of each entry that could not be removed
};
/// Removes every entry (and the shared runtime) that no running build holds, with its stale
/// temporaries and its build log; leaves the lock files (a waiting build holds one open) and
/// everything the cache did not make. unusable_only: only the entries this program cannot load as
/// they are (RtlCacheEntry: stale, of another format, incomplete or corrupt) and the leftovers of
/// failed builds; the entries it loads stay. Throws ConfigError when the cache path is not a
/// directory.
RtlCacheClean rtl_cache_clean(bool unusable_only = false);

}  // namespace wormcast
