// The whole-model report panel through its real widgets: rows after the job, worst first;
// a row click and a bar click name the tensor; a spec change reruns (a range edit does not,
// rapid edits coalesce into one run); Cancel stops a running report; exports write files; a
// real TFLite model. Set QS_MODEL_REPORT_SCREENSHOT=<dir> to save the panel over
// person_detect.tflite as <dir>/screenshot-model-report.png (the docs' picture).
#include <QCheckBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QtTest>
#include <random>

#include <qcustomplot.h>

#include "core/analysis/explorer.h"
#include "core/modelfile/model_file.h"
#include "core/modelfile/tensor_values.h"
#include "session/explorer/explorer_model.h"
#include "tests/modelfile/memory_model.h"
#include "tests/ui/show_exposed.h"
#include "ui/modelfile/model_report_view.h"
#include "ui/modelfile/sqnr_bar_chart.h"

using namespace qs;
using namespace qs::ui;
using qs::modelfile::test::MemoryModel;
using qs::modelfile::test::normalValues;

namespace {

// Three tensors of known order under 8-bit QDQ: an outlier ruins "outlier", "smooth" is
// ordinary, "dense" [4, 256] has channels (last axis) for the per-channel rows.
std::shared_ptr<const MemoryModel> threeTensors() {
    auto m = std::make_shared<MemoryModel>();
    std::vector<float> outlier = normalValues(4096, 0.1f, 1);
    outlier[7] = 60.0f;
    m->addFloats("smooth", {4096}, normalValues(4096, 0.1f, 2));
    m->addFloats("outlier", {4096}, outlier);
    m->addFloats("dense", {256, 4}, normalValues(1024, 1.0f, 3));
    m->add<int32_t>("shape", {2}, modelfile::DType::Int32, {256, 4});
    return m;
}

std::shared_ptr<const MemoryModel> largeModel() {
    auto m = std::make_shared<MemoryModel>();
    const std::vector<float> values = normalValues(1 << 20, 1.0f, 4);
    for (int i = 0; i < 40; ++i) m->addFloats("t" + std::to_string(i), {1 << 20}, values);
    return m;
}

QString name(QTreeWidgetItem* item) { return item->text(ModelReportView::ColName); }

// More ordinary tensors (about 40 dB at 8 bits) than the chart's home view shows, and thirty
// that sit almost on the 8-bit grid (over 100 dB), with long names.
std::shared_ptr<const MemoryModel> ordinaryAndNearGrid() {
    auto m = std::make_shared<MemoryModel>();
    for (int i = 0; i < SqnrBarChart::kHomeBars + 2; ++i)
        m->addFloats("model/block_" + std::to_string(i) + "/depthwise_conv/weights_quantized_fake_quant_read",
                     {2048}, normalValues(2048, 0.1f, 10 + i));
    std::mt19937 rng(7);
    std::uniform_int_distribution<int> code(-127, 127);
    std::uniform_real_distribution<float> noise(-1e-4f, 1e-4f);
    for (int i = 0; i < 30; ++i) {
        std::vector<float> x(2048);
        for (float& v : x) v = static_cast<float>(code(rng)) + noise(rng);
        x[0] = -127.0f;  // the range is exactly ±127: the step is 1
        x[1] = 127.0f;
        m->addFloats("model/near_grid_" + std::to_string(i), {2048}, x);
    }
    return m;
}

// A weight with channels and an int32 bias whose 8-bit SQNR is the worst of the model.
std::shared_ptr<const MemoryModel> weightAndBias() {
    auto m = std::make_shared<MemoryModel>();
    m->addFloats("dense", {256, 4}, normalValues(1024, 1.0f, 3));
    std::vector<int32_t> codes(256);
    std::mt19937 rng(5);
    std::cauchy_distribution<float> heavy(0.0f, 50.0f);
    for (int32_t& c : codes) c = static_cast<int32_t>(std::clamp(heavy(rng), -1e6f, 1e6f));
    m->add<int32_t>("bias", {256}, modelfile::DType::Int32, codes, modelfile::StoredQuantization{{1e-4f}, {0}, 0});
    return m;
}

// The values of `model`'s tensor `tensor` as float32.
std::vector<float> valuesOf(const MemoryModel& model, const std::string& tensor) {
    auto data = modelfile::toDataset(model, static_cast<size_t>(model.find(tensor)));
    return data ? data->values : std::vector<float>{};
}

// A point on `item`'s row inside the table's visible part (rows are wider than the table).
QPoint onRow(QTreeWidget* t, QTreeWidgetItem* item) {
    return t->visualItemRect(item).intersected(t->viewport()->rect()).center();
}

}  // namespace

