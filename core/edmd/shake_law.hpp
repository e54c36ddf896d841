#pragma once
// The container's prescribed vertical motion, Gavrilov Eq. (3.19) (002 l.897-901): a harmonic shake of
// amplitude A and frequency f approximated by constant acceleration per half period,
//   [0, T/2):  z = v0 t + a t^2/2,  a = -32 A f^2,  v0 = +8 A f
//   [T/2, T):  z = v0 t + a t^2/2,  a = +32 A f^2,  v0 = -8 A f     (t restarts each half period),
// so z = A at T/4, z = 0 at every half period and the speed is continuous. A = 0 is a motionless wall.
#include <cmath>

namespace grainlab::edmd {

struct ShakeLaw {
  double amplitude = 0;  ///< A, m
  double frequency = 0;  ///< f, Hz

  bool moving() const { return amplitude > 0 && frequency > 0; }
  double half_period() const { return 0.5 / frequency; }
  /// Index of the half period containing t (0, 1, 2, ...).
  long half_period_index(double t) const { return moving() ? static_cast<long>(std::floor(t / half_period())) : 0; }
  double half_period_start(long k) const { return k * half_period(); }
  double start_velocity(long k) const { return (k % 2 == 0 ? 8.0 : -8.0) * amplitude * frequency; }
  double acceleration(long k) const { return (k % 2 == 0 ? -32.0 : 32.0) * amplitude * frequency * frequency; }

  /// Offset z(t), velocity and acceleration of the wall at time t.
  double position(double t) const {
    if (!moving()) return 0;
    const long k = half_period_index(t);
    const double s = t - half_period_start(k);
    return start_velocity(k) * s + 0.5 * acceleration(k) * s * s;
  }
  double velocity(double t) const {
    if (!moving()) return 0;
    const long k = half_period_index(t);
    return start_velocity(k) + acceleration(k) * (t - half_period_start(k));
  }
  double acceleration_at(double t) const { return moving() ? acceleration(half_period_index(t)) : 0.0; }
};

}  // namespace grainlab::edmd
