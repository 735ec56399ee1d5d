// A data file larger than the memory budget in the explorer window (fixture:
// explorer_window_test.h): with the budget set low, a .npy opens streamed (its values never
// read into the data set), the views fill with exactly the statistics and histograms the
// in-memory path gives, the pass shows progress, Cancel stops it, and the analysis tabs run
// on a labelled sample (or say why they are off).
#include <QProgressBar>
#include <QPushButton>
#include <condition_variable>
#include <mutex>
#include <random>

#include "core/analysis/explorer.h"
#include "core/data/npy_reader.h"
#include "core/data/stream_sample.h"
#include "session/explorer/explorer_controller.h"
#include "tests/ui/explorer_window_test.h"
#include "ui/analysis/analysis_tabs.h"
#include "ui/analysis/bit_sweep_view.h"
#include "ui/analysis/calibration_panel.h"
#include "ui/analysis/clip_sweep_view.h"
#include "ui/analysis/comparison_view.h"
#include "ui/status/job_status.h"
#include "ui/views/framework_view.h"

namespace {

constexpr int64_t kValues = 3'000'000;  // 12 MB of float32, over the 1 MB budget set below

std::vector<float> fileValues() {
    std::mt19937 rng(3);
    std::normal_distribution<float> normal(0.25f, 1.5f);
    std::vector<float> v(static_cast<size_t>(kValues));
    for (float& x : v) x = normal(rng);
    return v;
}

// A stream whose reads past `gate` wait until release(): a pass over it is still running
// when the test clicks Cancel, whatever the machine's speed.
class GatedStream final : public qs::data::FloatStream {
public:
    GatedStream(int64_t n, int64_t gate) : n_(n), gate_(gate) {}
    int64_t size() const override { return n_; }
    qs::Status read(int64_t begin, std::span<float> out) const override {
        if (begin >= gate_) {
            std::unique_lock lock(mutex_);
            released_.wait(lock, [this] { return open_; });
        }
        for (size_t i = 0; i < out.size(); ++i) out[i] = static_cast<float>((begin + static_cast<int64_t>(i)) % 1000);
        return qs::okStatus();
    }
    std::string name() const override { return "gated"; }
    void release() const {
        {
            std::lock_guard lock(mutex_);
            open_ = true;
        }
        released_.notify_all();
    }

private:
    int64_t n_, gate_;
    mutable std::mutex mutex_;
    mutable std::condition_variable released_;
    mutable bool open_ = false;
};

}  // namespace

class TstMainWindowLarge : public ExplorerWindowTest {
    Q_OBJECT

private slots:
    void aFileOverTheBudgetOpensStreamed();
    void cancelStopsAStreamedPass();
    void analysesRunOnALabelledSample();
    void aModelTensorOverTheBudgetOpensStreamed();

private:
    void openStreamed();
    std::vector<float> values_;
};

// Opens the test file with a 1 MB budget: the data set is streamed.
void TstMainWindowLarge::openStreamed() {
    values_ = fileValues();
    const QString path = dir_->filePath(QStringLiteral("large.npy"));
    QVERIFY(writeNpy(path, values_, QString::number(kValues) + QLatin1Char(',')));
    w_->dataService()->setMemoryBudget(int64_t{1} << 20);
    DataSource source = model_->dataSource();
    source.path = path;
    model_->setDataSource(source);
    QVERIFY(settle());
    const DatasetPtr d = w_->dataService()->dataset();
    QVERIFY(d && d->streamed());
    QVERIFY(d->values.empty());  // nothing of the file's size was allocated for the data set
    QCOMPARE(d->size(), kValues);
}

