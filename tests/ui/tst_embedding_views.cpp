// Over 500 lines on purpose: the workbench views share their hand-made result builders.
// The embedding workbench's views fed hand-made result structs (no core computation): each
// draws exactly the numbers it is given (bar values, colour-map cells per layer, table
// cells), writes captions that count what matters (clipped mass, empty buckets, imbalance),
// exports CSV equal to its data, and its buttons emit what the lead wires up.
// QS_EMBEDDING_SCREENSHOTS=<dir> also renders every view into <dir> to look at.
#include <QtTest>

#include <QComboBox>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <cmath>
#include <qcustomplot.h>

#include "ui/embedding/views/embedding_text.h"
#include "ui/embedding/views/feature_stats_panel.h"
#include "ui/embedding/views/heat_map_view.h"
#include "ui/embedding/views/occupancy_view.h"
#include "ui/embedding/views/pipeline_view.h"
#include "ui/embedding/views/range_suggestions_panel.h"
#include "ui/embedding/views/sharding_view.h"
#include "ui/embedding/views/storage_export_panel.h"
#include "tests/ui/gui_test_env.h"
#include "tests/ui/table_text.h"

using namespace qs::ui;
namespace emb = qs::embedding;

namespace {

template <typename Data>
QVector<double> values(const Data& data) {
    QVector<double> out;
    for (auto it = data->constBegin(); it != data->constEnd(); ++it) out << it->value;
    return out;
}
template <typename Data>
QVector<double> keys(const Data& data) {
    QVector<double> out;
    for (auto it = data->constBegin(); it != data->constEnd(); ++it) out << it->key;
    return out;
}

QList<QByteArray> lines(const QByteArray& text) {
    QList<QByteArray> l = text.split('\n');
    if (!l.isEmpty() && l.back().isEmpty()) l.removeLast();
    return l;
}

QList<QByteArray> fileLines(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return lines(f.readAll());
}

// Shows the view and lays its plot out at its window size (pixel positions are final).
bool showLaidOut(PlotFrame& view) {
    view.show();
    if (!QTest::qWaitForWindowExposed(&view)) return false;
    view.plot()->replot();
    return true;
}

// Moves the mouse over the plot at plot coordinates (x, y) of the given axes.
void hover(PlotFrame& view, QCPAxis* x, QCPAxis* y, double kx, double ky) {
    const QPointF pos(x->coordToPixel(kx), y->coordToPixel(ky));
    QMouseEvent move(QEvent::MouseMove, pos, view.plot()->mapToGlobal(pos), Qt::NoButton, Qt::NoButton,
                     Qt::NoModifier);
    QApplication::sendEvent(view.plot(), &move);
}

// num_buckets 5 on [-1, 1]: quantum 0.5, centers -1 … 1. 3 values below lower (in bucket 0
// with 7 of its own), 5 above upper (in bucket 4 with 3 of its own), one NaN, bucket 2 empty.
emb::BucketOccupancy occupancy() {
    return {.config = {5, -1.0, 1.0}, .counts = {10, 4, 0, 6, 8}, .below = 3, .above = 5, .nan = 1, .total = 29,
            .empty_buckets = 1, .entropy_bits = 1.9, .centers = {-1.0f, -0.5f, 0.0f, 0.5f, 1.0f}};
}

std::vector<emb::RangeSuggestion> suggestions() {
    return {{"min-max", -1.5, 2.0, 0.02, 18.5, 0.0},
            {"symmetric max |x|", -2.0, 2.0, 0.03, 17.25, 0.0},
            {"percentile 99.9", -1.25, 1.5, 0.004, 25.0, 0.002},
            {"MSE-optimal", -1.0, 1.25, 0.0025, 27.125, 0.01}};
}

// A window of `rows` x `dim` starting at `firstRow`: float value f(r, c), its quantized
// value quantize(f), the error their difference.
template <typename Value, typename Quantize>
emb::TableWindow tableWindow(int64_t firstRow, int rows, int dim, Value f, Quantize quantize) {
    emb::TableWindow w;
    w.first_row = firstRow;
    w.rows = rows;
    w.dim = dim;
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < dim; ++c) {
            const float v = f(r, c), q = quantize(v);
            w.float_values.push_back(v);
            w.quantized.push_back(q);
            w.error.push_back(q - v);
        }
    return w;
}

// Rows 10..12, dim 4: float = r + c/4 - 1, quantized rounds to 0.5, error the difference.
emb::TableWindow window() {
    return tableWindow(
        10, 3, 4, [](int r, int c) { return static_cast<float>(r) + 0.25f * static_cast<float>(c) - 1.0f; },
        [](float f) { return std::floor(f * 2.0f + 0.5f) / 2.0f; });
}

qs::analysis::ErrorStats stats(double mse, double maxAbs, double bias, double sqnr, double cosine, int64_t count) {
    qs::analysis::ErrorStats s;
    s.count = count;
    s.mse = mse;
    s.rmse = std::sqrt(mse);
    s.max_abs_error = maxAbs;
    s.mean_error = bias;
    s.sqnr_db = sqnr;
    s.cosine = cosine;
    return s;
}

