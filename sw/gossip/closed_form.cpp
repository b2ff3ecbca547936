// Closed-form gossip times (Lemmas 4-7, 9, Theorem 4, the one-port forms of Sec. 7.2) and lower bounds (eq. 2, Theorem 1).
#include "sw/gossip/closed_form.h"

#include <algorithm>
#include <cmath>

#include "sw/gossip/gossip.h"
#include "sw/schedule/schedule.h"

namespace wormcast::sw {

namespace {
double half_of(double a, HalfRule h) { return h == HalfRule::Floor ? std::floor(a / 2) : a / 2; }
}  // namespace

double log_base(double x, double base) { return std::log(x) / std::log(base); }

double approach1_time(int n, double r) { return (n / 2) * (1 + r); }

double approach2_time(int n, double r) { return log_base(n, 3) * (n + 2 * r); }

double approach2_sum(int n, double r) {
  double t = 0, p = 1;
  int k = 0;
  for (; p < n; p *= 3, ++k) t += p + r;
  return t + k * (n + r);
}

double approach1_one_port_time(int n, double r) { return (n - 1) * (2 + 2 * r); }

double approach2_one_port_time(int n, double r) {
  int k = 0;
  for (long long p = 1; p < n; p *= 2) ++k;  // ceil(log2 n), exactly
  return k * (n + 2 * r);
}

double approach2_one_port_sum(int n, double r) {
  double t = 0, p = 1;
  int k = 0;
  for (; p < n; p *= 2, ++k) t += p + r;
  return t + k * (n + r);
}

ClosedForm circgos_time(double n, double a, double b, double r, HalfRule half) {
  const double k = 2 * b - a + 2;
  ClosedForm c;
  c.add("1", n / (2 * a) + log_base(n / a, 3) * r);
  c.add("2", half_of(a, half) * (n / a + r));
  c.add("3", (log_base(n, a) - 1) * b * (n / k + r));
  return c;
}

double approach_ij_time(int i, int j, int n, double r) {
  const double l3 = log_base(n, 3), h = n / 2;
  if (i == 1 && j == 1) return h * (n / 2.0 + 0.5 + 2 * r);
  if (i == 2 && j == 1) return h * (n / 2.0 + l3) + (n / 2.0 + 2 * l3) * r;
  if (i == 2 && j == 2) return l3 * (double(n) * n / 2 + n / 2.0 + 4 * r);
  return NAN;
}

ClosedForm torgos_time(double n, double a, double b, double r, HalfRule half, int colours, double share) {
  const double k = 2 * b - a + 2, la = log_base(n, a), f = share > 0 ? share : 1.0 / colours;
  ClosedForm c;
  c.add("1", f * n / (2 * a) + log_base(n / a, 3) * r);
  c.add("4a", f * b * n * n / ((a - 1) * k) + (la - 1) * b * r);
  c.add("2+3+4b", half_of(a, half) * (f * n * n / (a - 1) + (la + 1) * r));
  return c;
}

ClosedForm cubgos_time(double n, int d, double a, double b, double r, HalfRule half, int colours,
                       double share) {
  const double k = 2 * b - a + 2, la = log_base(n, a), f = share > 0 ? share : 1.0 / colours;
  const double nd = std::pow(n, d);
  ClosedForm c;
  c.add("1", f * n / (2 * a) + log_base(n / a, 3) * r);
  c.add("4a", f * b * nd / ((std::pow(a, d - 1) - 1) * k) + (la - 1) * b * r);
  c.add("2+3+4b", half_of(a, half) * (f * nd / (a - 1) + ((d - 1) * la + 1) * r));
  return c;
}

double cubgos_theorem4(double n, int d, double a, double r) {
  return a / (a - 1) * std::pow(n, d) / (2 * d) + d * a / 2 * log_base(n, a) * r;
}

double approach1_line_time(int n, double r) { return (n - 1) * (1 + r); }

int approach1_line_steps(int n) { return n - 1; }

int approach2_steps(int n) { return n <= 1 ? 0 : 2 * ceil_log(n, 3); }

namespace {
/// R with a^R = n, -1 when n is not a power of a.
int power_of(int n, int a) {
  int r = 0;
  long long p = 1;
  for (; p < n; p *= a) ++r;
  return p == n ? r : -1;
}
int conc_steps(int m) { return m <= 1 ? 0 : ceil_log(m, 3); }
}  // namespace

int circgos_line_steps(int n, int a, int b) {
  const int R = power_of(n, a);
  if (R < 1) return -1;
  // Bridgeheads are the positions = c0 (mod spacing), c0 the first segment's centre; a round
  // divides the spacing by a. Its end pieces hold the new bridgeheads below the first old one and
  // above the last old one, each fed from one side in max(q, b) steps.
  const int c0 = concentration_centre(n / a);
  int steps = conc_steps(n / a) + (a - 1);
  for (int old = n / a; old > 1; old /= a) {
    const int next = old / a, first = c0 % old, last = first + (n - 1 - first) / old * old;
    steps += std::max({b, first / next, (n - 1 - last) / next});
  }
  return steps;
}

int diagonal_mesh_steps(int n, int d, int a, int b) {
  const int R = power_of(n, a);
  if (R < 1) return -1;
  const int g = n / a;
  return (g >= 2 ? conc_steps(g) + 1 : 0) + d * (a - 1) + (R - 1) * (std::max(b, a - 1) + (d - 1) * (a - 1));
}

int diagonal_torus_steps(int n, int d, int a, int b) {
  const int R = power_of(n, a);
  if (R < 1) return -1;
  return conc_steps(n / a) + d * (a / 2) + (R - 1) * (b + (d - 1) * (a / 2));
}

double lower_bound_mesh_corner(double nodes, int dims) { return (nodes - 1) / dims; }

double lower_bound_eq2(double nodes, int degree, double r) {
  return std::max((nodes - 1) / degree, std::log(nodes) / std::log(degree + 1.0) * r);
}

double lower_bound_theorem1(double n, double r) { return n * std::log(n) / std::log(n / r); }

}  // namespace wormcast::sw
