// One truth in every view (issue 24): the real MainWindow, driven over a small matrix of
// configurations — every op; per tensor with a given range and with the data's, per channel
// with a given range and with each channel's own; 4, 8 and 16 bits; generated channel data
// and a .npy holding NaN and ±inf — and every view that shows the same quantity shows the
// same value: the Statistics dock, the data and error histograms, the Bit sweep at the
// current bit width, the Clipping sweep's and Calibration's "current" figures, the Compare
// tab, the statistics CSV, and quantscope-cli export's CSV for the same session. SQNR, MSE
// and clipped counts compare exactly (one computation, computeExplorer, behind them all).
#include <QtTest>

#include <QApplication>
#include <QFile>
#include <QLabel>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <cmath>
#include <memory>
#include <random>
#include <qcustomplot.h>

#include "core/analysis/view_data.h"
#include "session/explorer/compute_service.h"
#include "session/explorer/data_service.h"
#include "session/explorer/explorer_model.h"
#include "session/explorer/session.h"
#include "tests/spec_builders.h"
#include "tests/ui/explorer_window_slot.h"
#include "ui/analysis/analysis_tabs.h"
#include "ui/analysis/bit_sweep_view.h"
#include "ui/analysis/calibration_panel.h"
#include "ui/analysis/clip_sweep_view.h"
#include "ui/analysis/comparison_view.h"
#include "ui/main_window.h"
#include "ui/views/error_histogram_view.h"
#include "ui/views/histogram_view.h"
#include "ui/views/stats_panel.h"

using namespace qs::ui;