emb::FeatureSimulation simulation() {
    emb::FeatureSimulation s;
    s.stats = stats(0.0004, 0.05, -0.001, 31.25, 0.9995, 256);
    s.stats_after_combine = stats(0.0009, 0.08, 0.002, 27.5, 0.999, 256);
    s.gathered_rows = stats(0.0016, 0.1, 0.0, std::numeric_limits<double>::infinity(), 0.998, 1024);
    s.examples = 64;
    s.ids = 256;
    s.unique_ids = 200;
    s.empty_examples = 2;
    s.lookup_ms = 1.5;
    return s;
}

// 4 hosts, div, vocabulary 10 padded to 10, dim 8, 4-bit; host 0 hot (Zipf).
emb::ShardingReport sharding() {
    emb::ShardingReport r;
    r.strategy = qs::tpu::PartitionStrategy::Div;
    r.vocabulary_size = 10;
    r.padded_vocabulary = 10;
    r.dim = 8;
    r.quantized_bits = 4;
    const int64_t rows[] = {3, 3, 2, 2}, firsts[] = {0, 3, 6, 8}, lookups[] = {60, 20, 12, 8}, unique[] = {3, 3, 2, 2};
    for (int h = 0; h < 4; ++h) {
        emb::HostLoad l;
        l.rows = rows[h];
        l.first_id = firsts[h];
        l.bytes_float32 = rows[h] * 8 * 4;
        l.bytes_quantized = (rows[h] * 8 * 4 + 7) / 8;
        l.lookups = lookups[h];
        l.unique_lookups = unique[h];
        r.hosts.push_back(l);
    }
    r.traffic_imbalance = 60.0 / 25.0;
    r.ids_out_of_range = 3;
    return r;
}

emb::PipelineDemoResult pipeline() {
    emb::PipelineDemoResult d;
    for (int i = 0; i < 4; ++i) {
        emb::PipelineStep s;
        s.step = i;
        s.loss_sequential = 1.0 - 0.2 * i;
        s.loss_pipelined = 1.0 - 0.125 * i;
        s.activations = 16;
        s.stale_activations = i == 0 ? 0 : 4 + i;
        s.stale_rows = i == 0 ? 0 : 10 + i;
        s.max_abs_difference = 0.01 * i;
        s.mean_abs_difference = 0.004 * i;
        d.steps.push_back(s);
    }
    d.final_table_max_abs_difference = 0.03;
    return d;
}

emb::StorageQuantization storage() {
    return {.config = {256, -0.5, 0.5}, .code_bits = 8, .information_bits = 8, .rows = 1000, .dim = 64,
            .bytes_float32 = 256000, .bytes_codes = 64012, .bytes_packed = 64012,
            .saved_fraction = 1.0 - 64012.0 / 256000.0,
            .reconstruction = stats(1.25e-6, 0.00196, 0.0, 48.5, 0.99999, 64000)};
}

SizeHintWarningFilter sizeHintWarnings;

}  // namespace

class TstEmbeddingViews : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { sizeHintWarnings.install(); }
    void cleanupTestCase() { sizeHintWarnings.uninstall(); }

    void byteUnits();
    void occupancyBarsSplitTheClippedMass();
    void occupancyCaptionCsvReadoutAndLog();
    void occupancySuggestionLinesAndClear();
    void heatMapLayersAndColourRanges();
    void heatMapReadoutAndCsv();
    void heatMapRejectsAMalformedWindow();
    void featureStatsTableAndCsv();
    void rangeSuggestionsApplyAndCsv();
    void shardingBarsCaptionAndHotHost();
    void pipelineSeriesCaptionAndCsv();
    void storagePanelAndExportButton();
    void themesAndStale();
    void screenshots();
};

void TstEmbeddingViews::byteUnits() {
    using qs::ui::text::bytesText;
    QCOMPARE(bytesText(512), QStringLiteral("512 B"));
    QCOMPARE(bytesText(1536), QStringLiteral("1.5 KiB"));
    QCOMPARE(bytesText(3.25 * 1024 * 1024), QStringLiteral("3.25 MiB"));
    QCOMPARE(qs::ui::text::byteUnitFor(1023).name, QStringLiteral("B"));
    QCOMPARE(qs::ui::text::byteUnitFor(5.0 * (1 << 30)).bytes, double(1 << 30));
}

