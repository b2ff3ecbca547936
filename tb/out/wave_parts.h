// The pieces every save-file view of tb/out/wave.h is made of (tb/out/wave.cpp defines them): a
// variable's reference, a row in the radix its meaning asks for, the clock row, the view's span.
// The torus views (wave.cpp) and the m-way packet view (wave_mway.cpp) share them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tb/out/gtkw.h"
#include "tb/out/wave.h"

namespace wormcast::wave_detail {

/// The first n parts joined with dots.
std::string join(const std::vector<std::string>& parts, size_t n);
/// A variable's full reference with its range, as GTKWave names it ("top.x.payload[31:0]").
std::string signal_ref(const VcdVar& v);
/// One row: a bit as a level, `ways` masks in hexadecimal, other words in decimal.
void add_signal(GtkwWriter& w, const VcdVar& v);
/// `vars` in the order of a flit's fields (valid, head, tail, ..., packet, flit, ...), the others after.
std::vector<const VcdVar*> by_field_order(std::vector<const VcdVar*> vars);
/// The dump's clock as the first row, with what its edges mean (nullptr: the dump has none).
const VcdVar* add_clock(GtkwWriter& w, const VcdInfo& info);
/// The view of dump times [from, to) (clamped to the dump).
void set_view(GtkwWriter& w, const VcdInfo& info, uint64_t from, uint64_t to);
/// The view of a packet's hops: from 2 cycles before the first to 8 after the last.
void set_hop_view(GtkwWriter& w, const VcdInfo& info, uint64_t first_cycle, uint64_t last_cycle);

/// An m-way channel's driver and way numbers of an n-dimensional fabric: "0 x+, 1 x-, ..., 2n node"
/// (docs/mway.md section 2.1; wave_mway.cpp).
std::string mway_numbering(int dims);

}  // namespace wormcast::wave_detail
