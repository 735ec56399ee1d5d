// The stored-quantization view driven as a user sees it: a tensor handed over with
// setTensor(), the comparison computed off the UI thread and shown (rule table, exact rule
// named and selected, scatter of codes per channel, channel spin box), errors shown in place.
// On models made here (a ModelFile in memory whose codes come from a known rule) and on
// person_detect.tflite's first convolution weights and the safetensors int8 table with its
// float original. Set QS_STORED_QUANT_SCREENSHOT=<file.png> to save the latter's view.
#include <QDir>
#include <QLabel>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QtTest>
#include <cmath>

#include <qcustomplot.h>

#include <QPushButton>
#include <QTemporaryDir>

#include "core/modelfile/model_file.h"
#include "session/explorer/explorer_model.h"
#include "session/modelfile/model_file_controller.h"
#include "tests/ui/isolated_user_files.h"
#include "ui/main_window.h"
#include "ui/modelfile/model_docks.h"
#include "ui/modelfile/stored_quant_view.h"

namespace {

using qs::modelfile::DType;
using qs::modelfile::TensorData;
using qs::modelfile::TensorInfo;

// A model file in memory: tensors with their bytes.
class MemoryModel : public qs::modelfile::ModelFile {
public:
    explicit MemoryModel(std::string label) : ModelFile(std::move(label)) {}
    std::string_view format() const override { return "tflite"; }
    template <typename T>
    void add(std::string name, qs::Shape shape, DType dtype, const std::vector<T>& values,
             std::optional<qs::modelfile::StoredQuantization> q = std::nullopt) {
        TensorInfo info;
        info.name = std::move(name);
        info.shape = std::move(shape);
        info.dtype = dtype;
        info.dtype_name = std::string(qs::modelfile::dtypeName(dtype));
        info.quantization = std::move(q);
        tensors_.push_back(info);
        bytes_.emplace_back(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T));
    }

protected:
    qs::Result<TensorData> loadStored(size_t index) const override {
        TensorData t;
        t.info = tensors_[index];
        t.bytes = bytes_[index];
        return t;
    }

private:
    std::vector<std::string> bytes_;
};

// Two channels along axis 0 quantized as TFLite's converter does (symmetric, max|w|/127).
std::shared_ptr<MemoryModel> perChannelModel() {
    auto m = std::make_shared<MemoryModel>("mem.tflite");
    const std::vector<float> scale = {0.5f / 127, 0.02f / 127};
    const std::vector<int8_t> codes = {127, -64, 3, 0, 10, -127, 127, 5};
    m->add("conv/weights", {2, 4}, DType::Int8, codes, qs::modelfile::StoredQuantization{scale, {0, 0}, 0});
    const std::vector<float> f = {1.0f, 2.0f};
    m->add("bias", {2}, DType::Float32, f);
    return m;
}

bool waitShown(QSignalSpy& spy) { return spy.count() > 0 || spy.wait(20000); }

}  // namespace