void TstEmbeddingViews::occupancyBarsSplitTheClippedMass() {
    OccupancyView view;
    view.setOccupancy(occupancy());
    QCOMPARE(keys(view.inRangeBars()->data()), (QVector<double>{-1, -0.5, 0, 0.5, 1}));
    QCOMPARE(values(view.inRangeBars()->data()), (QVector<double>{7, 4, 0, 6, 3}));
    QCOMPARE(values(view.clippedBars()->data()), (QVector<double>{3, 0, 0, 0, 5}));
    QCOMPARE(view.clippedBars()->barBelow(), view.inRangeBars());  // stacked: bar tops = counts
    QCOMPARE(view.inRangeBars()->width(), 0.45);                  // 0.9 quantum
    QVERIFY(view.titleElement()->text().contains(
        QStringLiteral("QuantizationConfig(num_buckets=5, lower=-1.0, upper=1.0)")));
    const PlotPalette& palette = plotPalette(Theme::Light);
    QCOMPARE(view.clippedBars()->brush().color(), opaqueTint(palette.clipped, 210, palette.axisRectBackground));
    QVERIFY(view.clippedBars()->brush().color().rgb() != view.inRangeBars()->brush().color().rgb());
}

void TstEmbeddingViews::occupancyCaptionCsvReadoutAndLog() {
    OccupancyView view;
    view.resize(700, 450);
    view.setOccupancy(occupancy());
    const QString caption = view.captionText()->text();
    QVERIFY2(caption.contains(QStringLiteral("clipped below: 3 (10.3 %)")), qPrintable(caption));
    QVERIFY2(caption.contains(QStringLiteral("above: 5 (17.2 %)")), qPrintable(caption));
    QVERIFY2(caption.contains(QStringLiteral("NaN: 1")), qPrintable(caption));
    QVERIFY2(caption.contains(QStringLiteral("empty buckets: 1 of 5")), qPrintable(caption));
    QVERIFY2(caption.contains(QStringLiteral("entropy 1.9 bits of log2(5) = 2.322 bits")), qPrintable(caption));
    QVERIFY(view.captionText()->visible());

    const QList<QByteArray> csv = lines(csvBytes(view.csvTable()));
    QCOMPARE(csv.size(), 6);
    QCOMPARE(csv[0], QByteArray("bucket,center,count,in_range,clipped"));
    QCOMPARE(csv[1], QByteArray("0,-1,10,7,3"));
    QCOMPARE(csv[3], QByteArray("2,0,0,0,0"));
    QCOMPARE(csv[5], QByteArray("4,1,8,3,5"));

    QVERIFY(showLaidOut(view));
    hover(view, view.plot()->xAxis, view.plot()->yAxis, 0.55, 2);
    QVERIFY(view.readoutText()->visible());
    QVERIFY2(view.readoutText()->text().contains(QStringLiteral("bucket q = 3")), qPrintable(view.readoutText()->text()));
    QVERIFY(view.readoutText()->text().contains(QStringLiteral("count 6")));
    hover(view, view.plot()->xAxis, view.plot()->yAxis, -0.98, 2);
    QVERIFY(view.readoutText()->text().contains(QStringLiteral("incl. 3 clipped below lower")));

    QVERIFY(view.logScaleAction());
    view.setLogScale(true);
    QCOMPARE(view.plot()->yAxis->scaleType(), QCPAxis::stLogarithmic);
    QVERIFY(view.plot()->yAxis->range().lower > 0);
    view.setLogScale(false);
    QCOMPARE(view.plot()->yAxis->scaleType(), QCPAxis::stLinear);
    QCOMPARE(view.plot()->yAxis->range().lower, 0.0);
}

void TstEmbeddingViews::occupancySuggestionLinesAndClear() {
    OccupancyView view;
    view.setOccupancy(occupancy());
    view.setSuggestions(suggestions());  // after the occupancy: the home view widens
    QCOMPARE(view.suggestionLines().size(), 8);
    QCOMPARE(view.suggestionLines()[0]->point1->key(), -1.5);  // min-max lower
    QCOMPARE(view.suggestionLines()[1]->point1->key(), 2.0);   // min-max upper
    QCOMPARE(view.suggestionLines()[7]->point1->key(), 1.25);  // MSE-optimal upper
    QVERIFY(view.plot()->xAxis->range().upper > 2.0);        // home view shows every line
    QVERIFY(view.plot()->xAxis->range().lower < -2.0);
    view.setSuggestions({});
    QCOMPARE(view.suggestionLines().size(), 0);
    view.clear();
    QVERIFY(!view.occupancy());
    QVERIFY(view.inRangeBars()->data()->isEmpty());
    QVERIFY(view.messageText()->visible());
    QVERIFY(view.messageText()->text().contains(QStringLiteral("no QuantizationConfig")));
    QVERIFY(!view.captionText()->visible());
    QCOMPARE(lines(csvBytes(view.csvTable())).size(), 1);
}

