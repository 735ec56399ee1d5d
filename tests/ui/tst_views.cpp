// Over 500 lines on purpose: the four explorer views share one computed result and its fixture.
// The explorer's views given real results (core computeExplorer on generated data): each
// draws exactly what the result holds, the plot interactions (legend toggle, reset view,
// range-handle drag) behave, themes and the stale state recolour, and every export writes
// what it promises (pixel size at a DPI, SVG/PDF files, CSV equal to the plotted data).
#include <QtTest>

#include <QAction>
#include <QClipboard>
#include <QDir>
#include <QImage>
#include <QLabel>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <cmath>
#include <functional>
#include <memory>
#include <qcustomplot.h>
#include <numeric>
#include <random>

#include "core/analysis/explorer.h"
#include "core/analysis/view_data.h"
#include "tests/ui/show_exposed.h"
#include "ui/plot/plot_frame.h"
#include "ui/plot/range_handles.h"
#include "ui/plot/theme.h"
#include "ui/views/channel_order.h"
#include "ui/views/channel_view.h"
#include "ui/views/error_histogram_view.h"
#include "ui/views/histogram_view.h"
#include "ui/views/stats_panel.h"
#include "ui/views/transfer_view.h"
#include "tests/file_size_limit.h"
#include "tests/ui/gui_test_env.h"
#include "tests/ui/table_text.h"

using namespace qs::ui;
using ResultPtr = std::shared_ptr<const qs::analysis::ExplorerResult>;

namespace {

std::vector<float> normalData(size_t n, uint32_t seed) {
    std::mt19937 rng(seed);
    std::normal_distribution<float> nd(0.0f, 1.0f);
    std::vector<float> v(n);
    for (float& x : v) x = nd(rng);
    return v;
}

ResultPtr compute(const qs::QuantSpec& spec, const std::vector<float>& data, qs::Shape shape) {
    qs::TensorRef<float> t{std::span<const float>(data), std::move(shape)};
    auto r = qs::analysis::computeExplorer(spec, t);
    if (!r) qFatal("computeExplorer failed: %s", r.error().message.c_str());
    return std::make_shared<qs::analysis::ExplorerResult>(std::move(*r));
}

qs::QuantSpec scaledSpec(float lo = -3, float hi = 3) {
    qs::QuantSpec s;
    s.op = qs::QuantOp::QuantizeV2;
    s.T = qs::QType::QInt8;
    s.mode = qs::QuantizeMode::Scaled;
    s.round_mode = qs::RoundMode::HalfToEven;
    s.min_range = lo;
    s.max_range = hi;
    return s;
}

// The per-pixel-column envelope (min, max of the values) of the points of `data` with keys
// in the axis's range, over `columns` columns (as the plot's pixels split the range).
template <typename Data>
std::vector<std::pair<double, double>> columnEnvelopes(const Data& data, const QCPRange& range, int columns) {
    std::vector<std::pair<double, double>> e(size_t(columns), {INFINITY, -INFINITY});
    for (auto it = data->constBegin(); it != data->constEnd(); ++it) {
        if (it->key < range.lower || it->key > range.upper) continue;
        const double c = std::floor((it->key - range.lower) * columns / (range.upper - range.lower));
        auto& [lo, hi] = e[size_t(std::clamp(c, 0.0, double(columns - 1)))];
        lo = std::min(lo, it->value);
        hi = std::max(hi, it->value);
    }
    return e;
}

template <typename Data>
std::vector<std::pair<double, double>> points(const Data& data) {
    std::vector<std::pair<double, double>> out;
    for (auto it = data->constBegin(); it != data->constEnd(); ++it) out.emplace_back(it->key, it->value);
    return out;
}

QList<QByteArray> csvLines(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    QList<QByteArray> lines = f.readAll().split('\n');
    if (!lines.isEmpty() && lines.back().isEmpty()) lines.removeLast();
    return lines;
}

QCPAbstractLegendItem* legendItemOf(QCustomPlot* plot, QCPAbstractPlottable* p) {
    for (QCPLegend* legend : plot->findChildren<QCPLegend*>())
        if (QCPAbstractLegendItem* item = legend->itemWithPlottable(p)) return item;
    return nullptr;
}

SizeHintWarningFilter sizeHintWarnings;

}  // namespace

class TstViews : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();

    void viewDataHelpers();
    void transferDrawsTheResult();
    void transferCsvIsThePlottedCurve();
    void zoomingIntoAWideTypeShowsItsSteps();
    void histogramDrawsTheResult();
    void errorHistogramDrawsTheResultAndLogToggle();
    void channelViewDrawsEachChannel();
    void channelViewPerTensorShowsANote();
    void channelViewSortsAndKeepsTheWorstChannels();
    void thousandChannelsStayReadable();
    void channelViewTitleSaysWhoseRangeEachChannelUses();
    void transferLegendAndTitleStayOffTheCurve();
    void transferCurveIsDrawnAtThePlotsWidth();
    void manyChannelsAreDrawnAtThePlotsWidth();
    void statsPanelShowsTheRowsAndCsv();
    void legendClickHidesASeries();
    void resetViewRestoresRangesAndNewResultsRespectZoom();
    void themeSwitchRecoloursThePlot();
    void readoutBuffersTheOverlayOnlyWhileShown();
    void opaqueTintIsTheColourOverTheBackground();
    void exportImageHasTheAskedPixelSize();
    void exportSvgPdfAndSeriesCsv();
    void failedExportKeepsPreviousFile();
    void handleDragEmitsOneFinishedSignal();
    void staleOverlayToggles();

private:
    ResultPtr tensor_, channels_;
};

void TstViews::initTestCase() {
    sizeHintWarnings.install();
    const auto data = normalData(20000, 7);
    tensor_ = compute(scaledSpec(), data, {static_cast<int64_t>(data.size())});
    // 8 channels along axis 1 of [2500, 8], each with its own spread and range from data.
    auto pc = normalData(2500 * 8, 11);
    for (size_t i = 0; i < pc.size(); ++i) pc[i] *= 0.5f + 0.25f * static_cast<float>(i % 8);
    qs::QuantSpec s = scaledSpec();
    s.mode = qs::QuantizeMode::MinCombined;
    s.round_mode = qs::RoundMode::HalfAwayFromZero;
    s.axis = 1;
    s.range_source = qs::RangeSource::FromData;
    channels_ = compute(s, pc, {2500, 8});
    QCOMPARE(channels_->channels.size(), size_t(8));
}

