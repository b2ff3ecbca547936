// The GTKWave save-file writer (the one generator, tb/out/wave.cpp, writes every save file with
// it): the dump file, the view (start time and zoom), groups, one-bit wires as levels, words in
// decimal (ids, destinations, counters, as the CSV recordings print them) or hexadecimal (bit
// masks). GTKWave trace flags: 0x24 decimal and right-justified, 0x22 hexadecimal, 0x28 binary,
// 0x200 a blank row carrying a comment;
// groups 0x800200 / 0x1000200 (begin / end, open) and 0xc00200 / 0x1401200 (closed, collapsed).
#pragma once

#include <cmath>
#include <cstdio>
#include <cstdint>
#include <string>

namespace wormcast {

class GtkwWriter {
 public:
  explicit GtkwWriter(const std::string& dump_file) : m_text("[dumpfile] \"" + dump_file + "\"\n") {}
  /// The view GTKWave opens with: the window's left edge at `start` and `span` time units across
  /// the wave area (times in the viewer's units: dump time stamps times the time scale's number).
  /// GTKWave shows pow(2, -zoom) time units per 200 pixels; the window is 1600 pixels wide with
  /// 560 taken by the hierarchy and signal-name panes.
  void view(uint64_t start, uint64_t span) {
    m_text += "[timestart] " + std::to_string(start) + "\n[size] 1600 900\n[pos] -1 -1\n";
    if (span > 0) {
      const double zoom = -std::log2(200.0 * double(span) / double(kWavePixels));
      char line[64];
      std::snprintf(line, sizeof line, "*%.6f %llu", zoom, (unsigned long long)start);
      m_text += line;
      for (int i = 0; i < 26; ++i) m_text += " -1";  // the named markers, unset
      m_text += "\n";
    }
    m_text += "[sst_width] 260\n[signals_width] 300\n[sst_expanded] 1\n";
  }
  void begin_group(const std::string& name, bool open = false) {
    m_text += std::string(open ? "@800200" : "@c00200") + "\n-" + name + "\n";
    m_flag.clear();
  }
  void end_group(const std::string& name, bool open = false) {
    m_text += std::string(open ? "@1000200" : "@1401200") + "\n-" + name + "\n";
    m_flag.clear();
  }
  /// A comment row (GTKWave's blank trace with a label): what the rows below it show.
  void comment(const std::string& text) {
    m_text += "@200\n-" + text + "\n";
    m_flag.clear();
  }
  /// Bits [hi:lo] of `vector` (its reference with its range, e.g. "top.x.payload[31:0]") shown in
  /// decimal as a word of their own named `name`: GTKWave's combined vector, each bit listed as
  /// "(index)vector", most significant first.
  void bits_decimal(const std::string& name, const std::string& vector, int hi, int lo) {
    std::string l = "#{" + name + "}";
    for (int i = hi; i >= lo; --i) l += " (" + std::to_string(i) + ")" + vector;
    line("@24", l);
  }
  /// A one-bit wire (`signal` with its range, if any, as the dump declares it).
  void bit(const std::string& signal) { line("@28", signal); }
  /// A word shown in decimal.
  void decimal(const std::string& signal) { line("@24", signal); }
  /// A word shown in hexadecimal (masks).
  void hex(const std::string& signal) { line("@22", signal); }
  const std::string& text() const { return m_text; }

  static constexpr int kWavePixels = 1600 - 560;

 private:
  void line(const char* f, const std::string& signal) {
    if (m_flag != f) m_text += std::string(f) + "\n";
    m_flag = f;
    m_text += signal + "\n";
  }
  std::string m_text;
  std::string m_flag;
};

}  // namespace wormcast