void TstEmbeddingViews::heatMapLayersAndColourRanges() {
    HeatMapView view;
    const emb::TableWindow w = window();
    view.setWindow(w);
    QComboBox* selector = view.findChild<QComboBox*>(QStringLiteral("heatMapLayer"));
    QVERIFY(selector);
    QCOMPARE(selector->count(), 3);
    QCOMPARE(view.layer(), HeatMapView::Layer::Float);
    QCOMPARE(view.colorMap()->data()->keySize(), 4);
    QCOMPARE(view.colorMap()->data()->valueSize(), 3);
    // Row 11, col 1: float 0.25, quantized 0.5 (0.25 rounds half up), error 0.25.
    QCOMPARE(view.cellValue(11, 1), 0.25);
    QCOMPARE(view.colorMap()->data()->cell(1, 1), 0.25);
    QCOMPARE(view.cellValue(12, 3), 1.75);
    QVERIFY(std::isnan(view.cellValue(9, 0)));   // above the window
    QVERIFY(std::isnan(view.cellValue(10, 4)));  // past dim
    // Float and quantized share the range over both: [-1, 2].
    QCOMPARE(view.colorMap()->dataRange().lower, -1.0);
    QCOMPARE(view.colorMap()->dataRange().upper, 2.0);
    QCOMPARE(view.colorScale()->axis()->label(), QStringLiteral("value (float32)"));

    selector->setCurrentIndex(1);
    QCOMPARE(view.layer(), HeatMapView::Layer::Quantized);
    QCOMPARE(view.cellValue(11, 1), 0.5);
    QCOMPARE(view.cellValue(12, 3), 2.0);
    QCOMPARE(view.colorMap()->dataRange().upper, 2.0);
    QCOMPARE(view.colorScale()->axis()->label(), QStringLiteral("quantized value (float32)"));

    view.setLayer(HeatMapView::Layer::Error);
    QCOMPARE(selector->currentIndex(), 2);
    QCOMPARE(view.cellValue(11, 1), 0.25);
    QCOMPARE(view.cellValue(10, 1), 0.25);   // -0.75 -> -0.5
    QCOMPARE(view.cellValue(10, 3), 0.25);   // -0.25 -> 0
    QCOMPARE(view.cellValue(10, 2), 0.0);
    // Symmetric around 0 and diverging: white in the middle, different ends.
    QCOMPARE(view.colorMap()->dataRange().lower, -0.25);
    QCOMPARE(view.colorMap()->dataRange().upper, 0.25);
    QCPColorGradient g = view.colorMap()->gradient();
    const QColor mid = QColor::fromRgb(g.color(0.0, QCPRange(-1, 1)));
    QVERIFY(mid.red() > 240 && mid.green() > 240 && mid.blue() > 240);
    QVERIFY(QColor::fromRgb(g.color(-1, QCPRange(-1, 1))).blue() > QColor::fromRgb(g.color(1, QCPRange(-1, 1))).blue());
    QVERIFY(view.colorScale()->axis()->label().contains(QStringLiteral("quantized − float")));
}

void TstEmbeddingViews::heatMapReadoutAndCsv() {
    HeatMapView view;
    view.resize(600, 400);
    view.setWindow(window());
    QVERIFY(showLaidOut(view));
    hover(view, view.plot()->xAxis, view.plot()->yAxis, 1.1, 11.2);
    QCOMPARE(view.readoutText()->text(), QStringLiteral("row 11, col 1: float 0.25, quantized 0.5, error 0.25"));
    const QList<QByteArray> csv = lines(csvBytes(view.csvTable()));
    QCOMPARE(csv.size(), 13);
    QCOMPARE(csv[0], QByteArray("row,col,float,quantized,error"));
    QCOMPARE(csv[1], QByteArray("10,0,-1,-1,0"));
    QCOMPARE(csv[6], QByteArray("11,1,0.25,0.5,0.25"));
}

void TstEmbeddingViews::heatMapRejectsAMalformedWindow() {
    HeatMapView view;
    view.setWindow(window());
    emb::TableWindow bad = window();
    bad.error.pop_back();  // sizes disagree with rows x dim: never index past it
    view.setWindow(bad);
    QVERIFY(!view.window());
    QVERIFY(view.messageText()->visible());
    QVERIFY(!view.colorMap()->visible());
    QVERIFY(std::isnan(view.cellValue(10, 0)));
}