class TstModelReportView : public QObject {
    Q_OBJECT

    ExplorerModel* explorer_ = nullptr;
    ModelReportView* view_ = nullptr;

    // A view following a fresh explorer set to 8-bit QDQ V2; the report of `model` delivered.
    void open(std::shared_ptr<const MemoryModel> model) {
        explorer_ = new ExplorerModel(this);
        explorer_->setOp(QuantOp::QuantizeAndDequantizeV2);
        explorer_->setNumBits(8);
        auto* service = new ModelReportService(explorer_);
        service->setExplorerModel(explorer_);  // the op settings to report under
        view_ = new ModelReportView(service);
        view_->resize(1400, 800);
        QSignalSpy ready(view_->service(), &ModelReportService::reportReady);
        view_->setModel(std::move(model));
        QVERIFY(ready.wait(10000));
        QVERIFY(view_->report());
    }

private slots:
    // Forty bars in a short chart: the names are thinned to one per line of text (they do
    // not overlap), the home view shows the worst bars that fit, and zooming in names more.
    void barNamesNeverOverlap() {
        open(largeModel());
        QVERIFY(showExposed(view_, {1400, 320}));
        QCustomPlot* p = view_->chart()->plot();
        p->replot();
        const auto ticker = qSharedPointerCast<QCPAxisTickerText>(p->yAxis->ticker());
        const double lineHeight = QFontMetricsF(p->yAxis->tickLabelFont()).height();
        const auto labelled = [&] {
            int n = 0;
            for (double k : ticker->ticks().keys()) n += p->yAxis->range().contains(k);
            return n;
        };
        const int shown = labelled();
        QVERIFY(shown >= 1);
        QVERIFY2(shown * lineHeight <= p->axisRect()->height(), qPrintable(QString::number(shown)));
        QVERIFY(p->yAxis->range().size() < 40);  // home: the worst bars that fit, not all 40
        p->yAxis->setRange(-0.5, 39.5);
        p->replot();
        QVERIFY(labelled() * lineHeight <= p->axisRect()->height());
        QVERIFY(ticker->ticks().size() < 40);  // thinned
    }

    void cleanup() {
        delete view_;
        view_ = nullptr;
        delete explorer_;
        explorer_ = nullptr;
    }

    void rowsAppearWorstFirstWithTheChart() {
        open(threeTensors());
        QTreeWidget* t = view_->table();
        QCOMPARE(t->topLevelItemCount(), 3);
        QCOMPARE(name(t->topLevelItem(0)), QString("outlier"));
        const double s0 = t->topLevelItem(0)->data(ModelReportView::ColSqnr, Qt::UserRole).toDouble();
        const double s1 = t->topLevelItem(1)->data(ModelReportView::ColSqnr, Qt::UserRole).toDouble();
        const double s2 = t->topLevelItem(2)->data(ModelReportView::ColSqnr, Qt::UserRole).toDouble();
        QVERIFY(s0 < s1 && s1 <= s2);
        // The chart's bars are the same rows in the same order.
        QCPBars* bars = view_->chart()->sqnrBars();
        QCOMPARE(bars->dataCount(), 3);
        QCOMPARE(bars->data()->at(0)->value, view_->report()->rows[0].stats.sqnr_db);
        QCOMPARE(bars->data()->at(0)->value, s0);
        // Skipped tensors are counted in the status line.
        QVERIFY(view_->findChild<QLabel*>("modelReportStatusLabel")->text().contains("1 skipped"));
        // Sorting by another column and back to SQNR keeps worst first.
        t->sortByColumn(ModelReportView::ColName, Qt::AscendingOrder);
        QCOMPARE(name(t->topLevelItem(0)), QString("dense"));
        t->sortByColumn(ModelReportView::ColSqnr, Qt::AscendingOrder);
        QCOMPARE(name(t->topLevelItem(0)), QString("outlier"));
    }

