#pragma once
// Study parameters of adaptive model reduction (Paper V), shared by every experiment that offers it.
// `reduction` picks the run family of 000 l.2130: "none" (ref-N), "c" (contact split only), "cs" (contact
// + sensor split), "tr" (trial split only), "ctr" (contact + trial split). Defaults are Table 2 as
// reconstructed in ../shared/claims/paper5.md §3. Sensors are scene geometry: the experiment adds them
// when reduction_uses_sensors() says so.
#include <vector>

#include "core/ndem/reduction_settings.hpp"
#include "experiments/experiment.hpp"

namespace grainlab {

/// The parameter specs (append them to an experiment's list).
std::vector<ParameterSpec> reduction_parameters();
/// Settings from the parameters (sensors empty; enabled unless reduction = "none").
ReductionSettings reduction_settings(const Parameters& p);
/// True for reduction = "cs".
bool reduction_uses_sensors(const Parameters& p);

}  // namespace grainlab