void TstViews::cleanupTestCase() { sizeHintWarnings.uninstall(); }

void TstViews::viewDataHelpers() {
    const qs::TransferCurve& c = tensor_->curve;
    QVERIFY(c.steps_resolved);
    const auto edges = qs::analysis::stepEdges(c);
    // qint8 SCALED on [-3, 3]: s = 127/3 and TF returns output_min = -128/s, so all 256
    // codes occur inside the ±25 % window: 255 edges.
    QCOMPARE(edges.size(), size_t(255));
    for (const auto& e : edges) QVERIFY(e.after > e.before);
    const auto err = qs::analysis::transferErrorCurve(c);
    QCOMPARE(err.x.size(), c.x.size() + edges.size());  // one extra point per edge
    for (size_t i = 1; i < err.x.size(); ++i) QVERIFY(err.x[i] >= err.x[i - 1]);
    const auto knees = qs::analysis::clipKnees(c);
    QVERIFY(knees.has_lower && knees.has_upper);
    QCOMPARE(knees.upper_y, 3.0);
    const auto split = qs::analysis::splitClipped(*tensor_);
    for (int i = 0; i < tensor_->data_hist.bins(); ++i)
        QCOMPARE(split.inside[i] + split.clipped[i], double(tensor_->data_hist.counts[i]));
}

void TstViews::transferDrawsTheResult() {
    TransferView view;
    view.resize(900, 600);
    view.setResult(tensor_);
    const qs::TransferCurve& c = tensor_->curve;
    // The view keeps the whole curve and draws the points its width shows, each one a point
    // of the curve.
    const PlotDecimation::Series* full = view.fullSeries(view.curveGraph());
    QVERIFY(full);
    QCOMPARE(full->keys, c.x);
    QCOMPARE(full->values, c.output);
    const auto curve = points(view.curveGraph()->data());
    QVERIFY(!curve.empty() && curve.size() <= c.x.size());
    for (const auto& [x, y] : curve) {
        const size_t i = size_t(std::lower_bound(c.x.begin(), c.x.end(), x) - c.x.begin());
        QVERIFY(i < c.x.size() && c.x[i] == x);
        QCOMPARE(y, c.output[i]);
    }
    QCOMPARE(view.curveGraph()->lineStyle(), QCPGraph::lsStepLeft);
    const auto err = qs::analysis::transferErrorCurve(c);
    QCOMPARE(view.fullSeries(view.errorGraph())->keys, err.x);
    QCOMPARE(view.fullSeries(view.errorGraph())->values, err.y);
    QCOMPARE(view.edgeGraph()->data()->size(), 255);
    // The range TF returned (SCALED: output_min = -128/s) and the requested one.
    auto* minMarker = view.plot()->findChild<QCPItemStraightLine*>("outputMinMarker");
    QCOMPARE(minMarker->point1->coords().y(), double(tensor_->run.slices[0].output_min));
    QVERIFY(tensor_->run.slices[0].output_min != -3.0f);
    auto* minLabel = view.plot()->findChild<QCPItemText*>("outputMinLabel");
    QVERIFY(minLabel->text().contains("requested -3"));
    QCOMPARE(view.rangeHandles()->min(), -3.0);
    QCOMPARE(view.rangeHandles()->max(), 3.0);
    QVERIFY(view.rangeHandles()->isVisible());
    auto* zero = view.plot()->findChild<QCPGraph*>("zeroPoint");
    QCOMPARE(zero->data()->size(), 1);
    // Zoomed out, the 255 edge markers would be a smear; zoomed in they appear.
    view.plot()->replot();
    QVERIFY(!view.edgeGraph()->visible());
    view.plot()->xAxis->setRange(-0.1, 0.1);
    view.plot()->replot();
    QVERIFY(view.edgeGraph()->visible());
    // The code axis follows the output axis: output = code · Δ.
    QCOMPARE(view.plot()->yAxis2->range().upper,
             (view.plot()->yAxis->range().upper - c.output_at_code_zero) / c.output_per_code);
    view.setResult(nullptr);
    QVERIFY(view.curveGraph()->data()->isEmpty());
}

void TstViews::zoomingIntoAWideTypeShowsItsSteps() {
    // qint16 has 65536 codes: the whole-range curve is exact samples on a line; zoomed in,
    // the view resamples the window and draws the true steps, at the op's own values.
    qs::QuantSpec spec = scaledSpec();
    spec.T = qs::QType::QInt16;
    TransferView view;
    view.resize(900, 600);
    view.setResult(compute(spec, normalData(5000, 3), {5000}));
    QCOMPARE(view.curveGraph()->lineStyle(), QCPGraph::lsLine);
    view.plot()->xAxis->setRange(0.1, 0.1 + 0.001);  // about 11 codes wide
    view.plot()->replot();                           // as wheel or box zoom do
    QCOMPARE(view.curveGraph()->lineStyle(), QCPGraph::lsStepLeft);
    const auto pts = points(view.curveGraph()->data());
    QVERIFY(pts.size() > 10);
    auto q = qs::SliceQuantizer::make(spec, spec.min_range, spec.max_range);
    QVERIFY(q.ok());
    for (const auto& [x, y] : pts) QCOMPARE(y, (*q)(static_cast<float>(x)).output);
    view.resetView();  // back to the whole range: the samples again
    QCOMPARE(view.curveGraph()->lineStyle(), QCPGraph::lsLine);
}

