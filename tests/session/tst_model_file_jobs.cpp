// The model-file controller's jobs without a widget (qs_session only): stored quantization's
// comparison and the whole-model report deliver what the core computes for the same tensor
// and settings, the newest comparison wins, and a missing tensor in the float original is
// reported with the file and the tensor named. And a tensor opened in the workbench: its
// file's name and the table it adds to the workbench's document.
#include <QSignalSpy>
#include <QtTest>

#include "core/model_analysis/model_report.h"
#include "core/model_analysis/stored_quant.h"
#include "core/modelfile/model_file.h"
#include "session/explorer/explorer_controller.h"
#include "session/explorer/explorer_model.h"
#include "session/modelfile/model_file_controller.h"
#include "session/modelfile/workbench_table.h"

using namespace qs::ui;

namespace {

const char* const kPersonDetect = QS_TEST_DATA_DIR "/models/tflite/person_detect.tflite";
const char* const kFirstWeights = "MobilenetV1/Conv2d_0/weights/read";

qs::modelfile::ModelPtr open(const char* path) {
    auto opened = qs::modelfile::openModel(path);
    return opened.ok() ? *opened : nullptr;
}

}  // namespace

class TstModelFileJobs : public QObject {
    Q_OBJECT

private slots:
    void storedQuantizationDeliversTheCoresComparison() {
        const auto model = open(kPersonDetect);
        QVERIFY(model);
        const int64_t index = model->find(kFirstWeights);
        QVERIFY(index >= 0);
        StoredQuantService service;
        QSignalSpy ready(&service, &StoredQuantService::comparisonReady);
        QSignalSpy failed(&service, &StoredQuantService::failed);
        service.compare(model, static_cast<int>(index));
        QVERIFY(ready.wait(20000));
        QCOMPARE(failed.count(), 0);
        const auto delivered = ready.takeFirst().at(0).value<StoredQuantPtr>();
        QVERIFY(delivered);

        auto stored = model->load(static_cast<size_t>(index));
        QVERIFY(stored.ok());
        auto direct = qs::analysis::compareStoredQuantization(*stored, nullptr, "", nullptr);
        QVERIFY(direct.ok());
        QCOMPARE(delivered->tensor, direct->tensor);
        QCOMPARE(delivered->exact_rule, direct->exact_rule);
        QVERIFY(delivered->exact_rule >= 0);
        QCOMPARE(delivered->summary, direct->summary);
        QCOMPARE(delivered->rules.size(), direct->rules.size());
    }

    // Two requests in a row: only the newest tensor's comparison arrives.
    void theNewestComparisonWins() {
        const auto model = open(kPersonDetect);
        QVERIFY(model);
        int64_t second = -1;
        for (size_t i = 0; i < model->tensors().size(); ++i)
            if (qs::analysis::hasStoredCodes(model->tensors()[i]) && model->tensors()[i].name != kFirstWeights) {
                second = static_cast<int64_t>(i);
                break;
            }
        QVERIFY(second >= 0);
        StoredQuantService service;
        QSignalSpy ready(&service, &StoredQuantService::comparisonReady);
        service.compare(model, static_cast<int>(model->find(kFirstWeights)));
        service.compare(model, static_cast<int>(second));
        QVERIFY(ready.wait(20000));
        QTest::qWait(100);  // anything else that would still arrive
        for (const QList<QVariant>& args : ready)
            QCOMPARE(args.at(0).value<StoredQuantPtr>()->tensor, model->tensors()[static_cast<size_t>(second)].name);
        QVERIFY(!service.busy());
    }

    void aFloatOriginalWithoutTheTensorIsNamed() {
        const auto model = open(kPersonDetect);
        const auto other = open(QS_TEST_DATA_DIR "/models/safetensors/test-model-float32.safetensors");
        QVERIFY(model && other);
        StoredQuantService service;
        QSignalSpy ready(&service, &StoredQuantService::comparisonReady);
        QSignalSpy failed(&service, &StoredQuantService::failed);
        service.compare(model, static_cast<int>(model->find(kFirstWeights)), other);
        QVERIFY(failed.wait(20000));
        const QString message = failed.takeFirst().at(0).toString();
        QVERIFY2(message.contains(QStringLiteral("test-model-float32.safetensors")) &&
                     message.contains(QStringLiteral("no tensor '%1' to compare with").arg(kFirstWeights)),
                 qPrintable(message));
        QCOMPARE(ready.count(), 0);
    }