namespace {

constexpr int kRows = 500, kChannels = 8;  // the data is [kRows, kChannels], channels along axis 1

struct Case {
    QString name;
    qs::QuantSpec spec;
};

qs::QuantSpec qdq(qs::QuantOp op, int bits, bool given, int64_t axis) {
    return qs::testing::qdqSpec(op, bits, given, axis);
}

qs::QuantSpec quantizeV2(qs::QType t, int64_t axis, qs::RangeSource source) {
    return qs::testing::quantizeV2Spec(t, qs::QuantizeMode::MinCombined, axis, source);
}

// Every op, per tensor / per channel, given / own ranges; 4 and 16 bits where the op has them.
std::vector<Case> cases() {
    using qs::QuantOp;
    std::vector<Case> c;
    for (qs::QType t : {qs::QType::QInt8, qs::QType::QInt16}) {
        const QString b = QString::fromLatin1(qs::qtypeInfo(t).name.data());
        c.push_back({QStringLiteral("QuantizeV2 %1 per tensor, given").arg(b), quantizeV2(t, -1, qs::RangeSource::Given)});
        c.push_back({QStringLiteral("QuantizeV2 %1 per channel, given").arg(b), quantizeV2(t, 1, qs::RangeSource::Given)});
        c.push_back({QStringLiteral("QuantizeV2 %1 per channel, own ranges").arg(b), quantizeV2(t, 1, qs::RangeSource::FromData)});
    }
    // The review's MobileNet kernel: SCALED, each channel's own min/max.
    qs::QuantSpec scaled = quantizeV2(qs::QType::QInt8, 1, qs::RangeSource::FromData);
    scaled.mode = qs::QuantizeMode::Scaled;
    c.push_back({QStringLiteral("QuantizeV2 qint8 SCALED per channel, own ranges"), scaled});
    for (QuantOp op : {QuantOp::QuantizeAndDequantizeV2, QuantOp::QuantizeAndDequantizeV3, QuantOp::QuantizeAndDequantizeV4})
        for (int bits : op == QuantOp::QuantizeAndDequantizeV2 ? std::vector<int>{4, 8, 16} : std::vector<int>{8}) {
            const QString name = QString::fromLatin1(qs::quantOpKey(op).data());
            c.push_back({QStringLiteral("%1 %2 bits per tensor, given").arg(name).arg(bits), qdq(op, bits, true, -1)});
            c.push_back({QStringLiteral("%1 %2 bits per tensor, data's range").arg(name).arg(bits), qdq(op, bits, false, -1)});
            c.push_back({QStringLiteral("%1 %2 bits per channel, own ranges").arg(name).arg(bits), qdq(op, bits, false, 1)});
        }
    for (int bits : {4, 8, 16}) {
        qs::QuantSpec tpu;
        tpu.op = QuantOp::TpuSimulatedQuantization;
        tpu.num_buckets = int64_t{1} << bits;
        c.push_back({QStringLiteral("TPU %1 buckets").arg(tpu.num_buckets), tpu});
    }
    return c;
}

// [kRows, kChannels], channel c normal with σ = 0.2 + 0.3·c (the given ±1 clips the wide ones).
std::vector<float> channelData(bool nanAndInf) {
    std::mt19937 rng(5);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    std::vector<float> v(size_t(kRows) * kChannels);
    for (int r = 0; r < kRows; ++r)
        for (int c = 0; c < kChannels; ++c) v[size_t(r) * kChannels + c] = (0.2f + 0.3f * c) * normal(rng);
    if (nanAndInf) {
        v[3] = std::numeric_limits<float>::quiet_NaN();
        v[100] = std::numeric_limits<float>::infinity();
        v[205] = -std::numeric_limits<float>::infinity();
        v[1001] = std::numeric_limits<float>::quiet_NaN();
    }
    return v;
}

bool writeNpy(const QString& path, const std::vector<float>& values) {
    QByteArray header = QByteArrayLiteral("{'descr': '<f4', 'fortran_order': False, 'shape': (") +
                        QByteArray::number(kRows) + ", " + QByteArray::number(kChannels) + "), }";
    while ((10 + header.size() + 1) % 64 != 0) header += ' ';
    header += '\n';
    QByteArray bytes("\x93NUMPY\x01\x00", 8);
    const quint16 len = quint16(header.size());
    bytes += char(len & 0xFF);
    bytes += char(len >> 8);
    bytes += header;
    bytes += QByteArray(reinterpret_cast<const char*>(values.data()), qsizetype(values.size() * sizeof(float)));
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

// Makes `w` current in every tab widget that holds it (however the tabs are grouped).
void showInTabs(QWidget* w) {
    for (QWidget* child = w; child && child->parentWidget(); child = child->parentWidget())
        if (auto* tabs = qobject_cast<QTabWidget*>(child->parentWidget()->parentWidget()))
            if (tabs->indexOf(child) >= 0) tabs->setCurrentWidget(child);
}

bool same(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }

QList<QStringList> readCsv(const QByteArray& text) {
    QList<QStringList> rows;
    for (const QByteArray& line : text.split('\n'))
        if (!line.isEmpty()) rows << QString::fromUtf8(line).split(QLatin1Char(','));
    return rows;
}

double csvNumber(const QString& field) {
    if (field == QLatin1String("nan") || field.isEmpty()) return std::nan("");
    if (field == QLatin1String("inf")) return std::numeric_limits<double>::infinity();
    if (field == QLatin1String("-inf")) return -std::numeric_limits<double>::infinity();
    return field.toDouble();
}

// The CSV's number against a value: the writer prints a float32 value as the shortest text
// that reads back as that float, other doubles as the shortest round trip.
bool csvSame(const QString& field, double value) {
    const double read = csvNumber(field);
    return same(read, value) || same(double(float(read)), value);
}

}  // namespace

class TstViewConsistency : public ExplorerWindowSlot {
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanup();
    void generatedChannelData();
    void dataWithNanAndInf();
    void allNanData();
    void tensorFromEachModelFormat_data();
    void tensorFromEachModelFormat();

private:
    void openSource(const DataSource& source);
    void openData(const std::vector<float>& values);
    void openModelTensor(const QString& path, const QString& tensor);
    bool showAnalysis(QWidget* view, AnalysisKind kind);
    void checkCase(const Case& c, bool runCli);
    void checkExplorerViews(const Case& c, const qs::analysis::ExplorerResult& r);
    void checkAnalyses(const Case& c, const qs::analysis::ExplorerResult& r);
    void checkStatisticsCsv(const Case& c, const qs::analysis::ExplorerResult& r);
    void checkCli(const Case& c, const qs::analysis::ExplorerResult& r);
    void checkComparison(const std::vector<std::pair<qs::QuantSpec, qs::analysis::ErrorStats>>& shown);
    void runMatrix(bool nanAndInf);
    void screenshot(const Case& c, bool nanAndInf);