void TstViews::transferCsvIsThePlottedCurve() {
    TransferView view;
    QVERIFY(showExposed(&view, {900, 600}));  // laid out: the curve is drawn at the plot's width
    view.setResult(tensor_);
    QTemporaryDir dir;
    const QString path = dir.filePath("transfer.csv");
    QVERIFY(view.exporter().exportCsv(path));
    const auto lines = csvLines(path);
    QCOMPARE(lines.front(), QByteArray("input,code,output,error"));
    // Every point of the curve, not only those the plot's width draws.
    const PlotDecimation::Series* curve = view.fullSeries(view.curveGraph());
    QVERIFY(size_t(view.curveGraph()->data()->size()) < curve->keys.size());
    QCOMPARE(qsizetype(lines.size() - 1), qsizetype(curve->keys.size()));
    for (size_t i = 0; i < curve->keys.size(); i += 37) {
        const QList<QByteArray> f = lines[qsizetype(i) + 1].split(',');
        QCOMPARE(f.size(), 4);
        // Inputs and outputs are float32: printed as the shortest float32 text, exact.
        QCOMPARE(double(f[0].toFloat()), curve->keys[i]);
        QCOMPARE(f[1].toDouble(), tensor_->curve.code[i]);
        QCOMPARE(double(f[2].toFloat()), curve->values[i]);
        const double error = curve->keys[i] - curve->values[i];
        QCOMPARE(float(error) == error ? double(f[3].toFloat()) : f[3].toDouble(), error);
    }
}

void TstViews::histogramDrawsTheResult() {
    HistogramView view;
    view.resize(900, 600);
    view.setResult(tensor_);
    const auto& h = tensor_->data_hist;
    const auto in = points(view.insideBars()->data());
    const auto out = points(view.clippedBars()->data());
    QCOMPARE(int(in.size()), h.bins());
    QCOMPARE(int(out.size()), h.bins());
    double clippedMass = 0;
    for (int i = 0; i < h.bins(); ++i) {
        QCOMPARE(in[i].first, h.center(i));
        QCOMPARE(in[i].second + out[i].second, double(h.counts[i]));
        clippedMass += out[i].second;
    }
    QVERIFY(clippedMass > 0);  // N(0,1) beyond ±3: about 0.27 %
    QVERIFY(view.clippedText()->text().contains(QString::number(tensor_->clipped_below)));
    QCOMPARE(view.plot()->findChild<QCPItemStraightLine*>("clipLoLine")->point1->coords().x(),
             double(tensor_->clip_lo));
    QVERIFY(view.rangeHandles()->isVisible());
    // The CSV holds the same bins.
    const auto t = view.csvTable();
    QCOMPARE(qStrings(t.header), QStringList({"bin_lo", "bin_hi", "count", "clipped"}));
    QCOMPARE(int(t.columns[2].size()), h.bins());
    for (int i = 0; i < h.bins(); ++i) {
        QCOMPARE(t.columns[2][i], in[i].second + out[i].second);
        // A bin is marked clipped when it holds clipped values (the histogram of the clipped
        // values themselves, not the bin centre against slice 0's range).
        QCOMPARE(t.columns[3][i], out[i].second > 0 ? 1.0 : 0.0);
        QCOMPARE(out[i].second, double(tensor_->clipped_hist.counts[i]));
    }
}

void TstViews::errorHistogramDrawsTheResultAndLogToggle() {
    ErrorHistogramView view;
    view.resize(900, 600);
    view.setResult(tensor_);
    const auto& h = tensor_->error_hist;
    const auto bars = points(view.errorBars()->data());
    const auto model = points(view.uniformGraph()->data());
    QCOMPARE(int(bars.size()), h.bins());
    QCOMPARE(model.size(), tensor_->error_uniform_counts.size());
    for (int i = 0; i < h.bins(); ++i) {
        QCOMPARE(bars[i].second, double(h.counts[i]));
        QCOMPARE(model[i].second, tensor_->error_uniform_counts[i]);
    }
    // Zero error stays marked over the (opaque) bars.
    const auto* zero = view.plot()->findChild<QCPItemStraightLine*>("zeroErrorLine");
    QVERIFY(zero && zero->visible());
    QCOMPARE(zero->point1->coords().x(), 0.0);
    QCOMPARE(zero->point2->coords().x(), 0.0);
    QCOMPARE(zero->layer(), view.errorBars()->layer());
    const auto drawOrder = zero->layer()->children();
    QVERIFY(drawOrder.indexOf(const_cast<QCPItemStraightLine*>(zero)) > drawOrder.indexOf(view.errorBars()));
    QVERIFY(view.logScaleAction());
    QVERIFY(!view.isLogScale());
    view.logScaleAction()->setChecked(true);
    QVERIFY(view.isLogScale());
    QCOMPARE(view.plot()->yAxis->scaleType(), QCPAxis::stLogarithmic);
    QVERIFY(view.plot()->yAxis->range().lower > 0);
    view.setLogScale(false);
    QVERIFY(!view.logScaleAction()->isChecked());
    QCOMPARE(view.plot()->yAxis->scaleType(), QCPAxis::stLinear);
}

void TstViews::channelViewDrawsEachChannel() {
    ChannelView view;
    view.resize(900, 700);
    view.setResult(channels_);
    const auto& ch = channels_->channels;
    const auto mins = points(view.dataMinGraph()->data());
    const auto maxs = points(view.dataMaxGraph()->data());
    const auto omax = points(view.outputMaxGraph()->data());
    const auto scale = points(view.scaleBars()->data());
    const auto rmse = points(view.rmseBars()->data());
    QCOMPARE(mins.size(), ch.size());
    for (size_t i = 0; i < ch.size(); ++i) {
        QCOMPARE(mins[i].first, double(i));
        QCOMPARE(mins[i].second, double(ch[i].data_min));
        QCOMPARE(maxs[i].second, double(ch[i].data_max));
        QCOMPARE(omax[i].second, double(ch[i].quant.output_max));
        QCOMPARE(scale[i].second, double(ch[i].quant.scale));
        QCOMPARE(rmse[i].second, ch[i].stats.rmse);
    }
    QVERIFY(scale.front().second > scale.back().second);  // wider channels, smaller scale
    QVERIFY(!view.messageText()->visible());
    const auto t = view.csvTable();
    QCOMPARE(t.header.front(), std::string("channel"));
    QCOMPARE(t.columns[5].size(), ch.size());
    QCOMPARE(t.columns[5][3], double(ch[3].quant.scale));
}