    // The controller's report follows the explorer's op settings: its rows are the core's
    // report of the same model under the explorer's spec.
    void theReportIsTheCoresUnderTheExplorersSpec() {
        ExplorerModel explorerModel;
        explorerModel.setOp(qs::QuantOp::QuantizeAndDequantizeV2);
        explorerModel.setNumBits(8);
        ExplorerController explorer(&explorerModel);
        ModelFileController controller(&explorer);
        QSignalSpy opened(&controller, &ModelFileController::opened);
        controller.open(QString::fromUtf8(kPersonDetect));
        QVERIFY(opened.wait(20000));
        ModelReportService* service = controller.reportService();
        QSignalSpy ready(service, &ModelReportService::reportReady);
        service->setModel(controller.model());
        QVERIFY(ready.wait(60000));
        const auto delivered = ready.takeLast().at(0).value<ModelReportPtr>();
        QVERIFY(delivered);
        QCOMPARE(delivered->spec.op, qs::QuantOp::QuantizeAndDequantizeV2);

        qs::analysis::ModelReportOptions options;
        options.calibrate = false;
        auto direct = qs::analysis::computeModelReport(*controller.model(), delivered->spec, options);
        QVERIFY(direct.ok());
        QCOMPARE(delivered->rows.size(), direct->rows.size());
        QVERIFY(!delivered->rows.empty());
        for (size_t i = 0; i < direct->rows.size(); ++i) {
            QCOMPARE(delivered->rows[i].name, direct->rows[i].name);
            QCOMPARE(delivered->rows[i].stats.sqnr_db, direct->rows[i].stats.sqnr_db);
        }
    }

    void aTensorBecomesAWorkbenchTable() {
        EmbeddingDocument doc = EmbeddingDocument::example();  // table_0 and one feature on it
        const qs::Shape shape{100, 8};
        doc = withModelTable(std::move(doc), QStringLiteral("dense/kernel"), shape, QStringLiteral("/c/m-dense_kernel.npy"));
        QCOMPARE(doc.tables.size(), size_t{2});
        const EmbeddingTable& added = doc.tables.back();
        QCOMPARE(added.name, QStringLiteral("dense_kernel"));
        QCOMPARE(added.vocabulary_size.toInteger(), qint64{100});
        QCOMPARE(added.dim.toInteger(), qint64{8});
        QCOMPARE(added.data_file, QStringLiteral("/c/m-dense_kernel.npy"));
        QCOMPARE(doc.view.table, 1);
        QCOMPARE(doc.features.front().table, 1);  // the lone feature looks the new table up
        QCOMPARE(doc.view.feature, 0);

        doc = withModelTable(std::move(doc), QStringLiteral("dense/kernel"), shape, QStringLiteral("/c/again.npy"));
        QCOMPARE(doc.tables.back().name, QStringLiteral("dense_kernel_2"));

        EmbeddingFeature second;
        second.name = QStringLiteral("feature_1");
        second.table = 0;
        doc.features.push_back(second);
        doc = withModelTable(std::move(doc), QStringLiteral("layer1.0.weight"), shape, QStringLiteral("/c/l.npy"));
        QCOMPARE(doc.tables.back().name, QStringLiteral("layer1_0_weight"));
        QCOMPARE(doc.view.table, 3);
        QCOMPARE(doc.view.feature, -1);  // with several features none is chosen for the user
        QCOMPARE(doc.features[0].table, 2);  // the lone feature followed dense_kernel_2
        QCOMPARE(doc.features[1].table, 0);
    }

    void aTensorsWorkbenchFileIsNamedAfterModelAndTensor() {
        QCOMPARE(workbenchTableFile(QStringLiteral("/cache/model-tables"), QStringLiteral("/m/my model.tflite"),
                                    QStringLiteral("dense/kernel:0")),
                 QStringLiteral("/cache/model-tables/my_model-dense_kernel_0.npy"));
        const QString longName = workbenchTableFile(QStringLiteral("/c"), QStringLiteral("/m/a.onnx"), QString(300, QLatin1Char('x')));
        QCOMPARE(QFileInfo(longName).fileName().size(), qsizetype{180 + 4});
    }
};

QTEST_GUILESS_MAIN(TstModelFileJobs)
#include "tst_model_file_jobs.moc"
