// The explorer's controller with no widget at all (a QCoreApplication; the test links only the
// widget-free qs_session library): the model's edits reach the compute service and the
// result comes back, the newest request wins and an older result is marked stale, a range
// drag is one undo step, the mode-cycling rule, errors reach the user with TF's words while
// the last valid result stays, a broken data file keeps the previous data, "range from data",
// and which view-state changes recompute.
#include <QtTest>

#include <QFile>
#include <QGuiApplication>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <memory>

#include "core/analysis/error_stats.h"
#include "core/analysis/quant_spec.h"
#include "session/explorer/data_service.h"
#include "session/explorer/explorer_controller.h"
#include "session/explorer/explorer_model.h"

using namespace qs::ui;

namespace {

const QString kSmallData = QStringLiteral("normal:n=20000,seed=1");

bool writeText(const QString& path, const QByteArray& text) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(text) == text.size();
}

}  // namespace

class TstExplorerController : public QObject {
    Q_OBJECT

private slots:
    void init();
    void cleanup();

    void deliversTheModelsResult();
    void newestRequestWins();
    void dragIsOneUndoStep();
    void modeCyclingQuantizeV2();
    void modeCyclingRoundModes();
    void errorsReachTheUser_data();
    void errorsReachTheUser();
    void perChannelQdqWithAGivenRangeSaysWhatToDo();
    void brokenDataKeepsThePreviousData();
    void aSpecEditDuringACancelledLoadRunsOnTheOldData();
    void rangeFromData();
    void curveChannelRecomputes();
    void viewStateEditsAreNotUndoSteps();

private:
    bool settle() const;  // no load and no computation pending

    // One test's world, torn down in reverse order: the controller before its model.
    struct World {
        QTemporaryDir dir;
        ExplorerModel model;
        std::unique_ptr<ExplorerController> controller;
        std::unique_ptr<QSignalSpy> firstResults;  // resultChanged since start()
    };
    std::unique_ptr<World> world_;
    ExplorerModel* model_ = nullptr;
    ExplorerController* c_ = nullptr;
    QTemporaryDir* dir_ = nullptr;
    QSignalSpy* firstResults_ = nullptr;
};

void TstExplorerController::init() {
    QVERIFY(!qobject_cast<QGuiApplication*>(QCoreApplication::instance()));  // no GUI at all
    world_ = std::make_unique<World>();
    dir_ = &world_->dir;
    QVERIFY(dir_->isValid());
    model_ = &world_->model;
    model_->reset(model_->spec(), DataSource{kSmallData, QString()}, ViewState{});
    world_->controller = std::make_unique<ExplorerController>(model_);
    c_ = world_->controller.get();
    world_->firstResults = std::make_unique<QSignalSpy>(c_, &ExplorerController::resultChanged);
    firstResults_ = world_->firstResults.get();
    QVERIFY(!c_->lastResult());
    c_->start();
    QVERIFY(settle());
    QVERIFY(c_->lastResult());
}

void TstExplorerController::cleanup() { world_.reset(); }

bool TstExplorerController::settle() const {
    return QTest::qWaitFor([this] { return !c_->computeService()->busy() && !c_->dataService()->loading(); },
                           10000);
}

