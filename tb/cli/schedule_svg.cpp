// SVG drawing of broadcast and gossip schedules (one panel per step).
#include "tb/cli/schedule_svg.h"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "sw/topology/path.h"

namespace wormcast {

bool schedule_svg_drawable(const sw::Schedule& s, std::string& why) {
  if (s.topology.dims() > 2) {
    why = "only 1-D and 2-D networks can be drawn; got " + sw::describe(s.topology);
    return false;
  }
  // Every panel draws every node (about 115 bytes each) and each unicast an arrow (about 160):
  // beyond the limit the file runs to hundreds of megabytes that no viewer opens.
  const uint64_t steps = uint64_t(std::max(1, s.num_steps));
  const uint64_t marks = uint64_t(s.topology.num_nodes()) * steps + uint64_t(s.unicasts.size());
  if (marks <= kSvgMaxMarks) return true;
  why = fmt::format("at most {} marks (nodes x steps + unicasts); {} has {} nodes x {} steps + {} unicasts = {}",
                    kSvgMaxMarks, sw::describe(s.topology), s.topology.num_nodes(), steps, s.unicasts.size(), marks);
  return false;
}

std::string schedule_svg(const sw::Schedule& s) {
  static const char* const kColours[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                                         "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f"};
  const sw::Topology& t = s.topology;
  const bool gossip = s.collective == sw::Collective::Gossip;
  const int nx = t.radix(0), ny = t.dims() > 1 ? t.radix(1) : 1;
  const int cell = std::max(8, std::min(40, 480 / std::max(nx, ny)));
  const int margin = cell, title = 24;
  const int pw = std::max(nx * cell + 2 * margin, gossip ? 300 : 0), ph = ny * cell + 2 * margin + title;
  const int steps = std::max(1, s.num_steps);
  const int cols = std::min(steps, 4), rows = (steps + cols - 1) / cols;
  const double r = cell * 0.28;
  // Gossip: both directions of a link carry a message in most steps; side by side they stay apart.
  const double side = gossip ? cell * 0.1 : 0.0;
  std::string o = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" "
      "viewBox=\"0 0 {0} {1}\" font-family=\"sans-serif\" font-size=\"13\">\n"
      "<rect x=\"0\" y=\"0\" width=\"{0}\" height=\"{1}\" fill=\"white\"/>\n",
      cols * pw, rows * ph);

  // Broadcast: the step at whose end a node holds the message.
  std::vector<int> informed_step(size_t(t.num_nodes()), -1);
  // Gossip: what every node holds, replayed step by step.
  std::vector<sw::ChunkSet> holds;
  const int per = std::max(1, s.chunks_per_node);
  const double total_chunks = double(t.num_nodes()) * per;
  if (gossip) {
    holds.resize(size_t(t.num_nodes()));
    for (int x = 0; x < t.num_nodes(); ++x)
      for (int c = 0; c < per; ++c) holds[size_t(x)].add(x * per + c);
  } else {
    informed_step[size_t(s.source)] = 0;
    for (const sw::Unicast& u : s.unicasts)
      if (informed_step[size_t(u.dst)] < 0 || u.step < informed_step[size_t(u.dst)])
        informed_step[size_t(u.dst)] = u.step;
  }