class TstStoredQuantView : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QVERIFY(isolateUserFiles(settingsDir_));
    }

    // "Apply to explorer" in the window: the exact rule the dock found for the int8 table
    // (SCALED with narrow_range) becomes the explorer's spec on the float original, as one
    // undo step; a rule the explorer cannot run (another framework's) cannot be applied.
    void applyTheExactRuleToTheExplorer() {
        const QString int8 = QStringLiteral(QS_TEST_DATA_DIR "/models/safetensors/test-model-int8.safetensors");
        const QString float32 = QStringLiteral(QS_TEST_DATA_DIR "/models/safetensors/test-model-float32.safetensors");
        qs::ui::ExplorerModel model;
        model.reset(model.spec(), qs::ui::DataSource{QStringLiteral("normal:n=1000,seed=1"), {}, {}}, {});
        qs::ui::MainWindow w(&model);
        w.setUnsavedChangesPrompt([] { return qs::ui::MainWindow::UnsavedChoice::Discard; });
        w.show();
        QSignalSpy opened(w.modelFiles(), &qs::ui::ModelFileController::opened);
        w.openModel(int8);
        QVERIFY(opened.wait(20000));
        QVERIFY(w.modelFiles()->selectTensor(QStringLiteral("embeddings")));
        qs::ui::StoredQuantView* view = w.modelDocks()->storedView();
        QSignalSpy shown(view, &qs::ui::StoredQuantView::comparisonShown);
        QVERIFY(w.modelDocks()->setOriginal(float32));
        QTRY_VERIFY_WITH_TIMEOUT(view->comparison() && !view->busy(), 20000);
        // Kept: once the explorer explores the float original, the dock follows it.
        const qs::ui::StoredQuantPtr comparison = view->comparison();
        const auto& c = *comparison;
        QCOMPARE(QString::fromStdString(c.rules[static_cast<size_t>(c.exact_rule)].label),
                 QStringLiteral("TF QuantizeV2 SCALED qint8, narrow_range"));
        QCOMPARE(view->selectedRule(), c.exact_rule);
        QVERIFY(view->applyButton()->isEnabled());

        const qs::QuantSpec before = model.spec();
        const qs::ui::DataSource dataBefore = model.dataSource();
        const int steps = model.undoStack()->count();
        QTest::mouseClick(view->applyButton(), Qt::LeftButton);
        const qs::QuantSpec& s = model.spec();
        QCOMPARE(s.op, qs::QuantOp::QuantizeV2);
        QCOMPARE(s.mode, qs::QuantizeMode::Scaled);
        QCOMPARE(s.T, qs::QType::QInt8);
        QVERIFY(s.narrow_range);
        QCOMPARE(s.axis, int64_t{-1});
        QCOMPARE(s.range_source, qs::RangeSource::Given);
        // The table's own range (lesson 13 gives the same numbers).
        QCOMPARE(s.min_range, -52.459381103515625f);
        QCOMPARE(s.max_range, 41.70131301879883f);
        QCOMPARE(QFileInfo(model.dataSource().path).fileName(), QStringLiteral("test-model-float32.safetensors"));
        QCOMPARE(model.dataSource().tensor, QStringLiteral("embeddings"));
        QCOMPARE(model.undoStack()->count(), steps + 1);
        model.undoStack()->undo();
        QVERIFY(model.spec() == before);
        QCOMPARE(model.dataSource(), dataBefore);
        model.undoStack()->redo();
        QCOMPARE(model.spec().min_range, -52.459381103515625f);

        // Another framework's scheme (PyTorch's) is not a TF op: nothing to apply.
        model.undoStack()->undo();  // the int8 file's codes in the dock again
        QTRY_VERIFY2_WITH_TIMEOUT(view->comparison() && !view->busy(), qPrintable(view->summaryLabel()->text() + " | " + model.dataSource().path + " | " + w.modelFiles()->path()), 5000);
        int pytorch = -1;
        for (int r = 0; r < static_cast<int>(c.rules.size()); ++r)
            if (QString::fromStdString(c.rules[static_cast<size_t>(r)].label).startsWith(QLatin1String("PyTorch"))) pytorch = r;
        QVERIFY(pytorch >= 0);
        view->rulesTable()->selectRow(pytorch);
        QVERIFY(!view->applyButton()->isEnabled());
        QString error;
        QVERIFY(!w.modelFiles()->applyStoredRule(c, pytorch, float32, &error));
        QVERIFY2(error.contains(QLatin1String("TensorFlow's ops only")), qPrintable(error));
    }

    // Per channel: the rule runs on each channel's own range along the stored axis.
    void explorerSpecPerChannel() {
        auto opened = qs::modelfile::openModel(QS_TEST_DATA_DIR "/models/tflite/person_detect.tflite");
        QVERIFY(opened.ok());
        const auto& model = *opened;
        qs::ui::StoredQuantService service;
        qs::ui::StoredQuantView view(&service);
        QSignalSpy shown(&view, &qs::ui::StoredQuantView::comparisonShown);
        view.setTensor(model, static_cast<int>(model->find("MobilenetV1/Conv2d_0/weights/read")));
        QVERIFY(waitShown(shown));
        const auto spec = qs::analysis::explorerSpecOf(*view.comparison(), view.comparison()->exact_rule);
        QVERIFY(spec.has_value());
        QCOMPARE(spec->axis, int64_t{3});
        QCOMPARE(spec->range_source, qs::RangeSource::FromData);
        QVERIFY(spec->narrow_range);
        QCOMPARE(spec->mode, qs::QuantizeMode::Scaled);
        QVERIFY(!qs::analysis::explorerSpecOf(*view.comparison(), -1));
        QVERIFY(!qs::analysis::explorerSpecOf(*view.comparison(), 1000));
    }

    void showsTheRulesAndTheExactOne() {
        qs::ui::StoredQuantService service;
        qs::ui::StoredQuantView view(&service);
        view.resize(900, 700);
        view.show();
        QSignalSpy shown(&view, &qs::ui::StoredQuantView::comparisonShown);
        view.setTensor(perChannelModel(), 0);
        QVERIFY(waitShown(shown));
        const auto& c = *view.comparison();
        QCOMPARE(c.channels, int64_t{2});
        QVERIFY(c.exact_rule >= 0);
        QTableWidget* table = view.rulesTable();
        QCOMPARE(table->rowCount(), static_cast<int>(c.rules.size()));
        int exactRows = 0;
        for (int r = 0; r < table->rowCount(); ++r) {
            const auto& rule = c.rules[static_cast<size_t>(r)];
            QCOMPARE(table->item(r, 0)->text(), QString::fromStdString(rule.label));
            QCOMPARE(table->item(r, 4)->text(), rule.exact() ? QStringLiteral("yes") : QStringLiteral("no"));
            if (rule.exact()) {
                ++exactRows;
                QCOMPARE(table->item(r, 1)->text(), QStringLiteral("0"));
            } else {
                QCOMPARE(table->item(r, 1)->text(), QString::number(rule.differing));
            }
        }
        QVERIFY(exactRows >= 1);
        // The exact rule is named above the table and its row is selected.
        const QString exact = QString::fromStdString(c.rules[static_cast<size_t>(c.exact_rule)].label);
        QVERIFY2(view.summaryLabel()->text().startsWith(exact), qPrintable(view.summaryLabel()->text()));
        QVERIFY(view.summaryLabel()->text().contains("reproduces all 8 stored codes"));
        QCOMPARE(table->selectionModel()->selectedRows().size(), 1);
        // In a side dock's width (a 1280-pixel screen) the columns fit without scrolling and
        // the rules' names keep a third of it: the figures' headers take two lines.
        view.resize(430, 700);
        const auto columnsWidth = [table] {
            int sum = 0;
            for (int c = 0; c < table->columnCount(); ++c) sum += table->columnWidth(c);
            return sum;
        };
        QTRY_VERIFY2(columnsWidth() <= table->viewport()->width(),
                     qPrintable(QStringLiteral("%1 px of columns in %2").arg(columnsWidth()).arg(table->viewport()->width())));
        QVERIFY(table->columnWidth(0) >= table->viewport()->width() / 3);
        QCOMPARE(table->selectionModel()->selectedRows()[0].row(), c.exact_rule);
        QVERIFY(view.sourceLabel()->text().contains("round-trip"));

        // The scatter shows channel 0's four codes; the spin box moves it to channel 1.
        QCOMPARE(view.channelBox()->maximum(), 1);
        QCOMPARE(view.codesGraph()->dataCount(), 4);
        QCOMPARE(view.codesGraph()->data()->at(3)->value, 127.0);  // sorted by x: 0.5 is largest
        view.channelBox()->setValue(1);
        QCOMPARE(view.codesGraph()->dataCount(), 4);
        double lo = 1e9, hi = -1e9;
        for (auto it = view.codesGraph()->data()->constBegin(); it != view.codesGraph()->data()->constEnd(); ++it) {
            lo = std::min(lo, it->value);
            hi = std::max(hi, it->value);
        }
        QCOMPARE(lo, -127.0);
        QCOMPARE(hi, 127.0);
        // Dequantized values sit at code × scale of channel 1; in a round trip they are the
        // input itself, so the error series is 0 throughout.
        const auto csv = view.csvTable();
        QCOMPARE(csv.columns.size(), size_t{4});
        QCOMPARE(static_cast<float>(*std::max_element(csv.columns[2].begin(), csv.columns[2].end())), 127 * (0.02f / 127));
        QCOMPARE(view.errorGraph()->dataCount(), 4);
        for (auto it = view.errorGraph()->data()->constBegin(); it != view.errorGraph()->data()->constEnd(); ++it)
            QCOMPARE(it->value, 0.0);
        QCOMPARE(csv.columns[1].size(), size_t{4});
    }

    void aTensorWithoutCodesShowsItsError() {
        qs::ui::StoredQuantService service;
        qs::ui::StoredQuantView view(&service);
        QSignalSpy failed(&view, &qs::ui::StoredQuantView::failed);
        view.setTensor(perChannelModel(), 1);
        QVERIFY(failed.wait(20000));
        const QString message = failed.at(0).at(0).toString();
        QVERIFY2(message.contains("mem.tflite") && message.contains("'bias'"), qPrintable(message));
        QCOMPARE(view.summaryLabel()->text(), message);
        QCOMPARE(view.rulesTable()->rowCount(), 0);
        QVERIFY(!view.comparison());
    }

    // With a float original in another file, the rules quantize its values.
    void comparesWithTheOriginal() {
        auto stored = std::make_shared<MemoryModel>("int8.safetensors");
        auto original = std::make_shared<MemoryModel>("float32.safetensors");
        const std::vector<float> x = {0.25f, -0.5f, 0.125f, 0.3f};
        std::vector<int8_t> codes;
        for (float v : x) codes.push_back(static_cast<int8_t>(std::lround(v / 0.5f * 127)));
        stored->add("embeddings", {2, 2}, DType::Int8, codes);
        original->add("embeddings", {2, 2}, DType::Float32, x);
        qs::ui::StoredQuantService service;
        qs::ui::StoredQuantView view(&service);
        QSignalSpy shown(&view, &qs::ui::StoredQuantView::comparisonShown);
        view.setTensor(stored, 0, original);
        QVERIFY(waitShown(shown));
        QVERIFY(!view.comparison()->round_trip);
        QVERIFY2(view.sourceLabel()->text().contains("float32.safetensors › embeddings"), qPrintable(view.sourceLabel()->text()));
        QVERIFY(view.comparison()->exact_rule >= 0);
        // The newest tensor wins; clear() empties the view.
        view.clear();
        QCOMPARE(view.rulesTable()->rowCount(), 0);
        QCOMPARE(view.codesGraph()->dataCount(), 0);
    }

    // Selecting another tensor before the first comparison arrives shows only the newer one.
    void theNewestTensorWins() {
        auto other = std::make_shared<MemoryModel>("other.tflite");
        const std::vector<int8_t> codes = {-127, 0, 127};
        other->add("fc/weights", {3}, DType::Int8, codes, qs::modelfile::StoredQuantization{{0.1f}, {0}, 0});
        qs::ui::StoredQuantService service;
        qs::ui::StoredQuantView view(&service);
        QSignalSpy shown(&view, &qs::ui::StoredQuantView::comparisonShown);
        view.setTensor(perChannelModel(), 0);
        view.setTensor(other, 0);
        QVERIFY(waitShown(shown));
        QTest::qWait(100);
        QCOMPARE(shown.count(), 1);
        QCOMPARE(view.comparison()->tensor, std::string("fc/weights"));
        QCOMPARE(view.rulesTable()->rowCount(), static_cast<int>(view.comparison()->rules.size()));
    }

    // person_detect.tflite: its first convolution's int8 weights [1, 3, 3, 8], per channel on
    // axis 3; QuantizeV2 SCALED narrow_range gives all 72 codes back (a round trip).
    void personDetectFirstConvolution() {
        auto opened = qs::modelfile::openModel(QS_TEST_DATA_DIR "/models/tflite/person_detect.tflite");
        QVERIFY2(opened.ok(), opened.ok() ? "" : opened.error().message.c_str());
        const auto& model = *opened;
        const int index = static_cast<int>(model->find("MobilenetV1/Conv2d_0/weights/read"));
        QVERIFY(index >= 0);
        qs::ui::StoredQuantService service;
        qs::ui::StoredQuantView view(&service);
        QSignalSpy shown(&view, &qs::ui::StoredQuantView::comparisonShown);
        view.setTensor(model, index);
        QVERIFY(waitShown(shown));
        const auto& c = *view.comparison();
        QCOMPARE(c.axis, 3);
        QCOMPARE(c.channels, int64_t{8});
        QCOMPARE(view.rulesTable()->rowCount(), static_cast<int>(c.rules.size()));
        QVERIFY2(c.exact_rule >= 0, c.summary.c_str());
        const QString exact = view.rulesTable()->item(c.exact_rule, 0)->text();
        QVERIFY2(view.summaryLabel()->text().startsWith(exact), qPrintable(view.summaryLabel()->text()));
        QCOMPARE(exact, QStringLiteral("TF QuantizeV2 SCALED qint8, narrow_range"));
        QCOMPARE(view.rulesTable()->item(c.exact_rule, 4)->text(), QStringLiteral("yes"));
        QCOMPARE(view.rulesTable()->item(0, 1)->text(), QStringLiteral("29"));  // full-range SCALED
        QCOMPARE(view.rulesTable()->item(0, 2)->text(), QStringLiteral("6 of 8"));
        QCOMPARE(view.channelBox()->maximum(), 7);
        QCOMPARE(view.codesGraph()->dataCount(), 9);  // 3 × 3 weights per output channel
        QVERIFY(view.sourceLabel()->text().contains("round-trip"));
    }

    // The safetensors pair: the int8 table against the float file it was made from.
    void safetensorsPairWithItsOriginal() {
        auto stored = qs::modelfile::openModel(QS_TEST_DATA_DIR "/models/safetensors/test-model-int8.safetensors");
        auto original = qs::modelfile::openModel(QS_TEST_DATA_DIR "/models/safetensors/test-model-float32.safetensors");
        QVERIFY(stored.ok() && original.ok());
        qs::ui::StoredQuantService service;
        qs::ui::StoredQuantView view(&service);
        view.resize(1100, 800);
        view.show();
        QSignalSpy shown(&view, &qs::ui::StoredQuantView::comparisonShown);
        view.setTensor(*stored, 0, *original);
        QVERIFY(waitShown(shown));
        QVERIFY(view.summaryLabel()->text().startsWith("TF QuantizeV2 SCALED qint8, narrow_range per tensor reproduces all 59056"));
        QVERIFY(view.sourceLabel()->text().contains("test-model-float32.safetensors › embeddings"));
        QCOMPARE(view.rulesTable()->item(0, 1)->text(), QStringLiteral("11120"));
        QCOMPARE(view.channelBox()->maximum(), 0);
        QCOMPARE(view.codesGraph()->dataCount(), 59056 / 3 + 1);  // every third point: at most 20000
        // Against the original the error is the quantization's: within half a step,
        // max|x| / 127 / 2 (the implied scale is in the source line).
        const auto csv = view.csvTable();
        const double step = view.comparison()->dequantized[0] / view.comparison()->codes[0];
        double worst = 0;
        for (double e : csv.columns[3]) worst = std::max(worst, std::fabs(e));
        QVERIFY(worst > 0.4 * step && worst <= 0.5 * step * (1 + 1e-5));
        const QString shot = qEnvironmentVariable("QS_STORED_QUANT_SCREENSHOT");
        if (!shot.isEmpty()) {
            QTest::qWait(200);
            QVERIFY(view.grab().save(shot));
        }
    }

private:
    QTemporaryDir settingsDir_;
};

QTEST_MAIN(TstStoredQuantView)
#include "tst_stored_quant_view.moc"