void TstExplorerController::deliversTheModelsResult() {
    QCOMPARE(firstResults_->count(), 1);
    const ExplorerResultPtr r = c_->lastResult();
    QCOMPARE(firstResults_->first().at(0).value<ExplorerResultPtr>(), r);
    QVERIFY(firstResults_->first().at(1).toULongLong() > 0);
    QVERIFY(firstResults_->first().at(2).toDouble() >= 0);
    QVERIFY(!c_->resultIsStale());
    QVERIFY(r->spec == model_->spec());
    // Computed on the data service's dataset: the statistics are those of the core
    // quantizer's outputs, to the last bit (the result keeps no outputs: the views never
    // show them).
    const DatasetPtr data = c_->dataService()->dataset();
    QCOMPARE(data->values.size(), size_t(20000));
    QVERIFY(r->output.empty());
    auto q = qs::SliceQuantizer::make(r->spec, r->spec.min_range, r->spec.max_range);
    QVERIFY(q);
    std::vector<float> outputs;
    for (float x : data->values) outputs.push_back(q->value(x));
    const auto expected = qs::analysis::errorStats(data->values, outputs);
    QVERIFY(expected);
    QCOMPARE(r->stats.count, expected->count);
    QCOMPARE(r->stats.mse, expected->mse);
    QCOMPARE(r->stats.mean_error, expected->mean_error);
    QCOMPARE(r->stats.distinct_levels, expected->distinct_levels);

    // An edit recomputes; so does a new data source.
    model_->setType(qs::QType::QUInt8);
    QVERIFY(settle());
    QCOMPARE(c_->lastResult()->spec.T, qs::QType::QUInt8);
    model_->setDataSource(DataSource{QStringLiteral("uniform:n=3000,seed=2,low=-1,high=1"), QString()});
    QVERIFY(settle());
    QCOMPARE(c_->lastResult()->stats.count, 3000);
    QVERIFY(c_->lastResult()->spec == model_->spec());
    QCOMPARE(firstResults_->count(), 3);
}

void TstExplorerController::newestRequestWins() {
    std::vector<float> deliveredMax;
    std::vector<bool> staleAtDelivery;
    QObject scope;  // the connection ends with this test
    connect(c_, &ExplorerController::resultChanged, &scope, [&](ExplorerResultPtr r) {
        deliveredMax.push_back(r->spec.max_range);
        staleAtDelivery.push_back(c_->resultIsStale());
        QCOMPARE(c_->lastResult(), r);
    });
    // Three edits before the event loop runs: the first starts, the third replaces the
    // second in the queue, so the second is never computed.
    model_->setMaxRange(2.0f);
    model_->setMaxRange(1.5f);
    model_->setMaxRange(1.0f);
    QVERIFY(settle());
    QCOMPARE(deliveredMax, (std::vector<float>{2.0f, 1.0f}));
    // The first result arrived while the newest request ran: on show, but stale.
    QCOMPARE(staleAtDelivery, (std::vector<bool>{true, false}));
    QVERIFY(!c_->resultIsStale());
    QVERIFY(c_->lastResult()->spec == model_->spec());
}

void TstExplorerController::dragIsOneUndoStep() {
    QSignalSpy specChanged(model_, &ExplorerModel::specChanged);
    for (int i = 1; i <= 5; ++i) c_->dragRange(-3.0f + 0.2f * i, 3.0f, false);
    c_->dragRange(-1.5f, 3.0f, true);
    QCOMPARE(specChanged.count(), 6);  // the views follow every step
    QCOMPARE(model_->minRange(), -1.5f);
    QCOMPARE(model_->undoStack()->count(), 1);
    // A second drag is a second step.
    c_->dragRange(-1.5f, 2.0f, false);
    c_->dragRange(-1.5f, 1.0f, true);
    QCOMPARE(model_->undoStack()->count(), 2);
    QVERIFY(settle());
    QCOMPARE(c_->lastResult()->spec.max_range, 1.0f);
    QCOMPARE(c_->lastResult()->spec.min_range, -1.5f);
    QVERIFY(!c_->resultIsStale());

    model_->undoStack()->undo();
    QCOMPARE(model_->maxRange(), 3.0f);
    QCOMPARE(model_->minRange(), -1.5f);
    model_->undoStack()->undo();
    QCOMPARE(model_->minRange(), -3.0f);
    // A click on a handle without moving it: one finished step.
    c_->dragRange(-2.0f, 3.0f, true);
    QCOMPARE(model_->undoStack()->count(), 1);
    QCOMPARE(model_->minRange(), -2.0f);
    QVERIFY(settle());
}