void TstEmbeddingViews::featureStatsTableAndCsv() {
    FeatureStatsPanel panel;
    QCOMPARE(panel.valueText(QStringLiteral("mse")), QStringLiteral("—"));
    panel.setSimulation(simulation(), QStringLiteral("watched"));
    QVERIFY(panel.titleLabel()->text().contains(QStringLiteral("watched")));
    QCOMPARE(panel.table()->columnCount(), 4);
    QCOMPARE(panel.valueText(QStringLiteral("mse")), QStringLiteral("0.0004"));
    QCOMPARE(panel.valueText(QStringLiteral("mse"), FeatureStatsPanel::AfterCombineColumn), QStringLiteral("0.0009"));
    QCOMPARE(panel.valueText(QStringLiteral("mse"), FeatureStatsPanel::GatheredRowsColumn), QStringLiteral("0.0016"));
    QCOMPARE(panel.valueText(QStringLiteral("rmse")), QStringLiteral("0.02"));
    QCOMPARE(panel.valueText(QStringLiteral("max_abs_error"), FeatureStatsPanel::AfterCombineColumn), QStringLiteral("0.08"));
    QCOMPARE(panel.valueText(QStringLiteral("bias")), QStringLiteral("-0.001"));
    QCOMPARE(panel.valueText(QStringLiteral("sqnr_db")), QStringLiteral("31.25 dB"));
    QCOMPARE(panel.valueText(QStringLiteral("sqnr_db"), FeatureStatsPanel::GatheredRowsColumn), QStringLiteral("+∞"));
    QCOMPARE(panel.valueText(QStringLiteral("cosine")), QStringLiteral("0.9995"));
    QCOMPARE(panel.valueText(QStringLiteral("count"), FeatureStatsPanel::GatheredRowsColumn), QStringLiteral("1,024"));
    QCOMPARE(panel.valueText(QStringLiteral("examples")), QStringLiteral("64"));
    QCOMPARE(panel.valueText(QStringLiteral("unique_ids")), QStringLiteral("200"));
    QCOMPARE(panel.valueText(QStringLiteral("empty_examples")), QStringLiteral("2"));
    QCOMPARE(panel.valueText(QStringLiteral("lookup_ms")), QStringLiteral("1.5 ms"));
    QCOMPARE(panel.table()->columnSpan(panel.rowOf(QStringLiteral("ids")), 1), 3);
    QCOMPARE(panel.rowOf(QStringLiteral("nonsense")), -1);

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("feature.csv"));
    QVERIFY(panel.exportCsv(path));
    const QList<QByteArray> csv = fileLines(path);
    QCOMPARE(csv.size(), 13);  // header, 7 statistics, 5 batch rows
    QCOMPARE(csv[0], QByteArray("quantity,tpu_order,after_combine,gathered_rows"));
    QCOMPARE(csv[2], QByteArray("mse,4e-04,9e-04,0.0016"));  // csvNumber: the shortest text
    QCOMPARE(csv[6], QByteArray("sqnr_db,31.25,27.5,inf"));
    QCOMPARE(csv[9], QByteArray("ids,256,,"));
    QCOMPARE(csv[12], QByteArray("lookup_ms,1.5,,"));

    panel.setStale(true, QStringLiteral("ids out of range"));
    QVERIFY(panel.staleLabel()->isVisibleTo(&panel));
    QVERIFY(panel.staleLabel()->text().contains(QStringLiteral("ids out of range")));
    QVERIFY(!panel.table()->isEnabled());
    panel.clear();
    QVERIFY(!panel.isStale());
    QCOMPARE(panel.valueText(QStringLiteral("mse")), QStringLiteral("—"));
    QVERIFY(panel.csvTable().rows.empty());
}

void TstEmbeddingViews::rangeSuggestionsApplyAndCsv() {
    RangeSuggestionsPanel panel;
    panel.setSuggestions(suggestions(), 256);
    QVERIFY(panel.titleLabel()->text().contains(QStringLiteral("256")));
    QCOMPARE(panel.table()->rowCount(), 4);
    QCOMPARE(panel.cellText(0, RangeSuggestionsPanel::MethodColumn), QStringLiteral("min-max"));
    QCOMPARE(panel.cellText(0, RangeSuggestionsPanel::LowerColumn), QStringLiteral("-1.5"));
    QCOMPARE(panel.cellText(0, RangeSuggestionsPanel::UpperColumn), QStringLiteral("2.0"));  // Python's repr
    QCOMPARE(panel.cellText(2, RangeSuggestionsPanel::SqnrColumn), QStringLiteral("25.00 dB"));
    QCOMPARE(panel.cellText(2, RangeSuggestionsPanel::ClippedColumn), QStringLiteral("0.2 %"));
    QCOMPARE(panel.bestRow(), 3);
    QVERIFY(panel.table()->item(3, RangeSuggestionsPanel::MseColumn)->font().bold());
    QVERIFY(!panel.table()->item(0, RangeSuggestionsPanel::MseColumn)->font().bold());

    QSignalSpy spy(&panel, &RangeSuggestionsPanel::applyRequested);
    QVERIFY(panel.applyButton(2));
    QVERIFY(!panel.applyButton(4));
    QTest::mouseClick(panel.applyButton(2), Qt::LeftButton);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy[0][0].toDouble(), -1.25);
    QCOMPARE(spy[0][1].toDouble(), 1.5);
    panel.applyButton(0)->click();
    QCOMPARE(spy.count(), 2);
    QCOMPARE(spy[1][1].toDouble(), 2.0);

    const QList<QByteArray> csv = lines(csvBytes(panel.csvTable()));
    QCOMPARE(csv.size(), 5);
    QCOMPARE(csv[0], QByteArray("method,lower,upper,mse,sqnr_db,clipped_fraction"));
    QCOMPARE(csv[2], QByteArray("symmetric max |x|,-2,2,0.03,17.25,0"));
    QCOMPARE(csv[4], QByteArray("MSE-optimal,-1,1.25,0.0025,27.125,0.01"));

    // A float32 bound in its fewest digits, the exact double in the tooltip and in Apply.
    const double single = static_cast<double>(-0.49993807f);
    panel.setSuggestions({{"min-max", single, 0.5, 0.01, 20, 0}});
    QCOMPARE(panel.cellText(0, RangeSuggestionsPanel::LowerColumn), QStringLiteral("-0.49993807"));
    QCOMPARE(panel.cellText(0, RangeSuggestionsPanel::UpperColumn), QStringLiteral("0.5"));
    QVERIFY(panel.table()->item(0, RangeSuggestionsPanel::LowerColumn)->toolTip().contains(QStringLiteral("-0.49993807077407837")));
    panel.applyButton(0)->click();
    QCOMPARE(spy.last()[0].toDouble(), single);
    QCOMPARE(RangeSuggestionsPanel::boundText(0.1), QStringLiteral("0.1"));  // a double: Python's repr
    QCOMPARE(RangeSuggestionsPanel::boundText(-3), QStringLiteral("-3.0"));

    // New suggestions replace the rows and their buttons.
    panel.setSuggestions({suggestions()[1]});
    QCOMPARE(panel.table()->rowCount(), 1);
    QCOMPARE(panel.bestRow(), 0);
    panel.applyButton(0)->click();
    QCOMPARE(spy.count(), 4);
    QCOMPARE(spy[3][0].toDouble(), -2.0);
    panel.setSuggestions({});
    QCOMPARE(panel.table()->rowCount(), 0);
    QCOMPARE(panel.bestRow(), -1);
}