// Drawn at the plot's width: at the home view the curve handed to QCustomPlot is bounded by
// the axis rect's pixel columns, with every column's min … max exactly the whole curve's;
// zoomed in to ten steps every point of the curve in view is drawn, so each step edge is
// where the op puts it; back home it is bounded again.
void TstViews::transferCurveIsDrawnAtThePlotsWidth() {
    TransferView view;
    QVERIFY(showExposed(&view, {900, 600}));
    view.setResult(tensor_);
    const qs::TransferCurve& c = tensor_->curve;
    const int width = view.plot()->axisRect()->width();
    QVERIFY(width > 100);
    const auto drawn = view.curveGraph()->data();
    QVERIFY2(drawn->size() <= 4 * width + 2, qPrintable(QStringLiteral("%1 points for %2 px").arg(drawn->size()).arg(width)));
    QVERIFY(size_t(drawn->size()) < c.x.size());
    QCPGraphDataContainer all;
    for (size_t i = 0; i < c.x.size(); ++i) all.add(QCPGraphData(c.x[i], c.output[i]));
    const QCPRange home = view.plot()->xAxis->range();
    QVERIFY(columnEnvelopes(drawn, home, width) == columnEnvelopes(&all, home, width));

    const auto edges = qs::analysis::stepEdges(c);
    view.plot()->xAxis->setRange(edges[120].x - 1e-4, edges[130].x + 1e-4);  // as a wheel zoom does
    view.plot()->replot();
    const auto zoomed = points(view.curveGraph()->data());
    const QCPRange r = view.plot()->xAxis->range();
    size_t inView = 0;
    for (size_t i = 0; i < c.x.size(); ++i) {
        if (c.x[i] < r.lower || c.x[i] > r.upper) continue;
        ++inView;
        QVERIFY(std::find(zoomed.begin(), zoomed.end(), std::make_pair(c.x[i], c.output[i])) != zoomed.end());
    }
    QVERIFY(inView > 20);
    int steps = 0;  // output changes between drawn points: the eleven edges, at their exact x
    for (size_t k = 1; k < zoomed.size(); ++k)
        if (zoomed[k].second != zoomed[k - 1].second && zoomed[k].first >= r.lower && zoomed[k].first <= r.upper) {
            ++steps;
            const double x = zoomed[k].first;
            QVERIFY(std::any_of(edges.begin(), edges.end(), [x](const auto& e) { return e.x == x; }));
        }
    QCOMPARE(steps, 11);
    view.resetView();
    QCOMPARE(view.curveGraph()->data()->size(), drawn->size());
}

// 20,000 channels on a plot a few hundred pixels wide: each series handed to QCustomPlot is
// bounded by the width with every pixel column's envelope exact; zoomed to 41 channels each
// one is drawn with its own values; the CSV has every channel.
void TstViews::manyChannelsAreDrawnAtThePlotsWidth() {
    constexpr int64_t kChannels = 20000;
    auto data = normalData(2 * kChannels, 5);
    for (size_t i = 0; i < data.size(); ++i) data[i] *= 0.2f + static_cast<float>((i % kChannels) % 97) / 40.0f;
    qs::QuantSpec s = scaledSpec();
    s.axis = 1;
    s.range_source = qs::RangeSource::FromData;
    const ResultPtr result = compute(s, data, {2, kChannels});
    ChannelView view;
    QVERIFY(showExposed(&view, {900, 700}));
    view.setResult(result);
    const auto& ch = result->channels;
    const int width = view.plot()->axisRect()->width();
    QCPBarsDataContainer rmseAll;
    QCPGraphDataContainer maxAll;
    for (size_t i = 0; i < ch.size(); ++i) {
        rmseAll.add(QCPBarsData(double(i), ch[i].stats.rmse));
        maxAll.add(QCPGraphData(double(i), ch[i].data_max));
    }
    const QCPRange home = view.plot()->xAxis->range();
    for (QCPAbstractPlottable* p : {static_cast<QCPAbstractPlottable*>(view.rmseBars()), static_cast<QCPAbstractPlottable*>(view.scaleBars()),
                                    static_cast<QCPAbstractPlottable*>(view.dataMaxGraph()), static_cast<QCPAbstractPlottable*>(view.outputMinGraph())})
    {
        // Two points a pixel column for marks; four (first and last too) for a line, as the
        // dense output ranges are drawn.
        auto* graph = qobject_cast<QCPGraph*>(p);
        const int perColumn = graph && graph->lineStyle() != QCPGraph::lsNone ? 4 : 2;
        QVERIFY2(p->interface1D()->dataCount() <= perColumn * width + 2, qPrintable(p->objectName()));
    }
    QVERIFY(columnEnvelopes(view.rmseBars()->data(), home, width) == columnEnvelopes(&rmseAll, home, width));
    QVERIFY(columnEnvelopes(view.dataMaxGraph()->data(), home, width) == columnEnvelopes(&maxAll, home, width));

    view.plot()->xAxis->setRange(4999.5, 5040.5);
    view.plot()->replot();
    const auto rmse = points(view.rmseBars()->data());
    const auto mins = points(view.dataMinGraph()->data());
    QCOMPARE(rmse.size(), size_t(43));  // 5000 … 5040 and one beyond each end
    for (size_t k = 0; k < rmse.size(); ++k) {
        const size_t i = 4999 + k;
        QCOMPARE(rmse[k], std::make_pair(double(i), ch[i].stats.rmse));
        QCOMPARE(mins[k], std::make_pair(double(i), double(ch[i].data_min)));
    }
    QCOMPARE(view.csvTable().columns.front().size(), size_t(kChannels));
}

void TstViews::channelViewPerTensorShowsANote() {
    ChannelView view;
    view.setResult(tensor_);
    QVERIFY(view.dataMinGraph()->data()->isEmpty());
    QVERIFY(view.messageText()->visible());
    QVERIFY(view.messageText()->text().contains("axis"));
}

