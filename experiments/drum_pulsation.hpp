#pragma once
// Fluctuation of a sampled signal (the drum's surface angle, Paper I 000 l.618-622: the flow "has a
// pulsation due to series of avalanches on the surface"; ledger P1-C14: a non-zero fluctuation whose
// period is much longer than the time step).
//
// The signal is detrended by a least-squares line (a slow drift is not a pulsation). sd: its standard
// deviation. period: 4 x the first lag at which the autocorrelation of the detrended signal is <= 0,
// times the sample interval (a sine of period T first decorrelates at T/4; white noise at one sample,
// giving about 4 samples); when it never decorrelates within half the window, the lower bound 4 (n/2)
// samples. NaN when there are fewer than 4 samples (period also NaN for a constant signal, sd = 0).
// Threading: pure.
#include <span>

namespace grainlab {

struct PulsationStats {
  double sd;
  double period;
};

PulsationStats pulsation_stats(std::span<const double> signal, double interval);

}  // namespace grainlab