void TstEmbeddingViews::shardingBarsCaptionAndHotHost() {
    ShardingView view;
    view.resize(700, 600);
    view.setReport(sharding());
    QCOMPARE(keys(view.rowsBars()->data()), (QVector<double>{0, 1, 2, 3}));
    QCOMPARE(values(view.rowsBars()->data()), (QVector<double>{3, 3, 2, 2}));
    QCOMPARE(view.byteUnit(), 1.0);  // 96 bytes at most: plain bytes
    QCOMPARE(values(view.float32Bars()->data()), (QVector<double>{96, 96, 64, 64}));
    QCOMPARE(values(view.quantizedBars()->data()), (QVector<double>{12, 12, 8, 8}));
    QCOMPARE(values(view.lookupBars()->data()), (QVector<double>{60, 20, 12, 8}));
    QCOMPARE(values(view.uniqueLookupBars()->data()), (QVector<double>{3, 3, 2, 2}));
    QCOMPARE(view.quantizedBars()->name(), QStringLiteral("4-bit codes"));
    QCOMPARE(view.hotHost(), 0);
    const QString title = view.titleElement()->text();
    QVERIFY2(title.contains(QStringLiteral("div")) && title.contains(QStringLiteral("4 hosts")), qPrintable(title));
    const QString caption = view.captionElement()->text();
    QVERIFY2(caption.contains(QStringLiteral("max / mean lookups) = 2.4")), qPrintable(caption));
    QVERIFY2(caption.contains(QStringLiteral("hot host 0 serves 60 of 100 lookups")), qPrintable(caption));
    QVERIFY2(caption.contains(QStringLiteral("3 ids out of range")), qPrintable(caption));

    // Small table padded to the host count; bytes in KiB once large.
    emb::ShardingReport padded = sharding();
    padded.strategy = qs::tpu::PartitionStrategy::Mod;
    padded.vocabulary_size = 3;
    padded.padded_vocabulary = 4;
    padded.hosts[0].bytes_float32 = 4096;
    padded.hosts[2].lookups = 70;
    view.setReport(padded);
    QVERIFY(view.titleElement()->text().contains(QStringLiteral("padded to 4")));
    QVERIFY(view.titleElement()->text().contains(QStringLiteral("mod")));
    QCOMPARE(view.byteUnit(), 1024.0);
    QCOMPARE(values(view.float32Bars()->data())[0], 4.0);
    QVERIFY(view.bytesRect()->axis(QCPAxis::atLeft)->label().contains(QStringLiteral("KiB")));
    QCOMPARE(view.hotHost(), 2);

    const QList<QByteArray> csv = lines(csvBytes(view.csvTable()));
    QCOMPARE(csv.size(), 5);
    QCOMPARE(csv[0], QByteArray("host,first_id,rows,bytes_float32,bytes_quantized,lookups,unique_lookups"));
    QCOMPARE(csv[1], QByteArray("0,0,3,4096,12,60,3"));
    QCOMPARE(csv[3], QByteArray("2,6,2,64,8,70,2"));

    QVERIFY(showLaidOut(view));
    hover(view, view.trafficRect()->axis(QCPAxis::atBottom), view.trafficRect()->axis(QCPAxis::atLeft), 2.1, 10);
    QVERIFY2(view.readoutText()->text().contains(QStringLiteral("host 2  (hot)")), qPrintable(view.readoutText()->text()));
    QVERIFY(view.readoutText()->text().contains(QStringLiteral("lookups 70 (2 distinct)")));

    emb::ShardingReport idle = sharding();
    for (auto& h : idle.hosts) h.lookups = h.unique_lookups = 0;
    idle.traffic_imbalance = 0;
    idle.ids_out_of_range = 0;
    QVERIFY(ShardingView::captionFor(idle).contains(QStringLiteral("no lookups")));
}

