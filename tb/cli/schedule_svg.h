// SVG drawing of a schedule, one panel per step, shared by `wormcast schedule` and `wormcast gossip`.
#pragma once

#include <cstdint>
#include <string>

#include "sw/schedule/schedule.h"

namespace wormcast {

/// The largest drawing: nodes x steps (each panel draws every node) + unicasts (an arrow each).
constexpr uint64_t kSvgMaxMarks = 400000;

/// Whether `s` can be drawn (1-D and 2-D networks, at most kSvgMaxMarks marks);
/// otherwise the one-line reason.
bool schedule_svg_drawable(const sw::Schedule& s, std::string& why);

/// One panel per step on the 2-D grid (y grows upward, as in the papers' figures), each unicast
/// along its dimension-ordered path with an arrowhead at the receiver, in the step's colour.
/// Broadcast: nodes that already hold the message are dark, this step's receivers take the
/// step's colour. Gossip: a node's grey level is the share of all chunks it holds after the step,
/// this step's receivers are ringed in the step's colour, and opposite directions of one link
/// are drawn side by side so that a step with every node sending stays readable.
std::string schedule_svg(const sw::Schedule& s);

}  // namespace wormcast