// Sorted worst first and cut to the worst N, the channel view draws exactly those channels
// in that order, names each position's channel on the x axis and says so in its title; the
// read-out names the channel under the cursor.
void TstViews::channelViewSortsAndKeepsTheWorstChannels() {
    ChannelView view;
    view.resize(900, 700);
    view.setResult(channels_);
    const auto& ch = channels_->channels;
    view.setOrder(ChannelOrder::Rmse);
    std::vector<size_t> byRmse(ch.size());
    std::iota(byRmse.begin(), byRmse.end(), size_t{0});
    std::stable_sort(byRmse.begin(), byRmse.end(), [&](size_t a, size_t b) { return ch[a].stats.rmse > ch[b].stats.rmse; });
    QCOMPARE(view.shownChannels(), byRmse);
    auto rmse = points(view.rmseBars()->data());
    QCOMPARE(rmse.size(), ch.size());
    for (size_t k = 0; k < rmse.size(); ++k) {
        QCOMPARE(rmse[k], std::make_pair(double(k), ch[byRmse[k]].stats.rmse));
        QCOMPARE(points(view.outputMaxGraph()->data())[k].second, double(ch[byRmse[k]].quant.output_max));
    }
    auto* ticker = dynamic_cast<QCPAxisTickerText*>(view.errorRect()->axis(QCPAxis::atBottom)->ticker().data());
    QVERIFY(ticker);
    QCOMPARE(ticker->ticks().value(0.0), QString::number(byRmse[0]));
    QVERIFY(view.errorRect()->axis(QCPAxis::atBottom)->label().contains(QStringLiteral("worst first")));

    view.setWorstCount(3);
    QCOMPARE(view.worstBox()->value(), 3);
    QCOMPARE(view.shownChannels(), (std::vector<size_t>{byRmse[0], byRmse[1], byRmse[2]}));
    QCOMPARE(view.rmseBars()->data()->size(), 3);
    auto* title = qobject_cast<QCPTextElement*>(view.plot()->plotLayout()->element(0, 0));
    QVERIFY2(title->text().contains(QStringLiteral("worst 3 of 8 channels")), qPrintable(title->text()));
    QCOMPARE(view.csvTable().columns.front().size(), ch.size());  // the CSV keeps every channel
    // In channel order, the worst three stay in channel order.
    view.setOrder(ChannelOrder::Index);
    std::vector<size_t> worst{byRmse[0], byRmse[1], byRmse[2]};
    std::sort(worst.begin(), worst.end());
    QCOMPARE(view.shownChannels(), worst);
    // By max |error|.
    view.setOrder(ChannelOrder::MaxAbsError);
    view.setWorstCount(0);
    for (size_t k = 1; k < view.shownChannels().size(); ++k)
        QVERIFY(ch[view.shownChannels()[k - 1]].stats.max_abs_error >= ch[view.shownChannels()[k]].stats.max_abs_error);
    QCOMPARE(channelsShown(ch, ChannelOrder::Index, 0).size(), ch.size());
}

// 1,200 channels on a 900-pixel plot: the output ranges are two thin lines, not 2,400
// overlapping dashes; zoomed to 20 channels they are dashes narrower than a channel again.
void TstViews::thousandChannelsStayReadable() {
    constexpr int64_t kChannels = 1200;
    auto data = normalData(4 * kChannels, 9);
    qs::QuantSpec s = scaledSpec();
    s.axis = 1;
    s.range_source = qs::RangeSource::FromData;
    const ResultPtr result = compute(s, data, {4, kChannels});
    ChannelView view;
    QVERIFY(showExposed(&view, {900, 700}));
    view.setResult(result);
    view.plot()->replot();
    view.plot()->replot();
    QCOMPARE(view.outputMaxGraph()->scatterStyle().shape(), QCPScatterStyle::ssNone);
    QCOMPARE(view.outputMaxGraph()->lineStyle(), QCPGraph::lsStepCenter);
    view.plot()->xAxis->setRange(99.5, 119.5);
    view.plot()->replot();
    view.plot()->replot();
    QCOMPARE(view.outputMaxGraph()->lineStyle(), QCPGraph::lsNone);
    const double pixelsPerChannel = view.plot()->xAxis->coordToPixel(1) - view.plot()->xAxis->coordToPixel(0);
    QVERIFY(pixelsPerChannel > 20);
    QVERIFY(2 * view.outputMaxGraph()->scatterStyle().size() < pixelsPerChannel);
}

// QDQ V4 with range_given off takes each channel's range from its data, whatever the range
// source says: the title says so (it said "one given range for all").
void TstViews::channelViewTitleSaysWhoseRangeEachChannelUses() {
    auto pc = normalData(2500 * 8, 11);
    qs::QuantSpec s;
    s.op = qs::QuantOp::QuantizeAndDequantizeV4;
    s.num_bits = 8;
    s.signed_input = true;
    s.round_mode = qs::RoundMode::HalfToEven;
    s.range_given = false;
    s.axis = 1;
    ChannelView view;
    view.setResult(compute(s, pc, {2500, 8}));
    auto* title = qobject_cast<QCPTextElement*>(view.plot()->plotLayout()->element(0, 0));
    QVERIFY2(title->text().contains(QStringLiteral("ranges from each channel's data")), qPrintable(title->text()));
    s.range_given = true;
    s.axis = -1;
    view.setResult(compute(s, pc, {2500 * 8}));
    // Per tensor with range_given on: the note says how to get per-channel ranges.
    QVERIFY(view.messageText()->text().contains(QStringLiteral("untick range_given")));
}

// On a plot as narrow as the transfer view gets on a 1280-pixel screen, the legend is above
// the axis rect (inside it, it covered the curve) and every title line fits the plot.
void TstViews::transferLegendAndTitleStayOffTheCurve() {
    TransferView view;
    QVERIFY(showExposed(&view, {380, 560}));
    view.setResult(tensor_);
    view.plot()->replot();
    view.plot()->replot();
    QCustomPlot* plot = view.plot();
    QVERIFY(plot->legend->visible());
    QVERIFY(!plot->legend->outerRect().intersects(plot->axisRect()->rect()));
    QVERIFY(plot->legend->outerRect().right() <= plot->width());
    for (int i = 0; i < plot->legend->itemCount(); ++i)
        QVERIFY(plot->legend->outerRect().contains(plot->legend->item(i)->outerRect()));
    auto* title = qobject_cast<QCPTextElement*>(plot->plotLayout()->element(0, 0));
    QVERIFY(title->text().contains(QLatin1Char('\n')));
    for (const QString& line : title->text().split(QLatin1Char('\n')))
        QVERIFY2(QFontMetricsF(title->font()).horizontalAdvance(line) <= plot->width(), qPrintable(line));
    // Wider, the legend takes more columns and the title is one line again.
    view.resize(1400, 700);
    plot->replot();
    plot->replot();
    QVERIFY(!title->text().contains(QLatin1Char('\n')));
    QVERIFY(plot->legend->wrap() > 2);
    QVERIFY(!plot->legend->outerRect().intersects(plot->axisRect()->rect()));
}