void TstMainWindowLarge::aFileOverTheBudgetOpensStreamed() {
    // The window's bar shows the pass while it runs (recorded after the window's own slot).
    bool barShownDuringPass = false;
    int progressReports = 0;
    connect(w_->computeService(), &ComputeService::progress, this, [&](double) {
        ++progressReports;
        barShownDuringPass |= child<QProgressBar>("explorerProgress")->isVisible();
    });
    CHECK(openStreamed());
    CHECK(verifyShowsModel());
    QVERIFY(progressReports > 0);
    QVERIFY(barShownDuringPass);
    QVERIFY(!child<QProgressBar>("explorerProgress")->isVisible());  // hidden once the result is in
    QVERIFY(!child<QPushButton>("explorerCancel")->isVisible());
    // The data panel says where the values are.
    const QString info = child<QLabel>("dataInfoLabel")->text();
    QVERIFY2(info.contains(QStringLiteral("Streamed from the file: larger than the memory budget of 1")), qPrintable(info));
    QVERIFY(child<QLabel>("explorerStatusLabel")->text().contains(QLocale().toString(static_cast<qlonglong>(kValues)) +
                                                          QStringLiteral(" values")));

    // Exactly what the in-memory path gives: statistics, range, both histograms, clipping.
    const ExplorerResultPtr r = w_->lastResult();
    auto memory = qs::analysis::computeExplorer(model_->spec(), qs::TensorRef<float>{values_, {kValues}});
    QVERIFY(memory.ok());
    QCOMPARE(r->stats.count, memory->stats.count);
    QCOMPARE(r->stats.mse, memory->stats.mse);
    QCOMPARE(r->stats.sqnr_db, memory->stats.sqnr_db);
    QCOMPARE(r->stats.max_abs_error, memory->stats.max_abs_error);
    QCOMPARE(r->stats.distinct_levels, memory->stats.distinct_levels);
    QCOMPARE(r->data_min, memory->data_min);
    QCOMPARE(r->data_max, memory->data_max);
    QCOMPARE(r->data_hist.counts, memory->data_hist.counts);
    QCOMPARE(r->error_hist.counts, memory->error_hist.counts);
    QCOMPARE(r->clipped_below, memory->clipped_below);
    QCOMPARE(r->clipped_above, memory->clipped_above);
    QVERIFY(r->output.empty());  // no per-element output for a streamed data set

    // An edit runs another pass over the file, and the views follow.
    model_->setRange(-1.0f, 1.0f);
    QVERIFY(settle());
    CHECK(verifyShowsModel());
    QVERIFY(w_->lastResult() != r);
}

void TstMainWindowLarge::cancelStopsAStreamedPass() {
    const ExplorerResultPtr before = w_->lastResult();
    auto stream = std::make_shared<GatedStream>(int64_t{5} << 22, int64_t{2} << 22);  // blocks at chunk 3
    auto data = std::make_shared<qs::data::Dataset>();
    data->shape = {stream->size()};
    data->label = "gated";
    data->stream = stream;
    QSignalSpy progress(w_->computeService(), &ComputeService::progress);
    QSignalSpy cancelled(w_->computeService(), &ComputeService::cancelled);
    QSignalSpy results(w_->computeService(), &ComputeService::resultReady);
    const quint64 serial = w_->computeService()->request(model_->spec(), data);
    QVERIFY(progress.wait(10000));  // the first chunks are through
    auto* bar = child<QProgressBar>("explorerProgress");
    auto* cancel = child<QPushButton>("explorerCancel");
    QVERIFY(bar->isVisible());
    QVERIFY(cancel->isVisible());
    QVERIFY(bar->value() > 0 && bar->value() < 1000);
    QTest::mouseClick(cancel, Qt::LeftButton);
    stream->release();
    QVERIFY(cancelled.wait(10000));
    QCOMPARE(cancelled.first().first().toULongLong(), serial);
    QVERIFY(settle());
    QCOMPARE(results.count(), 0);  // the pass delivered nothing
    QVERIFY(!bar->isVisible());
    QVERIFY(!cancel->isVisible());
    QCOMPARE(w_->lastResult(), before);  // the views keep what they showed

    // The explorer's own pass over a streamed file, cancelled: the views keep the last result,
    // marked out of date with the reason, and the next edit computes again.
    CHECK(openStreamed());
    const ExplorerResultPtr streamedResult = w_->lastResult();
    QSignalSpy controllerCancelled(w_->controller(), &ExplorerController::computeCancelled);
    model_->setRange(-2.0f, 2.0f);
    w_->computeService()->cancelRunning();  // what Cancel does while no load runs
    QVERIFY(controllerCancelled.wait(10000));
    QVERIFY(settle());
    QCOMPARE(w_->lastResult(), streamedResult);
    QVERIFY(w_->resultIsStale());
    const QString text = child<QLabel>("explorerStatusLabel")->text();
    QVERIFY2(text.startsWith(QStringLiteral("Computation cancelled")), qPrintable(text));
    for (int i = 0; i < kExplorerTabs; ++i)
        QCOMPARE(qobject_cast<PlotFrame*>(w_->tabs()->widget(i))->staleMessage(), text);
    model_->setRange(-1.5f, 1.5f);
    QVERIFY(settle());
    CHECK(verifyShowsModel());
}