    void clickingARowOrABarNamesTheTensor() {
        open(threeTensors());
        QVERIFY(showExposed(view_));
        QSignalSpy activated(view_, &ModelReportView::tensorActivated);
        QTreeWidget* t = view_->table();
        QTreeWidgetItem* second = t->topLevelItem(1);
        QTest::mouseClick(t->viewport(), Qt::LeftButton, {}, onRow(t, second));
        QCOMPARE(activated.count(), 1);
        QCOMPARE(activated.last().at(0).toString(), name(second));

        QCustomPlot* p = view_->chart()->plot();
        p->replot();
        const int row = 2;
        const QPoint bar(static_cast<int>(p->xAxis->coordToPixel(view_->chart()->drawnSqnr(row) / 2)),
                         static_cast<int>(p->yAxis->coordToPixel(row)));
        QTest::mouseClick(p, Qt::LeftButton, {}, bar);
        QCOMPARE(activated.count(), 2);
        QCOMPARE(activated.last().at(0).toString(), QString::fromStdString(view_->report()->rows[row].name));
    }

    void perChannelRowsAreChildrenAndNameTheirTensor() {
        open(threeTensors());
        QSignalSpy ready(view_->service(), &ModelReportService::reportReady);
        explorer_->setAxis(0);  // per channel, along each tensor's own channel axis
        QVERIFY(ready.wait(10000));
        QVERIFY(view_->report()->per_channel);
        QTreeWidgetItem* dense = nullptr;
        for (int i = 0; i < view_->table()->topLevelItemCount(); ++i)
            if (name(view_->table()->topLevelItem(i)) == "dense") dense = view_->table()->topLevelItem(i);
        QVERIFY(dense);
        QCOMPARE(dense->childCount(), 4);  // [256, 4]: channels last
        QVERIFY(!dense->isExpanded());
        view_->findChild<QCheckBox*>("modelReportChannels")->setChecked(true);
        QVERIFY(dense->isExpanded());
        QVERIFY(showExposed(view_));
        QSignalSpy activated(view_, &ModelReportView::tensorActivated);
        QTreeWidget* t = view_->table();
        t->scrollToItem(dense->child(1));
        QTest::mouseClick(t->viewport(), Qt::LeftButton, {}, onRow(t, dense->child(1)));
        QCOMPARE(activated.count(), 1);
        QCOMPARE(activated.last().at(0).toString(), QString("dense"));
        // That channel (children sort by SQNR too), not the whole tensor.
        QCOMPARE(QStringLiteral("channel %1").arg(activated.last().at(2).toLongLong()), name(dense->child(1)));
        QTest::mouseClick(t->viewport(), Qt::LeftButton, {}, onRow(t, dense));
        QCOMPARE(activated.last().at(2).toLongLong(), qint64{-1});
    }