void TstViews::statsPanelShowsTheRowsAndCsv() {
    StatsPanel panel;
    panel.setResult(tensor_);
    QCOMPARE(panel.valueText("levels_used"),
             QStringLiteral("%1 of 256").arg(tensor_->stats.distinct_levels));
    QVERIFY(tensor_->stats.distinct_levels > 200);
    QVERIFY(panel.valueText("sqnr_db").endsWith(" dB"));
    QVERIFY(panel.valueText("scale").startsWith("42.33"));
    QVERIFY(panel.formulaLabel()->text().contains("SCALED"));
    QVERIFY(panel.formulaLabel()->text().contains("round(clamp(x) · s)"));
    // The formula is copied from its context menu (the label is not selectable: see
    // StatsPanel's constructor).
    QVERIFY(!(panel.formulaLabel()->textInteractionFlags() & Qt::TextSelectableByMouse));
    QCOMPARE(panel.formulaLabel()->contextMenuPolicy(), Qt::CustomContextMenu);
    panel.copyFormula();
    QCOMPARE(QApplication::clipboard()->text(), panel.formulaLabel()->text());
    const auto t = panel.csvTable();
    QCOMPARE(qStrings(t.header).mid(0, 6), QStringList({"scope", "channel", "count", "nan_pairs", "mse", "rmse"}));
    const int sqnr = int(qStrings(t.header).indexOf("sqnr_db"));
    QVERIFY(sqnr > 0);
    QCOMPARE(t.rows.size(), size_t(1));
    QCOMPARE(t.rows[0][sqnr], qs::data::csvNumber(tensor_->stats.sqnr_db));
    QCOMPARE(t.rows[0][qStrings(t.header).indexOf("output_min")], qs::data::csvNumber(tensor_->run.slices[0].output_min));
    QTemporaryDir dir;
    QVERIFY(panel.exportCsv(dir.filePath("stats.csv")));
    const auto lines = csvLines(dir.filePath("stats.csv"));
    QCOMPARE(lines.size(), 2);
    QVERIFY(lines[0].startsWith("scope,channel,count,nan_pairs,mse,rmse,max_abs_error,bias,sqnr_db,cosine,clip_fraction"));
    // Per channel: the per-slice values say where to look.
    panel.setResult(channels_);
    QVERIFY(panel.valueText("scale").contains("per channel"));
    panel.setStale(true, "bad");
    QVERIFY(panel.staleLabel()->isVisibleTo(&panel));
    QVERIFY(!panel.table()->isEnabled());
    panel.setResult(tensor_);
    QVERIFY(!panel.isStale());
}

void TstViews::legendClickHidesASeries() {
    TransferView view;
    QVERIFY(showExposed(&view, {1000, 650}));
    view.setResult(tensor_);
    QCPGraph* identity = view.plot()->findChild<QCPGraph*>("identityLine");
    QCPAbstractLegendItem* item = legendItemOf(view.plot(), identity);
    QVERIFY(item);
    QVERIFY(identity->visible());
    const QPoint at = item->rect().center();
    QTest::mouseClick(view.plot(), Qt::LeftButton, {}, at);
    QVERIFY(!identity->visible());
    QVERIFY(view.isSeriesHidden(identity));
    QCOMPARE(item->textColor(), plotPalette(Theme::Light).legendHiddenText);
    QTest::mouseClick(view.plot(), Qt::LeftButton, {}, item->rect().center());
    QVERIFY(identity->visible());
    QCOMPARE(item->textColor(), plotPalette(Theme::Light).text);
}