    QTemporaryDir dir_;
};

void TstViewConsistency::initTestCase() { QVERIFY(isolate() && dir_.isValid()); }

void TstViewConsistency::cleanup() { closeWindow(); }

// A window at 1280×800 on `source`, its data loaded and its first result computed.
void TstViewConsistency::openSource(const DataSource& source) {
    QVERIFY(openWindow(quantizeV2(qs::QType::QInt8, -1, qs::RangeSource::Given), source, {1280, 800}));
    QVERIFY(settle());
    QVERIFY2(w_->dataService()->dataset(), qPrintable(source.path + QStringLiteral(": ") + source.tensor));
}

void TstViewConsistency::openData(const std::vector<float>& values) {
    const QString path = dir_.filePath(QStringLiteral("data%1.npy").arg(qHash(QByteArray(
        reinterpret_cast<const char*>(values.data()), qsizetype(values.size() * sizeof(float))))));
    QVERIFY(writeNpy(path, values));
    DataSource source;
    source.path = path;
    openSource(source);
    if (QTest::currentTestFailed()) return;
    QCOMPARE(w_->dataService()->dataset()->shape, (qs::Shape{kRows, kChannels}));
}

// A model file's tensor as the explorer's data, as a click in the Model dock gives it.
void TstViewConsistency::openModelTensor(const QString& path, const QString& tensor) {
    DataSource source;
    source.path = path;
    source.tensor = tensor;
    openSource(source);
}

// Shows `view` (in whichever tab widgets hold it) and waits for its analysis of the current
// settings.
bool TstViewConsistency::showAnalysis(QWidget* view, AnalysisKind kind) {
    AnalysisTabs* a = w_->analysisTabs();
    QSignalSpy shown(a, &AnalysisTabs::resultShown);
    showInTabs(view);
    const bool ok = QTest::qWaitFor([&] {
        for (const auto& args : shown)
            if (args.at(0).value<AnalysisKind>() == kind && !a->isOutOfDate(kind) && !a->service()->busy()) return true;
        return false;
    }, 20000);
    return ok && settle();
}

void TstViewConsistency::checkExplorerViews(const Case& c, const qs::analysis::ExplorerResult& r) {
    const QByteArray what = c.name.toUtf8();
    const int64_t clipped = r.clipped_below + r.clipped_above;
    // Statistics dock: the result and its clipped line.
    QVERIFY2(w_->statsPanel()->result().get() == &r, what);
    QVERIFY2(w_->statsPanel()->valueText(QStringLiteral("clip_fraction"))
                 .contains(QStringLiteral("(%1 below, %2 above)").arg(r.clipped_below).arg(r.clipped_above)),
             what);
    // Data histogram: the red bars are the clipped values (each against its own channel).
    const auto split = qs::analysis::splitClipped(r);
    double red = 0;
    for (size_t i = 0; i < split.clipped.size(); ++i) {
        red += split.clipped[i];
        QVERIFY2(!split.is_clipped[i] || split.clipped[i] > 0, what);
    }
    const int64_t offPlot = r.clipped_hist.underflow + r.clipped_hist.overflow;
    QVERIFY2(int64_t(red) + offPlot == clipped, what);
    const auto bars = w_->histogramView()->clippedBars()->data();
    double drawn = 0;
    for (auto it = bars->constBegin(); it != bars->constEnd(); ++it) drawn += it->value;
    QVERIFY2(drawn == red, what);
    // Error histogram: the explorer's clipped count, not its own.
    const QString info = w_->errorHistogramView()->infoText();
    if (clipped > 0)
        QVERIFY2(info.contains(QStringLiteral("clipped: %1 below · %2 above").arg(r.clipped_below).arg(r.clipped_above)),
                 qPrintable(c.name + QStringLiteral(": ") + info));
    else
        QVERIFY2(!info.contains(QStringLiteral("clipped:")), qPrintable(c.name + QStringLiteral(": ") + info));
    // Data with ±inf: the histogram's window is the finite values'.
    QVERIFY2(std::isfinite(r.data_hist.lo) && r.data_hist.lo <= r.finite_min && r.data_hist.hi >= r.finite_max, what);
}

void TstViewConsistency::checkAnalyses(const Case& c, const qs::analysis::ExplorerResult& r) {
    const QByteArray what = c.name.toUtf8();
    const int64_t clipped = r.clipped_below + r.clipped_above;
    AnalysisTabs* a = w_->analysisTabs();
    // Bit sweep: the row at the current width is the explorer's spec, and its numbers.
    QVERIFY2(showAnalysis(a->bitSweepView(), AnalysisKind::BitSweep), what);
    const auto sweep = a->bitSweepView()->result();
    QVERIFY2(sweep, what);
    const qs::analysis::BitSweepRow* row = nullptr;
    for (const auto& candidate : sweep->rows)
        if (candidate.spec == r.spec) row = &candidate;
    QVERIFY2(row, what);
    QVERIFY2(same(row->sqnr_db, r.stats.sqnr_db), qPrintable(QStringLiteral("%1: sweep %2 dB, statistics %3 dB")
                                                                  .arg(c.name).arg(row->sqnr_db).arg(r.stats.sqnr_db)));
    QVERIFY2(same(row->mse, r.stats.mse), what);
    QVERIFY2(row->clipped == clipped, what);
    if (std::isfinite(row->sqnr_db)) {
        bool plotted = false;
        const auto points = a->bitSweepView()->sqnrGraph()->data();
        for (auto it = points->constBegin(); it != points->constEnd(); ++it)
            plotted = plotted || (it->key == row->bits && it->value == row->sqnr_db);
        QVERIFY2(plotted, what);
    } else {
        QVERIFY2(a->bitSweepView()->caption().contains(QStringLiteral("inf")), what);  // says why
    }
    // Clipping sweep: the current settings' mark.
    QVERIFY2(showAnalysis(a->clipSweepView(), AnalysisKind::ClipSweep), what);
    const auto clip = a->clipSweepView()->result();
    QVERIFY2(clip, what);
    QVERIFY2(same(clip->current.mse, r.stats.mse), what);
    QVERIFY2(same(clip->current.sqnr_db, r.stats.sqnr_db), what);
    QVERIFY2(clip->current.clipped == clipped, what);
    const auto mark = a->clipSweepView()->currentGraph()->data();
    QVERIFY2(mark->size() >= 1 && same(mark->constBegin()->value, r.stats.mse), what);
    // Calibration: the "current (explorer)" row.
    QVERIFY2(showAnalysis(a->calibrationPanel(), AnalysisKind::Calibration), what);
    const auto cal = a->calibrationPanel()->result();
    QVERIFY2(cal, what);
    QVERIFY2(same(cal->current.sqnr_db, r.stats.sqnr_db), what);
    QVERIFY2(same(cal->current.mse, r.stats.mse), what);
    QVERIFY2(same(cal->current.fraction_clipped, r.stats.fraction_clipped), what);
    QVERIFY2(cal->current_clipped == clipped, what);
    QTableWidget* table = a->calibrationPanel()->table();
    const int last = table->rowCount() - 1;
    QVERIFY2(table->item(last, 0)->text().startsWith(QStringLiteral("current")), what);
    QCOMPARE(table->item(last, 3)->text(), QString::number(r.stats.sqnr_db, 'f', 2));
}

void TstViewConsistency::checkStatisticsCsv(const Case& c, const qs::analysis::ExplorerResult& r) {
    const QByteArray what = c.name.toUtf8();
    const QString path = dir_.filePath(QStringLiteral("statistics.csv"));
    QString error;
    QVERIFY2(w_->statsPanel()->exportCsv(path, &error), qPrintable(error));
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QList<QStringList> csv = readCsv(f.readAll());
    QCOMPARE(csv.size(), 2 + int(r.channels.size()));
    const QStringList& header = csv[0];
    auto field = [&](int row, const char* key) { return csv[row][header.indexOf(QLatin1String(key))]; };
    QCOMPARE(field(1, "scope"), QStringLiteral("tensor"));
    QVERIFY2(csvSame(field(1, "sqnr_db"), r.stats.sqnr_db), what);
    QVERIFY2(csvSame(field(1, "mse"), r.stats.mse), what);
    QVERIFY2(csvSame(field(1, "clipped"), double(r.clipped_below + r.clipped_above)), what);
    for (size_t d = 0; d < r.channels.size(); ++d) {
        const int row = 2 + int(d);
        const auto& ch = r.channels[d];
        QCOMPARE(field(row, "channel"), QString::number(d));
        QVERIFY2(field(row, "step") != QLatin1String("nan") && csvSame(field(row, "step"), ch.quant.step), what);
        QVERIFY2(csvSame(field(row, "scale"), ch.quant.scale), what);
        QVERIFY2(csvSame(field(row, "sqnr_db"), ch.stats.sqnr_db), what);
        QVERIFY2(csvSame(field(row, "clipped"), double(ch.clipped)), what);
    }
}

// quantscope-cli export on the window's own session: the same channels and histogram.
void TstViewConsistency::checkCli(const Case& c, const qs::analysis::ExplorerResult& r) {
    const QByteArray what = c.name.toUtf8();
    const QString session = dir_.filePath(QStringLiteral("case.qscope"));
    QString error;
    QVERIFY2(saveSession(session, w_->currentSession(), &error), qPrintable(error));
    const bool perChannel = !r.channels.empty();
    QProcess cli;
    cli.start(QStringLiteral(QS_CLI_PATH), {QStringLiteral("export"), QStringLiteral("--session"), session,
                                            QStringLiteral("--view"),
                                            perChannel ? QStringLiteral("per-channel") : QStringLiteral("histogram"),
                                            QStringLiteral("--csv"), QStringLiteral("-")});
    QVERIFY(cli.waitForFinished(20000));
    QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
    const QList<QStringList> csv = readCsv(cli.readAllStandardOutput());
    const QStringList& header = csv[0];
    if (perChannel) {
        QCOMPARE(csv.size(), 1 + int(r.channels.size()));
        for (size_t d = 0; d < r.channels.size(); ++d) {
            const QStringList& row = csv[1 + int(d)];
            QVERIFY2(csvSame(row[header.indexOf(QStringLiteral("sqnr_db"))], r.channels[d].stats.sqnr_db), what);
            QVERIFY2(csvSame(row[header.indexOf(QStringLiteral("clipped"))], double(r.channels[d].clipped)), what);
        }
    } else {
        const auto shown = w_->histogramView()->csvTable();
        QCOMPARE(csv.size(), 1 + int(shown.rowCount()));
        const int count = int(header.indexOf(QStringLiteral("count"))), red = int(header.indexOf(QStringLiteral("clipped")));
        for (int i = 0; i < int(shown.rowCount()); ++i) {
            QVERIFY2(csvSame(csv[1 + i][count], shown.columns[2][size_t(i)]), what);
            QVERIFY2(csvSame(csv[1 + i][red], shown.columns[3][size_t(i)]), what);
        }
    }
}

void TstViewConsistency::checkComparison(const std::vector<std::pair<qs::QuantSpec, qs::analysis::ErrorStats>>& shown) {
    AnalysisTabs* a = w_->analysisTabs();
    QVERIFY(showAnalysis(a->comparisonView(), AnalysisKind::Comparison));
    const auto result = a->comparisonView()->result();
    QVERIFY(result);
    QCOMPARE(result->entries.size(), shown.size());
    for (size_t i = 0; i < shown.size(); ++i) {
        const auto& e = result->entries[i];
        QVERIFY(e.spec == shown[i].first);
        QVERIFY(same(e.stats.sqnr_db, shown[i].second.sqnr_db));
        QVERIFY(same(e.stats.mse, shown[i].second.mse));
        QVERIFY(same(e.stats.fraction_clipped, shown[i].second.fraction_clipped));
    }
}

void TstViewConsistency::runMatrix(bool nanAndInf) {
    openData(channelData(nanAndInf));
    if (QTest::currentTestFailed()) return;
    std::vector<std::pair<qs::QuantSpec, qs::analysis::ErrorStats>> compared;
    auto* add = w_->findChild<QPushButton*>(QStringLiteral("addConfigButton"));
    QVERIFY(add);
    int cliRuns = 0;
    for (const Case& c : cases()) {
        // NaN and ±inf: one width per op and range kind (the others add time, not cases).
        const bool oneWidth = c.name.contains(QStringLiteral(" 8 bits")) || c.name.contains(QStringLiteral("qint8")) ||
                              c.name.contains(QStringLiteral("256 buckets"));
        if (nanAndInf && !oneWidth) continue;
        model_->editSpec(c.spec, c.name);
        QVERIFY(settle());
        QVERIFY2(!w_->resultIsStale(), qPrintable(c.name));
        const auto r = w_->lastResult();
        QVERIFY2(r && r->spec == c.spec, qPrintable(c.name));
        checkExplorerViews(c, *r);
        if (QTest::currentTestFailed()) return;
        checkAnalyses(c, *r);
        if (QTest::currentTestFailed()) return;
        screenshot(c, nanAndInf);
        checkStatisticsCsv(c, *r);
        if (QTest::currentTestFailed()) return;
        // The CLI for one case of each op and range kind (a process each).
        if (oneWidth) {
            checkCli(c, *r);
            ++cliRuns;
            if (QTest::currentTestFailed()) return;
        }
        // Up to four configurations into the Compare tab (per tensor and per channel).
        if (compared.size() < 4 && (c.name.contains(QStringLiteral("qint8")) || c.name.contains(QStringLiteral("V4")))) {
            add->click();
            compared.emplace_back(r->spec, r->stats);
        }
    }
    QVERIFY(cliRuns >= 5);
    checkComparison(compared);
}

// QS_CONSISTENCY_SCREENSHOTS=<dir>: the window at the review's per-channel case, on the data
// histogram and the bit sweep (to look at).
void TstViewConsistency::screenshot(const Case& c, bool nanAndInf) {
    const QString dir = qEnvironmentVariable("QS_CONSISTENCY_SCREENSHOTS");
    if (dir.isEmpty() || !c.name.contains(QStringLiteral("SCALED"))) return;
    const QString prefix = nanAndInf ? QStringLiteral("inf-") : QString();
    showInTabs(w_->analysisTabs()->bitSweepView());  // computed already: shown at once
    QTest::qWait(200);
    QVERIFY(w_->grab().save(QDir(dir).filePath(prefix + QStringLiteral("bitsweep-per-channel.png"))));
    showInTabs(w_->histogramView());
    QTest::qWait(200);
    QVERIFY(w_->grab().save(QDir(dir).filePath(prefix + QStringLiteral("datahist-per-channel.png"))));
}

void TstViewConsistency::generatedChannelData() { runMatrix(false); }

void TstViewConsistency::dataWithNanAndInf() {
    runMatrix(true);
    if (QTest::currentTestFailed()) return;
    // The Statistics dock names the finite range beside the infinite one.
    model_->editSpec(qdq(qs::QuantOp::QuantizeAndDequantizeV2, 8, true, -1), QStringLiteral("qdq"));
    QVERIFY(settle());
    const QString range = w_->statsPanel()->valueText(QStringLiteral("data_min"));
    QVERIFY2(range.contains(QStringLiteral("finite values in")), qPrintable(range));
}

void TstViewConsistency::allNanData() {
    openData(std::vector<float>(size_t(kRows) * kChannels, std::numeric_limits<float>::quiet_NaN()));
    if (QTest::currentTestFailed()) return;
    const QString range = w_->statsPanel()->valueText(QStringLiteral("data_min"));
    QVERIFY2(range.contains(QStringLiteral("no finite value")), qPrintable(range));
    QVERIFY(!range.contains(QStringLiteral("[0, 0]")));
    // The status line has no SQNR to give either.
    const QString status = w_->findChild<QLabel*>(QStringLiteral("explorerStatusLabel"))->text();
    QVERIFY2(status.contains(QStringLiteral("no value without NaN")) && !status.contains(QStringLiteral("nan dB")),
             qPrintable(status));
}

// One float tensor from a file of each model format in tests/data/models, per tensor with a
// given range and per channel (axis 0) with each channel's own range: the Statistics dock,
// both histograms, the analysis tabs, the statistics CSV and the CLI's export of the session.
void TstViewConsistency::tensorFromEachModelFormat_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("tensor");
    // Absolute: the window's session names the file, and a relative name would be read
    // against the session's folder.
    const QString models = QDir(QStringLiteral(QS_TEST_DATA_DIR "/models")).absolutePath() + QLatin1Char('/');
    QTest::newRow("onnx") << models + QStringLiteral("onnx/silero_vad_legacy.onnx") << QStringLiteral("1076");
    QTest::newRow("tflite") << models + QStringLiteral("tflite/person_detect.tflite")
                            << QStringLiteral("MobilenetV1/Conv2d_10_pointwise/weights/read");
    QTest::newRow("hdf5") << models + QStringLiteral("hdf5/keypoint_classifier.hdf5")
                          << QStringLiteral("model_weights/dense/dense/kernel:0");
    QTest::newRow("keras") << models + QStringLiteral("keras/keypoint_classifier_stored.keras")
                           << QStringLiteral("model_weights/dense/dense/kernel:0");
    QTest::newRow("npz") << models + QStringLiteral("npz/mixed.npz") << QStringLiteral("weights");
    QTest::newRow("safetensors") << models + QStringLiteral("safetensors/test-model-float32.safetensors")
                                 << QStringLiteral("embeddings");
    QTest::newRow("checkpoint") << models + QStringLiteral("checkpoint/half_plus_two")
                                << QStringLiteral("a/.ATTRIBUTES/VARIABLE_VALUE");
}

