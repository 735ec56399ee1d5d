#include "ui/plot/plot_decimation.h"

#include <algorithm>
#include <utility>

#include <qcustomplot.h>

namespace qs::ui {

namespace {

QVector<double> pickVector(const std::vector<double>& v, const std::vector<size_t>& indices) {
    QVector<double> out;
    out.reserve(static_cast<qsizetype>(indices.size()));
    for (size_t i : indices) out.push_back(v[i]);
    return out;
}

// The key axis's visible range over its axis rect's pixels. No columns (so every point is
// kept) on a log axis, whose pixels are not evenly spaced keys, and on a plot not on screen,
// whose layout may be for a size it no longer has (its first show lays it out and replots).
qs::analysis::PixelWindow windowOf(const QCPAbstractPlottable* plottable) {
    const QCPAxis* axis = plottable->keyAxis();
    if (!axis || axis->scaleType() != QCPAxis::stLinear || !plottable->parentPlot()->isVisible()) return {};
    const QRect rect = axis->axisRect()->rect();
    const int columns = axis->orientation() == Qt::Horizontal ? rect.width() : rect.height();
    return {axis->range().lower, axis->range().upper, std::max(columns, 0)};
}

bool operator==(const qs::analysis::PixelWindow& a, const qs::analysis::PixelWindow& b) {
    return a.lo == b.lo && a.hi == b.hi && a.columns == b.columns;
}

}  // namespace

void PlotDecimation::set(QCPAbstractPlottable* plottable, std::vector<double> keys, std::vector<double> values) {
    Entry& e = entries_[plottable];
    e.series = Series{std::move(keys), std::move(values), {}, {}, nullptr};
    e.dirty = true;
}

void PlotDecimation::set(QCPGraph* graph, QCPErrorBars* errors, std::vector<double> keys,
                         std::vector<double> values, std::vector<double> minus, std::vector<double> plus) {
    Entry& e = entries_[graph];
    e.series = Series{std::move(keys), std::move(values), std::move(minus), std::move(plus), errors};
    e.dirty = true;
}

const PlotDecimation::Series* PlotDecimation::full(const QCPAbstractPlottable* plottable) const {
    const auto it = entries_.find(const_cast<QCPAbstractPlottable*>(plottable));
    return it == entries_.end() ? nullptr : &it->second.series;
}

void PlotDecimation::refresh(bool everything) {
    for (auto& [plottable, entry] : entries_) hand(plottable, entry, everything);
}

void PlotDecimation::hand(QCPAbstractPlottable* plottable, Entry& entry, bool everything) {
    const qs::analysis::PixelWindow window = everything ? qs::analysis::PixelWindow{} : windowOf(plottable);
    if (!entry.dirty && entry.everything == everything && entry.window == window) return;
    entry.dirty = false;
    entry.everything = everything;
    entry.window = window;
    const Series& s = entry.series;
    auto* graph = qobject_cast<QCPGraph*>(plottable);
    // Lines need where they enter and leave each column; markers and bars only the extremes.
    const qs::analysis::DecimationOptions options{.keep_ends = graph && graph->lineStyle() != QCPGraph::lsNone};
    std::vector<size_t> kept;
    if (s.errors) {
        std::vector<double> lows(s.values.size()), highs(s.values.size());
        for (size_t i = 0; i < s.values.size(); ++i) {
            lows[i] = s.values[i] - s.minus[i];
            highs[i] = s.values[i] + s.plus[i];
        }
        kept = qs::analysis::decimationIndices(s.keys, {s.values, lows, highs}, window, options);
    } else {
        kept = qs::analysis::decimationIndices(s.keys, {s.values}, window, options);
    }
    const QVector<double> keys = pickVector(s.keys, kept), values = pickVector(s.values, kept);
    if (graph)
        graph->setData(keys, values, true);
    else if (auto* bars = qobject_cast<QCPBars*>(plottable))
        bars->setData(keys, values, true);
    if (s.errors) s.errors->setData(pickVector(s.minus, kept), pickVector(s.plus, kept));
}

}  // namespace qs::ui
