// The GTKWave save-file writer every family's Network::gtkw uses: the dump file, groups that open
// collapsed, one-bit wires as levels, words in decimal (ids, destinations, counters, as the CSV
// recordings print them) or hexadecimal (bit masks). GTKWave trace flags: 0x24 decimal and
// right-justified, 0x22 hexadecimal, 0x28 binary; groups 0xc00200 (begin, closed) and 0x1401200
// (end, closed, collapsed).
#pragma once

#include <string>

namespace wormcast {

class GtkwWriter {
 public:
  explicit GtkwWriter(const std::string& dump_file) : m_text("[dumpfile] \"" + dump_file + "\"\n[timestart] 0\n") {}
  void begin_group(const std::string& name) { m_text += "@c00200\n-" + name + "\n"; }
  void end_group(const std::string& name) { m_text += "@1401200\n-" + name + "\n"; }
  /// A one-bit wire.
  void bit(const std::string& signal) { flag("@28"); m_text += signal + "\n"; }
  /// A word of `width` bits shown in decimal.
  void decimal(const std::string& signal, int width) { flag("@24"); m_text += signal + range(width) + "\n"; }
  /// A word of `width` bits shown in hexadecimal (masks).
  void hex(const std::string& signal, int width) { flag("@22"); m_text += signal + range(width) + "\n"; }
  const std::string& text() const { return m_text; }

 private:
  void flag(const char* f) {
    if (m_flag != f) m_text += std::string(f) + "\n";
    m_flag = f;
  }
  static std::string range(int width) { return "[" + std::to_string(width - 1) + ":0]"; }
  std::string m_text;
  std::string m_flag;
};

}  // namespace wormcast
