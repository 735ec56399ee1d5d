// Decimation to the pixel columns of a plot (core/analysis/decimate.h): every column's
// min … max envelope is exactly the full data's, lines enter and leave each column at the
// same points, the neighbours beyond the window stay, and where few points are in view (a
// zoomed-in transfer curve) every one of them is kept, so stair steps stay exact.
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "core/analysis/decimate.h"
#include "core/analysis/transfer_curve.h"
#include "core/analysis/view_data.h"

using namespace qs;
using namespace qs::analysis;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

size_t columnOf(double key, const PixelWindow& w) {
    const double c = std::floor((key - w.lo) * w.columns / (w.hi - w.lo));
    return static_cast<size_t>(std::clamp(c, 0.0, double(w.columns - 1)));
}

struct Envelope {
    double lo = std::numeric_limits<double>::infinity(), hi = -std::numeric_limits<double>::infinity();
    size_t first = static_cast<size_t>(-1), last = 0, nans = 0;
};

// Per pixel column: the envelope of `values` over the points `indices` that are in view.
std::vector<Envelope> envelopes(const std::vector<double>& keys, const std::vector<double>& values,
                                const std::vector<size_t>& indices, const PixelWindow& w) {
    std::vector<Envelope> e(static_cast<size_t>(w.columns));
    for (size_t i : indices) {
        if (keys[i] < w.lo || keys[i] > w.hi) continue;
        Envelope& c = e[columnOf(keys[i], w)];
        if (c.first == static_cast<size_t>(-1)) c.first = i;
        c.last = i;
        if (std::isnan(values[i])) {
            ++c.nans;
            continue;
        }
        c.lo = std::min(c.lo, values[i]);
        c.hi = std::max(c.hi, values[i]);
    }
    return e;
}

std::vector<size_t> allIndices(size_t n) {
    std::vector<size_t> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = i;
    return v;
}

// The checks every decimation must pass, for each value series.
void checkPreserved(const std::vector<double>& keys, const std::vector<std::vector<double>>& series,
                    const std::vector<size_t>& kept, const PixelWindow& w, bool ends = true) {
    QVERIFY(std::is_sorted(kept.begin(), kept.end()));
    QVERIFY(std::adjacent_find(kept.begin(), kept.end()) == kept.end());
    QVERIFY(kept.empty() || kept.back() < keys.size());
    for (const auto& values : series) {
        const auto full = envelopes(keys, values, allIndices(keys.size()), w);
        const auto shown = envelopes(keys, values, kept, w);
        for (size_t c = 0; c < full.size(); ++c) {
            QCOMPARE(shown[c].lo, full[c].lo);
            QCOMPARE(shown[c].hi, full[c].hi);
            if (ends) {
                QCOMPARE(shown[c].first, full[c].first);
                QCOMPARE(shown[c].last, full[c].last);
            }
            QCOMPARE(shown[c].nans > 0, full[c].nans > 0);
        }
    }
    // The neighbours just outside the window.
    const auto firstIn = std::lower_bound(keys.begin(), keys.end(), w.lo) - keys.begin();
    const auto endIn = std::upper_bound(keys.begin(), keys.end(), w.hi) - keys.begin();
    if (firstIn > 0) QVERIFY(std::binary_search(kept.begin(), kept.end(), size_t(firstIn - 1)));
    if (size_t(endIn) < keys.size()) QVERIFY(std::binary_search(kept.begin(), kept.end(), size_t(endIn)));
    // Nothing else beyond the window.
    for (size_t i : kept)
        QVERIFY((keys[i] >= w.lo && keys[i] <= w.hi) || i + 1 == size_t(firstIn) || i == size_t(endIn));
}

}  // namespace