void TstExplorerController::modeCyclingQuantizeV2() {
    using M = qs::QuantizeMode;
    QCOMPARE(model_->mode(), M::Scaled);
    c_->stepMode(+1);
    QCOMPARE(model_->mode(), M::MinCombined);
    QCOMPARE(model_->undoStack()->undoText(), QStringLiteral("Mode: MIN_COMBINED"));
    c_->stepMode(+1);
    QCOMPARE(model_->mode(), M::MinFirst);
    c_->stepMode(+1);
    QCOMPARE(model_->mode(), M::Scaled);
    c_->stepMode(-1);
    QCOMPARE(model_->mode(), M::MinFirst);
    QCOMPARE(model_->undoStack()->count(), 4);

    // HALF_TO_EVEN is SCALED's only: leaving SCALED goes back to HALF_AWAY_FROM_ZERO (or TF refuses).
    qs::QuantSpec s = model_->spec();
    s.mode = M::Scaled;
    s.round_mode = qs::RoundMode::HalfToEven;
    model_->editSpec(s, QStringLiteral("test"));
    c_->stepMode(-1);
    QCOMPARE(model_->mode(), M::MinFirst);
    QCOMPARE(model_->roundMode(), qs::RoundMode::HalfAwayFromZero);
    QCOMPARE(model_->undoStack()->count(), 6);
    QVERIFY(settle());
    QVERIFY(!c_->resultIsStale());
    QVERIFY(c_->lastResult()->spec == model_->spec());
}

void TstExplorerController::modeCyclingRoundModes() {
    model_->setOp(qs::QuantOp::QuantizeAndDequantizeV2);
    const auto modes = qs::roundModesFor(model_->op());
    QCOMPARE(modes.size(), size_t(2));
    QCOMPARE(model_->roundMode(), modes[0]);
    c_->stepMode(+1);
    QCOMPARE(model_->roundMode(), modes[1]);
    c_->stepMode(+1);  // wraps around
    QCOMPARE(model_->roundMode(), modes[0]);
    c_->stepMode(-1);
    QCOMPARE(model_->roundMode(), modes[1]);
    QCOMPARE(model_->undoStack()->count(), 4);
    // An op without round modes: nothing to cycle, no undo step.
    model_->setOp(qs::QuantOp::QuantizeAndDequantizeV3);
    const qs::QuantSpec v3 = model_->spec();
    c_->stepMode(+1);
    QVERIFY(model_->spec() == v3);
    QCOMPARE(model_->undoStack()->count(), 5);
    QVERIFY(settle());
}

// Following the per-channel view's "set an axis" with QDQ V4's range_given on gives TF's
// "input_min must be a scalar": the message keeps TF's words and says what to change.
void TstExplorerController::perChannelQdqWithAGivenRangeSaysWhatToDo() {
    model_->setOp(qs::QuantOp::QuantizeAndDequantizeV4);
    QVERIFY(model_->spec().range_given);
    QVERIFY(settle());
    QVERIFY(!c_->resultIsStale());
    QSignalSpy failed(c_, &ExplorerController::computeFailed);
    model_->setAxis(0);
    QVERIFY(settle());
    QCOMPARE(failed.count(), 1);
    const QString text = failed.first().first().toString();
    QVERIFY2(text.startsWith(QStringLiteral("InvalidArgument: input_min must be a scalar.")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("untick range_given")), qPrintable(text));
    // With range_given off each channel uses its own range: no failure.
    qs::QuantSpec s = model_->spec();
    s.range_given = false;
    model_->editSpec(s, QStringLiteral("range_given off"));
    QVERIFY(settle());
    QVERIFY(!c_->resultIsStale());
    QCOMPARE(c_->lastResult()->spec.axis, 0);
}