  for (int step = 1; step <= steps; ++step) {
    const int px = ((step - 1) % cols) * pw, py = ((step - 1) / cols) * ph;
    const int ci = (step - 1) % 10;
    const char* colour = kColours[ci];
    auto cx = [&](int x) { return px + margin + x * cell + cell / 2.0; };
    auto cy = [&](int y) { return py + title + margin + (ny - 1 - y) * cell + cell / 2.0; };
    int count = 0, largest = 0;
    std::vector<char> receives(size_t(t.num_nodes()), 0);
    for (const sw::Unicast& u : s.unicasts)
      if (u.step == step) {
        ++count;
        largest = std::max(largest, u.chunks.count());
        receives[size_t(u.dst)] = 1;
      }
    std::string head = fmt::format("step {}: {} unicast{}", step, count, count == 1 ? "" : "s");
    if (gossip && count) head += fmt::format(", largest {:.4g} node data", double(largest) / per);
    o += fmt::format("<g>\n<text x=\"{}\" y=\"{}\">{}</text>\n", px + margin, py + 17, head);
    o += fmt::format(
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#ddd\"/>\n",
        px + margin / 2, py + title + margin / 2, nx * cell + margin, ny * cell + margin);
    for (const sw::Unicast& u : s.unicasts) {
      if (u.step != step) continue;
      const std::vector<sw::Arc> path = sw::unicast_path(t, u);
      for (size_t j = 0; j < path.size(); ++j) {
        const sw::Arc& a = path[j];
        const int next = t.neighbor(a.node, a.port);
        const int x0 = t.coord_of(a.node, 0), y0 = t.dims() > 1 ? t.coord_of(a.node, 1) : 0;
        const int x1 = t.coord_of(next, 0), y1 = t.dims() > 1 ? t.coord_of(next, 1) : 0;
        const int dim = a.port / 2, sign = (a.port & 1) ? -1 : 1;
        const bool last = j + 1 == path.size();
        const bool wraps = (dim == 0 ? x1 - x0 : y1 - y0) != sign;
        const double dx = dim == 0 ? sign : 0, dy = dim == 0 ? 0 : -sign;  // screen direction
        const double ox = -dy * side, oy = dx * side;                      // to the direction's side
        auto line = [&](double ax, double ay, double bx, double by) {
          o += fmt::format(
              "<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"{}\" "
              "stroke-width=\"1.6\"/>\n",
              ax + ox, ay + oy, bx + ox, by + oy, colour);
        };
        if (!wraps) {
          line(cx(x0), cy(y0), cx(x1), cy(y1));
        } else {
          // Wraparound link: leave through the panel edge, re-enter from the opposite one.
          const double half = cell / 2.0 + margin / 2.0;
          line(cx(x0), cy(y0), cx(x0) + dx * half, cy(y0) + dy * half);
          line(cx(x1) - dx * half, cy(y1) - dy * half, cx(x1), cy(y1));
        }
        if (last) {
          // Arrowhead with its tip on the receiver's circle (drawn as a polygon: markers are
          // not rendered by every SVG tool).
          const double tipx = cx(x1) - dx * r + ox, tipy = cy(y1) - dy * r + oy;
          const double len = std::max(4.0, cell * 0.22), wid = len * 0.5;
          o += fmt::format(
              "<polygon points=\"{:.1f},{:.1f} {:.1f},{:.1f} {:.1f},{:.1f}\" fill=\"{}\"/>\n", tipx,
              tipy, tipx - dx * len - dy * wid, tipy - dy * len + dx * wid, tipx - dx * len + dy * wid,
              tipy - dy * len - dx * wid, colour);
        }
      }
    }
    if (gossip)
      for (const sw::Unicast& u : s.unicasts)
        if (u.step == step) holds[size_t(u.dst)].add(u.chunks);
    for (int node = 0; node < t.num_nodes(); ++node) {
      const int x = t.coord_of(node, 0), y = t.dims() > 1 ? t.coord_of(node, 1) : 0;
      if (gossip) {
        // Grey level: the share of all chunks held after this step (white: own data only).
        const double share = holds[size_t(node)].count() / total_chunks;
        const int g = int(255 - 187 * share);
        o += fmt::format(
            "<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"{:.1f}\" fill=\"#{:02x}{:02x}{:02x}\" stroke=\"{}\" "
            "stroke-width=\"{}\"/>\n",
            cx(x), cy(y), r, g, g, g, receives[size_t(node)] ? colour : "#888", receives[size_t(node)] ? 2.5 : 1);
        continue;
      }
      const int when = informed_step[size_t(node)];
      std::string fill = "white";
      if (when >= 0 && when < step) fill = "#444";
      if (when == step) fill = colour;
      o += fmt::format(
          "<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"{:.1f}\" fill=\"{}\" stroke=\"{}\" "
          "stroke-width=\"{}\"/>\n",
          cx(x), cy(y), r, fill, node == s.source ? "black" : "#888", node == s.source ? 2 : 1);
    }
    o += "</g>\n";
  }
  o += "</svg>\n";
  return o;
}

}  // namespace wormcast
