// PlotDecimation: the full data of a plot's big series, handed to QCustomPlot as the plot's
// width can show it (core/analysis/decimate.h): per pixel column of the key axis's visible
// range the first and last point and the smallest and largest value, every point when few
// are in view. PlotFrame refreshes it after each layout (so zoom, pan and resize re-decimate
// for the new range and width, and only then), hands exports the full data, and keeps the
// full data for the CSV and the read-out. The redraw cost then follows the width, not the
// data.
#pragma once

#include <unordered_map>
#include <vector>

#include "core/analysis/decimate.h"
#include "ui/plot/qcp_fwd.h"

namespace qs::ui {

class PlotDecimation {
public:
    // One plottable's full data: keys ascending. With error bars (`errors`), the whiskers run
    // from value − minus to value + plus and are decimated with the graph (their envelope
    // kept too).
    struct Series {
        std::vector<double> keys, values, minus, plus;
        QCPErrorBars* errors = nullptr;
    };

    // Sets the full data of a graph or bars (replacing what it had), handed at the next refresh.
    void set(QCPAbstractPlottable* plottable, std::vector<double> keys, std::vector<double> values);
    // A graph and the error bars hung on it.
    void set(QCPGraph* graph, QCPErrorBars* errors, std::vector<double> keys, std::vector<double> values,
             std::vector<double> minus, std::vector<double> plus);

    // The full data of `plottable`, or null when it is not decimated here.
    const Series* full(const QCPAbstractPlottable* plottable) const;

    // Hands every plottable its points for its key axis's range and its axis rect's width
    // (after a layout: the width is that of the coming draw); all of them while the plot is
    // not on screen. Only plottables whose data, range or width changed are recomputed.
    // `everything`: hand the full data (exports, drawn at another size).
    void refresh(bool everything = false);

private:
    struct Entry {
        Series series;
        bool dirty = true;
        bool everything = false;  // what was handed last
        qs::analysis::PixelWindow window;
    };
    void hand(QCPAbstractPlottable* plottable, Entry& entry, bool everything);

    std::unordered_map<QCPAbstractPlottable*, Entry> entries_;
};

}  // namespace qs::ui