void TstExplorerController::errorsReachTheUser_data() {
    QTest::addColumn<int>("maxRangeOrBuckets");
    QTest::addColumn<bool>("tpu");
    QTest::addColumn<QString>("text");
    QTest::newRow("max_range < min_range")
        << -4 << false << QStringLiteral("InvalidArgument: input_max_range must be larger than input_min_range.");
    QTest::newRow("TPU num_buckets = 1")
        << 1 << true << QStringLiteral("ValueError: num_buckets is 1, must be at least 2 for simulated quantization.");
}

void TstExplorerController::errorsReachTheUser() {
    QFETCH(int, maxRangeOrBuckets);
    QFETCH(bool, tpu);
    QFETCH(QString, text);
    if (tpu) {
        model_->setOp(qs::QuantOp::TpuSimulatedQuantization);
        QVERIFY(settle());
    }
    const ExplorerResultPtr valid = c_->lastResult();
    QSignalSpy failed(c_, &ExplorerController::computeFailed);
    QSignalSpy results(c_, &ExplorerController::resultChanged);
    if (tpu) model_->setNumBuckets(maxRangeOrBuckets);
    else model_->setMaxRange(static_cast<float>(maxRangeOrBuckets));
    QVERIFY(settle());
    QCOMPARE(failed.count(), 1);
    QCOMPARE(failed.first().first().toString(), text);
    QCOMPARE(results.count(), 0);
    QVERIFY(c_->resultIsStale());
    QCOMPARE(c_->lastResult(), valid);  // the last valid result stays on show

    // Fixing the parameter brings a result again, no longer stale.
    if (tpu) model_->setNumBuckets(2);
    else model_->setMaxRange(2.0f);
    QVERIFY(settle());
    QCOMPARE(results.count(), 1);
    QCOMPARE(failed.count(), 1);
    QVERIFY(!c_->resultIsStale());
    QVERIFY(c_->lastResult() != valid);
    QVERIFY(c_->lastResult()->spec == model_->spec());
}

void TstExplorerController::aSpecEditDuringACancelledLoadRunsOnTheOldData() {
    // A spec edit waits for the data being loaded; when that load is cancelled (or replaced
    // and then cancelled) the edit must still be computed, on the data that stays.
    const DatasetPtr data = c_->dataService()->dataset();
    QSignalSpy results(c_, &ExplorerController::resultChanged);
    DataSource a = model_->dataSource(), b = a;
    a.generator = QStringLiteral("normal:n=1000000,seed=5");
    b.generator = QStringLiteral("normal:n=1000000,seed=6");
    model_->setDataSource(a);
    model_->setMaxRange(2.5f);
    model_->setDataSource(b);  // replaces the first load, which is discarded
    c_->dataService()->cancel();
    QVERIFY(settle());
    QCOMPARE(c_->dataService()->dataset(), data);
    QVERIFY(results.count() >= 1);
    QVERIFY(c_->lastResult()->spec == model_->spec());
    QCOMPARE(c_->lastResult()->spec.max_range, 2.5f);
    QVERIFY(!c_->resultIsStale());
}

void TstExplorerController::brokenDataKeepsThePreviousData() {
    const ExplorerResultPtr before = c_->lastResult();
    const DatasetPtr data = c_->dataService()->dataset();
    const QString broken = dir_->filePath(QStringLiteral("broken.npy"));
    QVERIFY(writeText(broken, "this is not a numpy file"));
    QSignalSpy failed(c_->dataService(), &DataService::failed);
    QSignalSpy results(c_, &ExplorerController::resultChanged);
    c_->openDataFile(broken);
    QCOMPARE(model_->dataSource().path, broken);
    QCOMPARE(model_->undoStack()->count(), 1);
    QVERIFY(settle());
    QCOMPARE(failed.count(), 1);
    QVERIFY2(failed.first().first().toString().contains(QLatin1String("broken.npy")),
             qPrintable(failed.first().first().toString()));
    QCOMPARE(results.count(), 0);
    QCOMPARE(c_->dataService()->dataset(), data);
    QCOMPARE(c_->lastResult(), before);
    // Parameters still apply to the previous data.
    model_->setMaxRange(2.0f);
    QVERIFY(settle());
    QCOMPARE(results.count(), 1);
    QCOMPARE(c_->lastResult()->stats.count, 20000);
    QVERIFY(!c_->resultIsStale());
}

