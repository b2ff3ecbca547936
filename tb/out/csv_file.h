// A CSV file written under a temporary name and renamed into place when complete, so that a run
// that fails or is stopped never leaves a partial file under the name asked for.
#pragma once

#include <cstdio>
#include <fstream>
#include <string>

namespace wormcast {

class CsvFile {
 public:
  CsvFile(const std::string& path, const char* header) : m_out(path + ".tmp"), m_path(path) { m_out << header << '\n'; }
  ~CsvFile() {
    if (!m_done) std::remove((m_path + ".tmp").c_str());
  }
  std::ofstream& out() { return m_out; }
  /// Closes and renames the file into place; false when it could not be written.
  bool commit() {
    m_out.close();
    m_done = true;
    return !m_out.fail() && std::rename((m_path + ".tmp").c_str(), m_path.c_str()) == 0;
  }

 private:
  std::ofstream m_out;
  std::string m_path;
  bool m_done = false;
};

}  // namespace wormcast