void TstViews::resetViewRestoresRangesAndNewResultsRespectZoom() {
    HistogramView view;
    QVERIFY(showExposed(&view, {900, 600}));
    view.setResult(tensor_);
    const QCPRange homeX = view.plot()->xAxis->range();
    const QCPRange homeY = view.plot()->yAxis->range();
    QCOMPARE(homeX.lower, tensor_->data_hist.lo);
    QCOMPARE(homeX.upper, tensor_->data_hist.hi);
    // Wheel zoom in the middle of the axis rect.
    const QPoint center = view.plot()->axisRect()->rect().center();
    QWheelEvent wheel(center, view.plot()->mapToGlobal(center), QPoint(), QPoint(0, 240), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(view.plot(), &wheel);
    QVERIFY(view.plot()->xAxis->range().size() < homeX.size() * 0.9);
    // A new result does not undo the user's zoom...
    const QCPRange zoomed = view.plot()->xAxis->range();
    view.setResult(tensor_);
    QCOMPARE(view.plot()->xAxis->range(), zoomed);
    // ...double-click resets to home,
    QTest::mouseDClick(view.plot(), Qt::LeftButton, {}, center);
    QCOMPARE(view.plot()->xAxis->range(), homeX);
    QCOMPARE(view.plot()->yAxis->range(), homeY);
    // and so does the action.
    view.plot()->xAxis->setRange(0, 1);
    view.resetViewAction()->trigger();
    QCOMPARE(view.plot()->xAxis->range(), homeX);
    // Rubber band: Ctrl+drag zooms into the dragged box.
    const QPoint a = center - QPoint(100, 80), b = center + QPoint(60, 40);
    const double boxLo = view.plot()->xAxis->pixelToCoord(a.x()), boxHi = view.plot()->xAxis->pixelToCoord(b.x());
    QTest::mousePress(view.plot(), Qt::LeftButton, Qt::ControlModifier, a);
    QTest::mouseMove(view.plot(), (a + b) / 2);
    QTest::mouseMove(view.plot(), b);
    QTest::mouseRelease(view.plot(), Qt::LeftButton, Qt::ControlModifier, b);
    const double pixel = (boxHi - boxLo) / (b.x() - a.x());  // QCP's box may differ by a pixel
    QVERIFY(std::abs(view.plot()->xAxis->range().lower - boxLo) <= 2 * pixel);
    QVERIFY(std::abs(view.plot()->xAxis->range().upper - boxHi) <= 2 * pixel);
}

// The overlay layer shares the data's paint buffer (an edit's replot clears and blends one
// buffer, not two) but while the read-out shows: then mouse moves replot that layer alone.
void TstViews::readoutBuffersTheOverlayOnlyWhileShown() {
    HistogramView view;
    QVERIFY(showExposed(&view, {600, 400}));
    view.setResult(tensor_);
    QCPLayer* overlay = view.plot()->layer(QStringLiteral("overlay"));
    QCOMPARE(overlay->mode(), QCPLayer::lmLogical);
    QSignalSpy fullReplots(view.plot(), &QCustomPlot::afterReplot);
    const QPoint center = view.plot()->axisRect()->rect().center();
    QTest::mouseMove(view.plot(), center);
    QVERIFY(view.tracer()->visible());
    QCOMPARE(overlay->mode(), QCPLayer::lmBuffered);
    QCOMPARE(fullReplots.count(), 1);  // the overlay's own buffer set up
    const QString firstText = view.readoutText()->text();
    QTest::mouseMove(view.plot(), center + QPoint(60, 0));
    QVERIFY(view.tracer()->visible());
    QVERIFY(view.readoutText()->text() != firstText);  // it followed the mouse
    QCOMPARE(fullReplots.count(), 1);                    // replotting the overlay alone
    QEvent leave(QEvent::Leave);
    QApplication::sendEvent(view.plot(), &leave);
    QVERIFY(!view.tracer()->visible());
    QCOMPARE(overlay->mode(), QCPLayer::lmLogical);
}

void TstViews::themeSwitchRecoloursThePlot() {
    ErrorHistogramView view;
    view.resize(600, 400);
    view.setResult(tensor_);
    QSignalSpy spy(&view, &PlotFrame::themeChanged);
    const QImage light = view.exporter().renderImage(600, 400, 96);
    QCOMPARE(QColor(light.pixel(2, 2)), plotPalette(Theme::Light).background);
    QCOMPARE(view.plot()->axisRect()->backgroundBrush().color(), plotPalette(Theme::Light).axisRectBackground);
    const QColor lightFill = view.errorBars()->brush().color();
    view.setTheme(Theme::Dark);
    QCOMPARE(spy.count(), 1);
    const QImage dark = view.exporter().renderImage(600, 400, 96);
    QCOMPARE(QColor(dark.pixel(2, 2)), plotPalette(Theme::Dark).background);
    QCOMPARE(view.plot()->axisRect()->backgroundBrush().color(), plotPalette(Theme::Dark).axisRectBackground);
    QCOMPARE(view.plot()->xAxis->tickLabelColor(), plotPalette(Theme::Dark).text);
    QCOMPARE(view.errorBars()->pen().color(), plotPalette(Theme::Dark).error);
    // The bars' fill is opaque (see opaqueTint) and follows the theme's background.
    const QColor darkFill = view.errorBars()->brush().color();
    QCOMPARE(lightFill.alpha(), 255);
    QCOMPARE(darkFill.alpha(), 255);
    QVERIFY(darkFill.lightness() < lightFill.lightness());
    QVERIFY(widgetPalette(Theme::Dark).color(QPalette::Window).lightness() < 80);
}

void TstViews::opaqueTintIsTheColourOverTheBackground() {
    const QColor red(200, 40, 0), white(255, 255, 255), dark(40, 41, 45);
    QCOMPARE(opaqueTint(red, 255, white), red);
    QCOMPARE(opaqueTint(red, 0, dark), dark);
    const QColor half = opaqueTint(red, 102, white);  // 40 %
    QCOMPARE(half.alpha(), 255);
    QCOMPARE(half.red(), 233);    // 200 * 0.4 + 255 * 0.6
    QCOMPARE(half.green(), 169);  // 40 * 0.4 + 255 * 0.6
    QCOMPARE(half.blue(), 153);
    QCOMPARE(opaqueTint(red, 102, dark).red(), 104);  // 200 * 0.4 + 40 * 0.6
}

void TstViews::exportImageHasTheAskedPixelSize() {
    TransferView view;
    view.resize(900, 600);
    view.setResult(tensor_);
    QTemporaryDir dir;
    struct Case {
        int w, h;
        double dpi;
    };
    for (const Case c : {Case{800, 500, 96}, Case{1601, 999, 192}, Case{640, 480, 300}}) {
        const QString path = dir.filePath(QStringLiteral("v%1.png").arg(c.w));
        QVERIFY(view.exporter().exportImage(path, c.w, c.h, c.dpi));
        QImage image(path);
        QCOMPARE(image.size(), QSize(c.w, c.h));
        QVERIFY(std::abs(image.dotsPerMeterX() * 0.0254 - c.dpi) < 0.5);
    }
    // Higher DPI at the same pixel size means bigger text: fewer background pixels.
    const QImage at96 = view.exporter().renderImage(800, 500, 96), at192 = view.exporter().renderImage(800, 500, 192);
    auto background = [](const QImage& im) {
        qint64 n = 0;
        for (int y = 0; y < im.height(); y += 2)
            for (int x = 0; x < im.width(); x += 2) n += QColor(im.pixel(x, y)) == QColor(Qt::white);
        return n;
    };
    QVERIFY(background(at192) < background(at96));
    QVERIFY(!view.exporter().exportImage(dir.filePath("bad.png"), 0, 100, 96));
}

void TstViews::exportSvgPdfAndSeriesCsv() {
    HistogramView view;
    view.resize(800, 500);
    view.setResult(tensor_);
    QTemporaryDir dir;
    const QString svg = dir.filePath("h.svg"), pdf = dir.filePath("h.pdf");
    QVERIFY(view.exporter().exportSvg(svg, 800, 500));
    QVERIFY(view.exporter().exportPdf(pdf, 800, 500));
    QFile s(svg), p(pdf);
    QVERIFY(s.open(QIODevice::ReadOnly));
    QVERIFY(p.open(QIODevice::ReadOnly));
    const QByteArray svgText = s.readAll();
    QVERIFY(svgText.contains("<svg"));
    QVERIFY(svgText.size() > 20000);  // 400 bars, axes and text, not an empty page
    QVERIFY(p.read(5) == "%PDF-");
    QVERIFY(p.size() > 5000);
    // The generic table: every visible series as drawn, wide format.
    const auto t = view.seriesTable();
    QCOMPARE(qStrings(t.header).mid(0, 4), QStringList({"in range x", "in range y", "clipped x", "clipped y"}));
    QCOMPARE(int(t.columns[1].size()), tensor_->data_hist.bins());
    view.setSeriesHidden(view.clippedBars(), true);
    QCOMPARE(view.seriesTable().header.size(), size_t(2));  // a hidden series is not exported
}

// A write that fails (a file-size limit here, a full disk for a user) is an error naming the
// file and the reason, and the file the export would have replaced stays as it was.
void TstViews::failedExportKeepsPreviousFile() {
    HistogramView view;
    view.resize(800, 500);
    view.setResult(tensor_);
    QTemporaryDir dir;
    QByteArray previous;
    for (int i = 0; i < 2000; ++i) previous += "the user's previous file " + QByteArray::number(i) + '\n';
    const std::pair<const char*, std::function<bool(const QString&, QString*)>> exports[] = {
        {"h.pdf", [&](const QString& p, QString* e) { return view.exporter().exportPdf(p, 800, 500, e); }},
        {"h.svg", [&](const QString& p, QString* e) { return view.exporter().exportSvg(p, 800, 500, e); }},
        {"h.png", [&](const QString& p, QString* e) { return view.exporter().exportImage(p, 800, 500, 96, e); }},
        {"h.csv", [&](const QString& p, QString* e) { return view.exporter().exportCsv(p, e); }},
    };
    for (const auto& [name, exportTo] : exports) {
        const QString path = dir.filePath(QString::fromLatin1(name));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly) && f.write(previous) == previous.size());
        f.close();
        QString error;
        bool written = false;
        {
            const qs::testing::FileSizeLimit limit(4096);
            QVERIFY(limit.ok());
            written = exportTo(path, &error);
        }
        QVERIFY2(!written, name);
        QCOMPARE(error, QStringLiteral("Could not write %1: File too large").arg(path));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), previous);
        f.close();
        QVERIFY2(exportTo(path, &error), qPrintable(error));  // without the limit it is written
    }
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 4);  // no temporaries
}