    // A per-tensor report row explored per channel when clicked (33.8 dB in the row, 96 dB
    // in the explorer). The click carries the row's exact spec: the explorer run with it on
    // the tensor's values gives the row's SQNR, per tensor and per channel.
    void aClickCarriesTheRowsExactSpec() {
        auto model = weightAndBias();
        open(model);
        QVERIFY(showExposed(view_));
        for (int64_t axis : {int64_t{-1}, int64_t{0}}) {
            if (axis >= 0) {
                QSignalSpy ready(view_->service(), &ModelReportService::reportReady);
                explorer_->setAxis(axis);
                QVERIFY(ready.wait(10000));
            }
            QSignalSpy activated(view_, &ModelReportView::tensorActivated);
            QTreeWidget* t = view_->table();
            QTreeWidgetItem* dense = nullptr;
            for (int i = 0; i < t->topLevelItemCount(); ++i)
                if (name(t->topLevelItem(i)) == "dense") dense = t->topLevelItem(i);
            QVERIFY(dense);
            t->scrollToItem(dense);
            QTest::mouseClick(t->viewport(), Qt::LeftButton, {}, onRow(t, dense));
            QCOMPARE(activated.count(), 1);
            const auto spec = activated.last().at(1).value<QuantSpec>();
            const auto& row = *std::find_if(view_->report()->rows.begin(), view_->report()->rows.end(),
                                            [](const auto& r) { return r.name == "dense"; });
            QCOMPARE(spec.axis, axis < 0 ? int64_t{-1} : int64_t{1});  // [256, 4]: channels last
            const std::vector<float> x = valuesOf(*model, "dense");
            auto explored = qs::analysis::computeExplorer(spec, TensorRef<float>{x, {256, 4}});
            QVERIFY(explored.ok());
            QVERIFY2(std::abs(explored->stats.sqnr_db - row.stats.sqnr_db) < 1e-9,
                     qPrintable(QString("explorer %1 dB, row %2 dB").arg(explored->stats.sqnr_db).arg(row.stats.sqnr_db)));
            QCOMPARE(dense->text(ModelReportView::ColSqnr), QString::number(explored->stats.sqnr_db, 'f', 2));
        }
    }

    // int32 biases led the worst-first list: they come after the weights in the table (in
    // either SQNR order) and the chart, marked, and the status line says why.
    void int32BiasesRankAfterTheWeights() {
        open(weightAndBias());
        const auto& rows = view_->report()->rows;
        QCOMPARE(rows.size(), size_t{2});
        QVERIFY(rows[1].int32_codes && rows[1].stats.sqnr_db < rows[0].stats.sqnr_db);
        QTreeWidget* t = view_->table();
        QCOMPARE(name(t->topLevelItem(0)), QString("dense"));
        QVERIFY(name(t->topLevelItem(1)).startsWith("bias") && name(t->topLevelItem(1)).contains("int32 bias"));
        t->sortByColumn(ModelReportView::ColSqnr, Qt::DescendingOrder);
        QCOMPARE(name(t->topLevelItem(0)), QString("dense"));
        t->sortByColumn(ModelReportView::ColSqnr, Qt::AscendingOrder);
        QCOMPARE(name(t->topLevelItem(0)), QString("dense"));
        QVERIFY(view_->findChild<QLabel*>("modelReportStatusLabel")->text().contains("int32 bias"));
        QCOMPARE(view_->chart()->sqnrBars()->data()->at(1)->value, rows[1].stats.sqnr_db);
    }

    // The SQNR was the ninth column, past long names: never in view without scrolling.
    void keyColumnsAreInViewWithLongNames() {
        open(ordinaryAndNearGrid());
        QVERIFY(showExposed(view_, {1280, 400}));
        QTreeWidget* t = view_->table();
        for (int column : {ModelReportView::ColSqnr, ModelReportView::ColCalibrationSqnr}) {
            const int right = t->header()->sectionViewportPosition(column) + t->columnWidth(column);
            QVERIFY2(right <= t->viewport()->width(),
                     qPrintable(QString("column %1 ends at %2 of %3").arg(column).arg(right).arg(t->viewport()->width())));
        }
        // The best calibration is never below the row's own SQNR.
        for (const auto& row : view_->report()->rows)
            QVERIFY(row.calibration && row.calibration->sqnr_db >= row.stats.sqnr_db);
    }