void TstViewConsistency::tensorFromEachModelFormat() {
    QFETCH(QString, file);
    QFETCH(QString, tensor);
    openModelTensor(file, tensor);
    if (QTest::currentTestFailed()) return;
    const bool hasChannels = w_->dataService()->dataset()->shape.size() >= 2;
    std::vector<Case> cases{{QStringLiteral("QuantizeV2 qint8 per tensor, given"),
                             quantizeV2(qs::QType::QInt8, -1, qs::RangeSource::Given)},
                            {QStringLiteral("QuantizeAndDequantizeV4 8 bits per tensor, data's range"),
                             qdq(qs::QuantOp::QuantizeAndDequantizeV4, 8, false, -1)}};
    if (hasChannels)
        cases.push_back({QStringLiteral("QuantizeAndDequantizeV4 8 bits per channel, own ranges"),
                         qdq(qs::QuantOp::QuantizeAndDequantizeV4, 8, false, 0)});
    for (const Case& c : cases) {
        model_->editSpec(c.spec, c.name);
        QVERIFY(settle());
        const auto r = w_->lastResult();
        QVERIFY2(r && r->spec == c.spec && !w_->resultIsStale(), qPrintable(c.name));
        checkExplorerViews(c, *r);
        if (QTest::currentTestFailed()) return;
        checkAnalyses(c, *r);
        if (QTest::currentTestFailed()) return;
        checkStatisticsCsv(c, *r);
        if (QTest::currentTestFailed()) return;
        checkCli(c, *r);
        if (QTest::currentTestFailed()) return;
    }
}

QTEST_MAIN(TstViewConsistency)
#include "tst_view_consistency.moc"