void TstViews::handleDragEmitsOneFinishedSignal() {
    TransferView view;
    QVERIFY(showExposed(&view, {1000, 650}));
    view.setResult(tensor_);
    view.plot()->replot();
    RangeHandles* h = view.rangeHandles();
    QSignalSpy spy(&view, &PlotFrame::rangeDragged);
    const QCPRange before = view.plot()->xAxis->range();
    const int y = view.plot()->axisRect()->rect().center().y();
    const QPoint start(int(std::lround(h->maxPixel())), y);
    QTest::mousePress(view.plot(), Qt::LeftButton, {}, start);
    QVERIFY(h->isDragging());
    for (int dx = 10; dx <= 60; dx += 10) QTest::mouseMove(view.plot(), start + QPoint(dx, 0));
    // A recompute arriving mid-drag neither moves the handle nor the axes.
    view.setResult(tensor_);
    QCOMPARE(view.plot()->xAxis->range(), before);
    QTest::mouseRelease(view.plot(), Qt::LeftButton, {}, start + QPoint(60, 0));
    QVERIFY(!h->isDragging());
    QVERIFY(spy.count() >= 3);
    int finished = 0;
    for (int i = 0; i < spy.count(); ++i) finished += spy.at(i).at(2).toBool();
    QCOMPARE(finished, 1);
    QVERIFY(spy.last().at(2).toBool());
    const float min = spy.last().at(0).toFloat(), max = spy.last().at(1).toFloat();
    QCOMPARE(min, -3.0f);
    const double expected = view.plot()->xAxis->pixelToCoord(start.x() + 60);
    QVERIFY2(std::abs(max - expected) < 0.05, qPrintable(QString::number(max)));
    QVERIFY(max > 3.0f);
    // Panning stayed off during the drag and is back on.
    QCOMPARE(view.plot()->xAxis->range(), before);
    QVERIFY(view.plot()->interactions().testFlag(QCP::iRangeDrag));
    // A press away from the handles pans and emits nothing.
    spy.clear();
    const QPoint away = view.plot()->axisRect()->rect().center();
    QTest::mousePress(view.plot(), Qt::LeftButton, {}, away);
    QTest::mouseMove(view.plot(), away + QPoint(30, 0));
    QTest::mouseRelease(view.plot(), Qt::LeftButton, {}, away + QPoint(30, 0));
    QCOMPARE(spy.count(), 0);
}

void TstViews::staleOverlayToggles() {
    TransferView view;
    view.resize(900, 600);
    view.setResult(tensor_);
    const QColor normal = view.curveGraph()->pen().color();
    QCOMPARE(normal, plotPalette(Theme::Light).curve);
    QSignalSpy spy(&view, &PlotFrame::staleChanged);
    view.setStale(true, "input_max_range must be larger than input_min_range.");
    QVERIFY(view.isStale());
    QVERIFY(view.staleText()->visible());
    QVERIFY(view.staleText()->text().startsWith("stale — input_max_range"));
    QVERIFY(view.curveGraph()->pen().color() != normal);
    QCOMPARE(view.fullSeries(view.curveGraph())->keys, tensor_->curve.x);  // last result kept
    view.setStale(false);
    QVERIFY(!view.staleText()->visible());
    QCOMPARE(view.curveGraph()->pen().color(), normal);
    view.setStale(true, "x");
    view.setResult(tensor_);  // a new valid result is fresh
    QVERIFY(!view.isStale());
    QCOMPARE(spy.count(), 4);
}

QTEST_MAIN(TstViews)
#include "tst_views.moc"