    // The SQNR axis ran to the best tensor's 140 dB with every bar shown under 45: it spans
    // the bars the home view shows.
    void chartAxisSpansTheBarsShown() {
        open(ordinaryAndNearGrid());
        QVERIFY(showExposed(view_, {1400, 500}));
        SqnrBarChart* chart = view_->chart();
        chart->setResult(view_->report());  // home view for the size shown
        QCustomPlot* p = chart->plot();
        const auto& rows = view_->report()->rows;
        QVERIFY(rows.back().stats.sqnr_db > 100);
        const int shown = static_cast<int>(std::floor(p->yAxis->range().upper)) + 1;
        QVERIFY(shown >= 8 && shown <= SqnrBarChart::kHomeBars);  // the ordinary tensors fill the home view
        double longest = 0;
        for (int i = 0; i < shown; ++i) {
            longest = std::max(longest, chart->drawnSqnr(static_cast<size_t>(i)));
            if (rows[static_cast<size_t>(i)].calibration)
                longest = std::max(longest, rows[static_cast<size_t>(i)].calibration->sqnr_db);
        }
        QVERIFY2(p->xAxis->range().upper < longest * 1.2,
                 qPrintable(QString("axis to %1 dB, bars to %2 dB").arg(p->xAxis->range().upper).arg(longest)));
        QVERIFY(p->xAxis->range().upper >= longest);
    }

    // In a narrow chart (the report tabbed beside the explorer on a 1280-pixel screen) a
    // long name keeps its end and two fifths of the width: the bars keep the rest.
    void longNamesLeaveTheBarsTheirWidth() {
        SqnrBarChart chart;
        qs::analysis::ModelReportOptions quick;
        quick.calibrate = false;
        auto r = qs::analysis::computeModelReport(*ordinaryAndNearGrid(), qs::defaultSpecFor(qs::QuantOp::QuantizeV2), quick);
        QVERIFY(r.ok());
        chart.setResult(std::make_shared<const qs::analysis::ModelReport>(std::move(r).value()));
        QVERIFY(showExposed(&chart, {400, 500}));
        QCustomPlot* p = chart.plot();
        p->replot();
        const auto names = qSharedPointerCast<QCPAxisTickerText>(p->yAxis->ticker());
        QVERIFY(!names->ticks().isEmpty());
        const QFontMetrics metrics(p->yAxis->tickLabelFont());
        for (const QString& name : names->ticks()) {
            QVERIFY2(metrics.horizontalAdvance(name) <= p->width() * 2 / 5, qPrintable(name));
            QVERIFY2(name.endsWith(QStringLiteral("_fake_quant_read")) || name.contains(QStringLiteral("near_grid_")),
                     qPrintable(name));
        }
        QVERIFY2(p->axisRect()->width() >= p->width() / 2, qPrintable(QString::number(p->axisRect()->width())));
    }