void TstEmbeddingViews::pipelineSeriesCaptionAndCsv() {
    PipelineView view;
    QVERIFY(view.messageText()->visible());
    view.setDemo(pipeline());
    QVERIFY(!view.messageText()->visible());
    QCOMPARE(values(view.sequentialLoss()->data()), (QVector<double>{1.0, 0.8, 0.6, 1.0 - 0.2 * 3}));
    QCOMPARE(values(view.pipelinedLoss()->data())[2], 0.75);
    QCOMPARE(values(view.staleBars()->data()), (QVector<double>{0, 5, 6, 7}));
    QCOMPARE(view.staleBars()->valueAxis(), view.plot()->yAxis2);  // right axis
    QVERIFY(view.plot()->yAxis2->visible());
    QCOMPARE(values(view.maxDifference()->data())[3], 0.03);
    QCOMPARE(values(view.meanDifference()->data())[1], 0.004);
    QVERIFY(view.titleElement()->text().contains(QStringLiteral("18 of 64 activations read stale rows")));
    QVERIFY(view.captionElement()->text().contains(QStringLiteral("do not see step N's gradient updates")));
    const QList<QByteArray> csv = lines(csvBytes(view.csvTable()));
    QCOMPARE(csv.size(), 5);
    QCOMPARE(csv[0], QByteArray("step,loss_sequential,loss_pipelined,activations,stale_activations,stale_rows,"
                                "mean_abs_difference,max_abs_difference"));
    QCOMPARE(csv[2], QByteArray("1,0.8,0.875,16,5,11,0.004,0.01"));
    view.clear();
    QVERIFY(view.sequentialLoss()->data()->isEmpty());
    QVERIFY(view.messageText()->visible());
}

void TstEmbeddingViews::storagePanelAndExportButton() {
    StorageExportPanel panel;
    QVERIFY(!panel.exportButton()->isEnabled());
    panel.setStorage(storage());
    QVERIFY(panel.exportButton()->isEnabled());
    QVERIFY(panel.valueText(QStringLiteral("dtype")).startsWith(QStringLiteral("uint8")));
    QCOMPARE(panel.valueText(QStringLiteral("config")),
             QStringLiteral("QuantizationConfig(num_buckets=256, lower=-0.5, upper=0.5)"));
    QCOMPARE(panel.valueText(QStringLiteral("shape")), QStringLiteral("1,000 × 64"));
    QCOMPARE(panel.valueText(QStringLiteral("bytes_float32")), QStringLiteral("250 KiB"));
    QCOMPARE(panel.valueText(QStringLiteral("bytes_codes")), QStringLiteral("62.5 KiB   (25 % of float32)"));
    QCOMPARE(panel.valueText(QStringLiteral("saved")), QStringLiteral("75 %"));
    QCOMPARE(panel.valueText(QStringLiteral("mse")), QStringLiteral("1.25e-06"));
    QCOMPARE(panel.valueText(QStringLiteral("max_abs_error")), QStringLiteral("0.00196"));
    QCOMPARE(panel.valueText(QStringLiteral("sqnr_db")), QStringLiteral("48.50 dB"));
    QVERIFY(panel.titleLabel()->text().contains(QStringLiteral("uint8")));
    QCOMPARE(StorageExportPanel::dtypeName(16), QStringLiteral("uint16"));

    QSignalSpy spy(&panel, &StorageExportPanel::exportRequested);
    QTest::mouseClick(panel.exportButton(), Qt::LeftButton);
    QCOMPARE(spy.count(), 1);

    const QList<QByteArray> csv = lines(csvBytes(panel.csvTable()));
    QCOMPARE(csv[0], QByteArray("key,value"));
    QVERIFY(csv.contains(QByteArray("dtype,uint8")));
    QVERIFY(csv.contains(QByteArray("bytes_codes,64012")));
    QVERIFY(csv.contains(QByteArray("lower,-0.5")));
    QVERIFY(csv.contains(QByteArray("mse,1.25e-06")));

    panel.clear();
    QVERIFY(!panel.exportButton()->isEnabled());
    QTest::mouseClick(panel.exportButton(), Qt::LeftButton);
    QCOMPARE(spy.count(), 1);  // disabled: no request
    QVERIFY(panel.csvTable().rows.empty());
}