void TstExplorerController::rangeFromData() {
    const ExplorerResultPtr r = c_->lastResult();
    QVERIFY(r->clipped_below + r->clipped_above > 0);  // N(0, 1) beyond ±3
    QVERIFY(c_->rangeFromData());
    QCOMPARE(model_->minRange(), r->data_min);
    QCOMPARE(model_->maxRange(), r->data_max);
    QCOMPARE(model_->undoStack()->count(), 1);
    QVERIFY(settle());
    QCOMPARE(c_->lastResult()->clipped_below + c_->lastResult()->clipped_above, 0);
    QVERIFY(c_->rangeFromData());  // no change: no new step
    QCOMPARE(model_->undoStack()->count(), 1);

    // No result yet (nothing loaded): nothing to take the range from.
    ExplorerModel fresh;
    ExplorerController idle(&fresh);
    QVERIFY(!idle.rangeFromData());
    QCOMPARE(fresh.undoStack()->count(), 0);
}

void TstExplorerController::curveChannelRecomputes() {
    // 100 rows of 4 columns: shape [100, 4], channels along axis 1.
    QByteArray csv;
    for (int row = 0; row < 100; ++row)
        for (int col = 0; col < 4; ++col)
            csv += QByteArray::number((row - 50) * 0.01 * (col + 1)) + (col == 3 ? "\n" : ",");
    const QString path = dir_->filePath(QStringLiteral("channels.csv"));
    QVERIFY(writeText(path, csv));
    c_->openDataFile(path);
    QVERIFY(settle());
    QCOMPARE(c_->dataService()->dataset()->shape, (qs::Shape{100, 4}));
    QCOMPARE(c_->lastResult()->stats.count, 400);

    // One slice: the channel picks nothing, no computation.
    QSignalSpy results(c_, &ExplorerController::resultChanged);
    ViewState v = model_->viewState();
    v.channel = 2;
    model_->setViewState(v);
    QVERIFY(!c_->computeService()->busy());
    QCOMPARE(c_->lastResult()->curve_channel, 0);

    // Per channel: the curve's channel is an input of the computation.
    model_->setAxis(1);
    QVERIFY(settle());
    QCOMPARE(c_->lastResult()->run.slices.size(), size_t(4));
    QCOMPARE(c_->lastResult()->curve_channel, 2);
    v.channel = 3;
    model_->setViewState(v);
    QVERIFY(c_->computeService()->busy());
    QVERIFY(settle());
    QCOMPARE(c_->lastResult()->curve_channel, 3);
    QCOMPARE(c_->lastResult()->curve.output_max, c_->lastResult()->channels[3].quant.output_max);
    QCOMPARE(results.count(), 2);
}

void TstExplorerController::viewStateEditsAreNotUndoSteps() {
    QSignalSpy viewChanged(model_, &ExplorerModel::viewStateChanged);
    c_->setCurrentTab(3);
    c_->setErrorLogScale(true);
    c_->setDarkTheme(true);
    QCOMPARE(viewChanged.count(), 3);
    QCOMPARE(model_->viewState().tab, 3);
    QVERIFY(model_->viewState().errorLogScale);
    QVERIFY(model_->viewState().dark);
    QCOMPARE(model_->undoStack()->count(), 0);
    QVERIFY(!c_->computeService()->busy());  // presentation only
    c_->setDarkTheme(false);
    QVERIFY(!model_->viewState().dark);
    QCOMPARE(model_->viewState().tab, 3);
}

QTEST_GUILESS_MAIN(TstExplorerController)
#include "tst_explorer_controller.moc"