    // The names are chosen after the layout: a chart made smaller (a dock re-docked) names
    // as many bars as its new height holds, and an export never shown names its bars too
    // (the CLI's report PNG had none).
    void barNamesFollowTheHeightAndExports() {
        open(largeModel());
        QVERIFY(showExposed(view_, {1400, 900}));
        QCustomPlot* p = view_->chart()->plot();
        p->yAxis->setRange(-0.5, 39.5);
        p->replot();
        const auto ticker = qSharedPointerCast<QCPAxisTickerText>(p->yAxis->ticker());
        const double lineHeight = QFontMetricsF(p->yAxis->tickLabelFont()).height();
        const int tall = ticker->ticks().size();
        view_->resize(1400, 260);
        QTest::qWait(100);  // the resize's one replot
        QVERIFY2(ticker->ticks().size() * lineHeight <= p->axisRect()->height(),
                 qPrintable(QString("%1 names in %2 px (%3 before)").arg(ticker->ticks().size()).arg(p->axisRect()->height()).arg(tall)));
        QVERIFY(ticker->ticks().size() < tall);

        qs::analysis::ModelReportOptions quick;
        quick.calibrate = false;
        auto longNames = qs::analysis::computeModelReport(*ordinaryAndNearGrid(), view_->report()->spec, quick);
        QVERIFY(longNames.ok());
        SqnrBarChart offscreen;
        offscreen.setResult(std::make_shared<const qs::analysis::ModelReport>(std::move(longNames).value()));
        offscreen.resize(1600, 1000);
        const QImage image = offscreen.exporter().renderImage(1600, 1000, 96);
        const auto names = qSharedPointerCast<QCPAxisTickerText>(offscreen.plot()->yAxis->ticker());
        QVERIFY(names->ticks().size() >= 8);
        // The names are drawn left of the bars (room was made for them).
        int barStart = image.width();
        for (int y = 120; y < 900; y += 4)
            for (int x = 0; x < barStart; ++x) {
                const QColor c = image.pixelColor(x, y);
                if (c.blue() > c.red() + 40) barStart = x;
            }
        QVERIFY2(barStart > 150, qPrintable(QString::number(barStart)));  // the long names' room
        int dark = 0;
        for (int y = 120; y < 900; ++y)
            for (int x = 0; x < barStart - 10; ++x) dark += image.pixelColor(x, y).lightness() < 110;
        QVERIFY2(dark > 200, qPrintable(QString("%1 text pixels left of the bars at %2").arg(dark).arg(barStart)));
    }

    void specChangesRerunRangeEditsDoNotAndBurstsCoalesce() {
        open(threeTensors());
        const double at8 = view_->report()->rows.back().stats.sqnr_db;
        QSignalSpy ready(view_->service(), &ModelReportService::reportReady);
        QSignalSpy started(view_->service(), &ModelReportService::started);
        explorer_->setNumBits(4);
        QVERIFY(ready.wait(10000));
        QCOMPARE(view_->report()->spec.num_bits, int64_t{4});
        QVERIFY(view_->report()->rows.back().stats.sqnr_db < at8 - 10);
        // The range the explorer gives means nothing to the report: no rerun.
        explorer_->setRange(-3.0f, 3.0f);
        QTest::qWait(500);
        QCOMPARE(ready.count(), 1);
        QVERIFY(!view_->service()->busy());
        // Five quick edits: one run, with the last value.
        started.clear();
        ready.clear();
        for (int bits : {5, 6, 7, 3, 6}) explorer_->setNumBits(bits);
        QVERIFY(ready.wait(10000));
        QTest::qWait(400);
        QCOMPARE(started.count(), 1);
        QCOMPARE(ready.count(), 1);
        QCOMPARE(view_->report()->spec.num_bits, int64_t{6});
    }

    void cancelStopsARunningReport() {
        open(threeTensors());
        QSignalSpy started(view_->service(), &ModelReportService::started);
        QSignalSpy cancelled(view_->service(), &ModelReportService::cancelled);
        QSignalSpy ready(view_->service(), &ModelReportService::reportReady);
        auto* cancel = view_->findChild<QPushButton*>("modelReportCancel");
        auto* rerun = view_->findChild<QPushButton*>("modelReportRerun");
        QVERIFY(cancel->isHidden() && rerun->isHidden());
        view_->setModel(largeModel());  // 40 tensors of 1M values, calibration on: seconds
        QVERIFY(ready.count() == 0);
        QVERIFY(started.count() == 1 || started.wait(5000));
        QVERIFY(!cancel->isHidden());
        QTest::mouseClick(cancel, Qt::LeftButton);
        QVERIFY(cancelled.wait(10000));
        QCOMPARE(ready.count(), 0);
        QVERIFY(cancel->isHidden());
        QVERIFY(view_->findChild<QLabel*>("modelReportStatusLabel")->text().startsWith("Cancelled"));
        // "Run again" starts the report over, and Cancel stops it again.
        QVERIFY(!rerun->isHidden());
        QTest::mouseClick(rerun, Qt::LeftButton);
        QVERIFY(started.count() == 2 || started.wait(5000));
        QVERIFY(!cancel->isHidden() && rerun->isHidden());
        QTest::mouseClick(cancel, Qt::LeftButton);
        QVERIFY(cancelled.wait(10000));
        QCOMPARE(ready.count(), 0);
    }

