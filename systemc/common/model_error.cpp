// A model's fatal internal error (systemc/common/model_error.h).
#include "systemc/common/model_error.h"

#include <cstdlib>

#include <systemc>

namespace wormcast {

void model_error(const char* type, const std::string& where, const std::string& what) {
  SC_REPORT_FATAL(type, (where + ": " + what).c_str());
  std::abort();
}

void model_error(const char* type, const char* where, const char* what, int index) {
  model_error(type, where, what + std::to_string(index));
}

}  // namespace wormcast
