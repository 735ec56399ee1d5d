#include "ui/views/channel_order.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace qs::ui {

std::vector<size_t> channelsShown(const std::vector<qs::analysis::ChannelSummary>& channels, ChannelOrder order,
                                  size_t worst) {
    std::vector<size_t> shown(channels.size());
    std::iota(shown.begin(), shown.end(), size_t{0});
    if (order == ChannelOrder::Index && (worst == 0 || worst >= channels.size())) return shown;
    auto error = [&](size_t i) {
        const auto& s = channels[i].stats;
        const double e = order == ChannelOrder::MaxAbsError ? s.max_abs_error : s.rmse;
        return std::isnan(e) ? INFINITY : e;
    };
    std::stable_sort(shown.begin(), shown.end(), [&](size_t a, size_t b) { return error(a) > error(b); });
    if (worst > 0 && worst < shown.size()) shown.resize(worst);
    if (order == ChannelOrder::Index) std::sort(shown.begin(), shown.end());
    return shown;
}

}  // namespace qs::ui
