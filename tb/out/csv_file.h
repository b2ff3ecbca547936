// A CSV file written into the temporary its output plan made (tb/out/output_plan.h); the plan
// renames it into place when the run succeeds, so a partial file never has the name asked for.
#pragma once

#include <fstream>
#include <string>

namespace wormcast {

class CsvFile {
 public:
  CsvFile(const std::string& tmp_path, const char* header) : m_out(tmp_path, std::ios::trunc) { m_out << header << '\n'; }
  std::ofstream& out() { return m_out; }
  /// Completes the file; false when it could not be written.
  bool commit() {
    m_out.close();
    return !m_out.fail();
  }

 private:
  std::ofstream m_out;
};

}  // namespace wormcast