    void aRealInt8ModelIsReportedDequantized() {
        auto model = modelfile::openModel(QS_TEST_DATA_DIR "/models/tflite/person_detect.tflite");
        QVERIFY2(model.ok(), model.ok() ? "" : model.error().message.c_str());
        open(std::const_pointer_cast<const MemoryModel>(threeTensors()));  // the fixture's explorer and view
        QSignalSpy ready(view_->service(), &ModelReportService::reportReady);
        explorer_->setAxis(0);  // per channel: TFLite kernels along their output channels
        QVERIFY(ready.wait(10000));
        ready.clear();
        view_->setModel(*model);
        QVERIFY(ready.wait(20000));
        const auto report = view_->report();
        QCOMPARE(report->format, std::string("tflite"));
        QVERIFY(report->rows.size() > 50);
        for (const auto& row : report->rows) QVERIFY2(row.dequantized, row.name.c_str());  // int8 weights, int32 biases
        QCOMPARE(view_->table()->topLevelItemCount(), static_cast<int>(report->rows.size()));
        QCOMPARE(view_->chart()->sqnrBars()->dataCount(), static_cast<int>(report->rows.size()));
        const QString dir = qEnvironmentVariable("QS_MODEL_REPORT_SCREENSHOT");
        if (!dir.isEmpty()) {
            QVERIFY(showExposed(view_, {1600, 900}));
            view_->table()->setColumnWidth(ModelReportView::ColName, 330);
            QVERIFY(view_->grab().save(dir + "/screenshot-model-report.png"));
        }
    }

    void exportsWriteTheReport() {
        QTemporaryDir dir;
        ModelReportService service;
        ModelReportView empty(&service);
        QString error;
        QVERIFY(!empty.exportCsv(dir.filePath("none.csv"), &error));
        QVERIFY(error.contains("no report"));
        QVERIFY(!QFile::exists(dir.filePath("none.csv")));

        open(threeTensors());
        QVERIFY(view_->exportCsv(dir.filePath("r.csv"), &error));
        QFile csv(dir.filePath("r.csv"));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = csv.readAll().split('\n');
        QVERIFY(lines[0].startsWith("tensor,channel,shape,dtype,axis,elements,min,max,mse,sqnr_db"));
        QVERIFY(lines[1].startsWith("outlier,,4096,float32,-1,4096,"));

        QVERIFY(view_->exportJson(dir.filePath("r.json"), &error));
        QFile json(dir.filePath("r.json"));
        QVERIFY(json.open(QIODevice::ReadOnly));
        const QJsonObject o = QJsonDocument::fromJson(json.readAll()).object();
        QCOMPARE(o["tensors"].toArray().size(), 3);
        QCOMPARE(o["tensors"].toArray().at(0).toObject()["name"].toString(), QString("outlier"));
        QCOMPARE(o["skipped"].toArray().size(), 1);

        QVERIFY(view_->chart()->exporter().exportImage(dir.filePath("r.png"), 800, 500, 96, &error));
        QImage image(dir.filePath("r.png"));
        QCOMPARE(image.size(), QSize(800, 500));
        QVERIFY(view_->chart()->exporter().exportSvg(dir.filePath("r.svg"), 0, 0, &error));
        QVERIFY(QFileInfo(dir.filePath("r.svg")).size() > 1000);

        // A failed write names the file and keeps nothing half-written.
        QVERIFY(!view_->exportJson(dir.filePath("missing/r.json"), &error));
        QVERIFY(error.contains("missing/r.json"));
    }
};

QTEST_MAIN(TstModelReportView)
#include "tst_model_report_view.moc"
