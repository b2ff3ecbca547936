// The Verilated m-way units of one parameter set: the Verilog parameters of MwayParams (and back),
// the test sets of rtl/mway/configs.txt, and the RTL fabric, its units built on demand.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "tb/rtl/mway/mw_rtl_fabric.h"
#include "tb/rtl/rtl_cache.h"

namespace wormcast {

struct MwRtlModelInfo {
  std::string name;                   ///< a test set's name, plus "_bug_*" for a broken build; else a description
  std::map<std::string, int> params;  ///< wc_mw_fabric parameters, Name -> value
  std::string test_hook;              ///< "Bug=1" for a broken build, else empty

  /// The SystemC fabric parameters with the same values.
  MwayParams mway_params() const;
  int id_width() const;
  /// What the cache builds: the three units with the parameters wc_mw_fabric derives for them.
  RtlBuildSpec build_spec() const;
  /// The RTL fabric of this parameter set for `params` (which must equal mway_params() but for
  /// radix values of the same coordinate width; the caller checks); its units built now if the
  /// cache has none.
  std::unique_ptr<MwayRtlFabric> make(sc_core::sc_module_name name, const MwayParams& params) const;
};

/// The parameter set of `p`. Throws ConfigError naming the key and the limit when the RTL cannot
/// express it (before anything is built).
MwRtlModelInfo mway_rtl_model_of(const MwayParams& p);

/// The test sets of rtl/mway/configs.txt and the deliberately broken builds of the first one.
const std::vector<MwRtlModelInfo>& mway_rtl_test_models();
/// The one named `name`; throws ConfigError naming the known ones.
const MwRtlModelInfo& find_mway_rtl_model(const std::string& name);
/// Registers the RTL fabric with install_mway_rtl_library() (mway.model = rtl).
void install_mway_rtl_fabrics();

}  // namespace wormcast
