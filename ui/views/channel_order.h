// Which channels the per-channel view shows, in which order: a model's depthwise kernel has
// 960 channels and a smear of them hides the few that quantize badly. The view can sort them
// worst first (by RMSE or max |error|) and keep only the worst N. No widgets: the rule alone.
#pragma once

#include <cstddef>
#include <vector>

#include "core/analysis/explorer.h"

namespace qs::ui {

enum class ChannelOrder { Index, Rmse, MaxAbsError };

// The channels to draw, left to right: every channel (or, with `worst` > 0, only the `worst`
// channels of largest error, by max |error| when ordered so, else by RMSE), in channel order
// for ChannelOrder::Index and worst first otherwise. Ties keep channel order; NaN errors
// count as the worst.
std::vector<size_t> channelsShown(const std::vector<qs::analysis::ChannelSummary>& channels, ChannelOrder order,
                                  size_t worst);

}  // namespace qs::ui