void TstMainWindowLarge::analysesRunOnALabelledSample() {
    CHECK(openStreamed());
    auto* tabs = w_->findChild<AnalysisTabs*>();
    QVERIFY(tabs);
    QSignalSpy shown(tabs, &AnalysisTabs::resultShown);
    const QString sampled = QStringLiteral("On a uniform sample: %1 of %2 values")
                                .arg(QLocale().toString(static_cast<qlonglong>(qs::data::sampleCount(kValues))),
                                     QLocale().toString(static_cast<qlonglong>(kValues)));
    // Each analysis that needs every value in memory runs, on the sample, and says so.
    const std::vector<std::pair<QWidget*, JobStatus*>> analyses = {
        {tabs->bitSweepView(), tabs->bitSweepView()->status()},
        {tabs->clipSweepView(), tabs->clipSweepView()->status()},
        {tabs->calibrationPanel(), tabs->calibrationPanel()->status()},
    };
    for (const auto& [tab, status] : analyses) {
        shown.clear();
        w_->tabs()->setCurrentWidget(tab);
        QVERIFY(QTest::qWaitFor([&] { return !shown.isEmpty(); }, 20000));
        QVERIFY2(status->text().startsWith(sampled), qPrintable(status->text()));
    }
    QVERIFY(tabs->bitSweepView()->result());  // a sweep was drawn, not only a note
    // The Frameworks tab compares on the sample too.
    QSignalSpy compared(w_->frameworkView(), &FrameworkView::comparisonShown);
    w_->tabs()->setCurrentWidget(w_->frameworkView());
    // A generous wait: under the sanitizers, with other tests on the cores, the comparison of
    // every scheme on the sample takes seconds.
    QVERIFY2(compared.wait(60000), qPrintable(w_->frameworkView()->status()->text()));
    const QString frameworkNote = child<QLabel>("frameworkNote")->text();
    QVERIFY2(frameworkNote.contains(sampled), qPrintable(frameworkNote));

    // A per-channel comparison needs every value of its channel: off, and it says why.
    shown.clear();
    qs::QuantSpec perChannel = model_->spec();
    perChannel.axis = 0;
    tabs->comparisonView()->addConfig(perChannel);
    w_->tabs()->setCurrentWidget(tabs->comparisonView());
    QVERIFY(QTest::qWaitFor([&] { return !shown.isEmpty(); }, 20000));
    QVERIFY2(tabs->comparisonView()->status()->text().startsWith(QStringLiteral("Off for this data set")),
             qPrintable(tabs->comparisonView()->status()->text()));
}


// A model file's tensor over the budget is streamed too: its stored bytes (mapped) are read
// chunk by chunk, and the result is the in-memory one.
void TstMainWindowLarge::aModelTensorOverTheBudgetOpensStreamed() {
    values_ = fileValues();
    const std::string header = "{\"w\":{\"dtype\":\"F32\",\"shape\":[" + std::to_string(kValues / 1000) +
                               ",1000],\"data_offsets\":[0," + std::to_string(kValues * 4) + "]}}";
    QByteArray bytes(8, '\0');
    const uint64_t length = header.size();
    std::memcpy(bytes.data(), &length, 8);  // little-endian on the machines this runs on
    bytes += QByteArray::fromStdString(header);
    bytes += QByteArray(reinterpret_cast<const char*>(values_.data()), qsizetype(values_.size() * 4));
    const QString path = dir_->filePath(QStringLiteral("large.safetensors"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size());
    f.close();
    w_->dataService()->setMemoryBudget(int64_t{1} << 20);
    DataSource source = model_->dataSource();
    source.path = path;
    source.tensor = QStringLiteral("w");
    model_->setDataSource(source);
    QVERIFY(settle());
    const DatasetPtr d = w_->dataService()->dataset();
    QVERIFY(d && d->streamed() && d->values.empty());
    QCOMPARE(d->shape, (qs::Shape{kValues / 1000, 1000}));
    CHECK(verifyShowsModel());
    const ExplorerResultPtr r = w_->lastResult();
    auto memory = qs::analysis::computeExplorer(model_->spec(), qs::TensorRef<float>{values_, d->shape});
    QVERIFY(memory.ok());
    QCOMPARE(r->stats.mse, memory->stats.mse);
    QCOMPARE(r->stats.distinct_levels, memory->stats.distinct_levels);
    QCOMPARE(r->data_hist.counts, memory->data_hist.counts);
    QCOMPARE(r->error_hist.counts, memory->error_hist.counts);
    QVERIFY(child<QLabel>("dataInfoLabel")->text().contains(QStringLiteral("Streamed from the file")));
}

QTEST_MAIN(TstMainWindowLarge)
#include "tst_main_window_large.moc"