void TstEmbeddingViews::themesAndStale() {
    OccupancyView occ;
    occ.setOccupancy(occupancy());
    occ.setTheme(Theme::Dark);
    QCOMPARE(occ.inRangeBars()->pen().color(), plotPalette(Theme::Dark).curve);
    occ.setStale(true, QStringLiteral("lower must be < upper"));
    QVERIFY(occ.staleText()->visible());
    QVERIFY(occ.inRangeBars()->pen().color() != plotPalette(Theme::Dark).curve);  // greyed
    occ.setOccupancy(occupancy());
    QVERIFY(!occ.isStale());

    HeatMapView map;
    map.setWindow(window());
    map.setTheme(Theme::Dark);
    QCOMPARE(map.colorScale()->axis()->tickLabelColor(), plotPalette(Theme::Dark).text);
    map.setStale(true);
    QCPColorGradient staleGradient = map.colorMap()->gradient();
    const QColor grey = QColor::fromRgb(staleGradient.color(0.3, QCPRange(0, 1)));
    QCOMPARE(grey.red(), grey.green());  // greyscale while stale
    QCOMPARE(grey.green(), grey.blue());

    ShardingView sh;
    sh.setReport(sharding());
    sh.setTheme(Theme::Dark);
    QCOMPARE(sh.lookupBars()->pen().color(), plotPalette(Theme::Dark).error);
    QCOMPARE(sh.bytesRect()->backgroundBrush().color(), plotPalette(Theme::Dark).axisRectBackground);

    RangeSuggestionsPanel panel;
    panel.setTheme(Theme::Dark);
    panel.setStale(true);
    QVERIFY(panel.staleLabel()->styleSheet().contains(plotPalette(Theme::Dark).range.name()));
}

// With QS_EMBEDDING_SCREENSHOTS=<dir>: every view rendered to <dir>/<name>.png.
void TstEmbeddingViews::screenshots() {
    const QString dir = qEnvironmentVariable("QS_EMBEDDING_SCREENSHOTS");
    if (dir.isEmpty()) QSKIP("set QS_EMBEDDING_SCREENSHOTS=<dir> to render the views");
    QDir().mkpath(dir);
    // A larger occupancy: 64 buckets of a normal-ish table, clipped on both sides.
    emb::BucketOccupancy o;
    o.config = {64, -0.25, 0.25};
    for (int q = 0; q < 64; ++q) {
        const double x = -0.25 + q * 0.5 / 63;
        o.counts.push_back(static_cast<int64_t>(5000 * std::exp(-x * x / (2 * 0.01))));
        o.centers.push_back(static_cast<float>(x));
    }
    o.below = 900;
    o.above = 700;
    o.counts.front() += o.below;
    o.counts.back() += o.above;
    for (int64_t c : o.counts) o.total += c;
    o.entropy_bits = 5.4;
    OccupancyView occ;
    occ.setOccupancy(o);
    occ.setSuggestions({{"min-max", -0.4, 0.42, 0, 0, 0}, {"percentile 99.9", -0.3, 0.31, 0, 0, 0}});
    QVERIFY(occ.exporter().exportImage(dir + QStringLiteral("/occupancy.png"), 900, 520));

    const emb::TableWindow w = tableWindow(
        100, 32, 48,
        [](int r, int c) {
            return 0.2f * std::sin(0.3f * static_cast<float>(r) + 0.17f * static_cast<float>(c * c % 37));
        },
        [](float f) {
            const float quantum = 0.5f / 15.0f;
            return std::floor((std::clamp(f, -0.25f, 0.25f) + 0.25f) / quantum + 0.5f) * quantum - 0.25f;
        });
    HeatMapView map;
    map.resize(900, 520);
    map.setWindow(w);
    QVERIFY(map.exporter().exportImage(dir + QStringLiteral("/heatmap_float.png"), 900, 520));
    map.setLayer(HeatMapView::Layer::Error);
    QVERIFY(map.grab().save(dir + QStringLiteral("/heatmap_error_widget.png")));

    emb::ShardingReport sh = sharding();
    ShardingView shv;
    shv.setReport(sh);
    QVERIFY(shv.exporter().exportImage(dir + QStringLiteral("/sharding.png"), 900, 650));
    PipelineView pv;
    pv.setDemo(pipeline());
    QVERIFY(pv.exporter().exportImage(dir + QStringLiteral("/pipeline.png"), 900, 600));
    pv.setTheme(Theme::Dark);
    QVERIFY(pv.exporter().exportImage(dir + QStringLiteral("/pipeline_dark.png"), 900, 600));

    FeatureStatsPanel fs;
    fs.resize(640, 420);
    fs.setSimulation(simulation(), QStringLiteral("watched"));
    QVERIFY(fs.grab().save(dir + QStringLiteral("/feature_stats.png")));
    RangeSuggestionsPanel rs;
    rs.resize(640, 220);
    rs.setSuggestions(suggestions(), 256);
    QVERIFY(rs.grab().save(dir + QStringLiteral("/suggestions.png")));
    StorageExportPanel se;
    se.resize(520, 420);
    se.setStorage(storage());
    QVERIFY(se.grab().save(dir + QStringLiteral("/storage.png")));
}

QTEST_MAIN(TstEmbeddingViews)
#include "tst_embedding_views.moc"