class TstDecimate : public QObject {
    Q_OBJECT
private slots:
    void randomSeriesKeepEveryColumnsEnvelope_data() {
        QTest::addColumn<int>("points");
        QTest::addColumn<int>("columns");
        QTest::addColumn<double>("lo");
        QTest::addColumn<double>("hi");
        QTest::newRow("1M points, 700 columns, whole range") << 1'000'000 << 700 << 0.0 << 1.0;
        QTest::newRow("100k points, 300 columns, a window inside") << 100'000 << 300 << 0.3 << 0.4;
        QTest::newRow("window past the data") << 50'000 << 500 << 0.9 << 1.7;
        QTest::newRow("one column") << 10'000 << 1 << 0.0 << 1.0;
    }
    void randomSeriesKeepEveryColumnsEnvelope() {
        QFETCH(int, points);
        QFETCH(int, columns);
        QFETCH(double, lo);
        QFETCH(double, hi);
        std::mt19937_64 rng(7);
        std::uniform_real_distribution<double> u(0, 1);
        std::normal_distribution<double> g(0, 1);
        std::vector<double> keys(static_cast<size_t>(points)), a(keys.size()), b(keys.size());
        for (double& k : keys) k = u(rng);
        std::sort(keys.begin(), keys.end());
        for (size_t i = 0; i < keys.size(); ++i) {
            a[i] = g(rng);
            b[i] = i % 997 == 0 ? kNaN : std::sin(keys[i] * 40) + 0.1 * g(rng);
        }
        // Repeated keys (a vertical drop) and repeated values (ties for min and max).
        keys[1000] = keys[1001];
        a[2000] = a[2001] = 9.0;
        const PixelWindow w{lo, hi, columns};
        const auto kept = decimationIndices(keys, {a, b}, w);
        checkPreserved(keys, {a, b}, kept, w);
        // At most first, last, and min, max, NaN of each series per column, plus two outside.
        QVERIFY2(kept.size() <= size_t(columns) * 8 + 2, qPrintable(QString::number(kept.size())));
        // A bound that does not grow with the data: a tenth as many points keep as many.
        if (points >= 100'000) QVERIFY(kept.size() < size_t(points) / 10);
        // Markers and bars: the extremes alone, envelopes still exact.
        const auto extremes = decimationIndices(keys, {a, b}, w, {.keep_ends = false});
        checkPreserved(keys, {a, b}, extremes, w, false);
        QVERIFY(extremes.size() <= size_t(columns) * 6 + 2);
        QVERIFY(extremes.size() < kept.size());
    }

    void fewPointsInViewAreAllKept() {
        std::vector<double> keys, values;
        for (int i = 0; i < 10'000; ++i) {
            keys.push_back(i * 0.001);
            values.push_back(std::floor(i / 7.0));
        }
        const PixelWindow w{2.0, 2.5, 400};  // 501 points in view <= 2 per column
        const auto kept = decimationIndices(keys, {values}, w);
        std::vector<size_t> expected;
        for (size_t i = 1999; i <= 2501; ++i) expected.push_back(i);  // with one neighbour each side
        QCOMPARE(kept, expected);
        // Over 40 columns the same points are more than two per column: decimated, unless the
        // caller asks for more.
        QVERIFY(decimationIndices(keys, {values}, PixelWindow{2.0, 2.5, 40}).size() < expected.size() / 2);
        QCOMPARE(decimationIndices(keys, {values}, PixelWindow{2.0, 2.5, 40}, {.exact_up_to = 501}), expected);
    }

    void unusableWindowKeepsEverything() {
        const std::vector<double> keys{0, 1, 2, 3}, values{1, 2, 3, 4};
        for (const PixelWindow& w : {PixelWindow{0, 3, 0}, PixelWindow{3, 0, 10}, PixelWindow{kNaN, 3, 10},
                                     PixelWindow{0, std::numeric_limits<double>::infinity(), 10}})
            QCOMPARE(decimationIndices(keys, {values}, w, {.exact_up_to = 1}), allIndices(4));
        QVERIFY(decimationIndices({}, {std::span<const double>{}}, PixelWindow{0, 1, 10}).empty());
    }

    // The transfer curve as the view draws it: at the home window it is decimated (bounded by
    // the width, envelope exact); zoomed to a few dozen steps every point, so every step edge,
    // is drawn exactly.
    void transferCurveStepsStayExactWhenZoomed() {
        QuantSpec spec;  // QuantizeV2 qint8 SCALED
        spec.min_range = -3.0f;
        spec.max_range = 3.0f;
        const auto curve = sampleTransferCurve(spec, 20001);
        QVERIFY(curve.ok());
        QVERIFY(curve->steps_resolved);
        const PixelWindow home{curve->x_first, curve->x_last, 600};
        const auto kept = decimationIndices(curve->x, {curve->output}, home);
        checkPreserved(curve->x, {curve->output}, kept, home);
        QVERIFY(kept.size() <= 4 * 600 + 2);
        QVERIFY(kept.size() < curve->x.size() / 4);
        // Zoomed to ten steps every point in view is kept.
        const auto edges = stepEdges(*curve);
        const PixelWindow zoom{edges[100].x - 1e-9, edges[110].x + 1e-9, 600};  // ~500 points
        const auto close = decimationIndices(curve->x, {curve->output}, zoom);
        for (size_t i = 0; i < curve->x.size(); ++i)
            if (curve->x[i] >= zoom.lo && curve->x[i] <= zoom.hi)
                QVERIFY(std::binary_search(close.begin(), close.end(), i));
        // Drawn as left steps, the zoomed points reproduce every edge in view at its exact x.
        int edgesInView = 0;
        for (size_t k = 1; k < close.size(); ++k)
            if (curve->output[close[k]] != curve->output[close[k - 1]]) {
                const double x = curve->x[close[k]];
                QVERIFY(std::any_of(edges.begin(), edges.end(), [x](const StepEdge& e) { return e.x == x; }));
                ++edgesInView;
            }
        QCOMPARE(edgesInView, 11);
    }
};

QTEST_APPLESS_MAIN(TstDecimate)
#include "tst_decimate.moc"
