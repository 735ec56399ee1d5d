// The Model dock and model files in the explorer window, driven as a user drives them:
// File → Open model…, drag and drop, recent models, the tensor tree (groups, filter, sort),
// choosing a tensor (the explorer's data and its axis, one undo step), sessions with a
// model as the data source, a 2-D tensor opened in the TPU embedding workbench, and files
// that cannot be read. The model files are safetensors written here (names grouped by '.'),
// so the values are known; the per-channel TFLite case is in tst_lessons (lesson 12).
#include "tests/ui/explorer_window_test.h"

#include <QDragEnterEvent>
#include <QDropEvent>
#include <QHeaderView>
#include <QMimeData>
#include <QProcess>
#include <QSortFilterProxyModel>
#include <QTreeView>
#include <QTreeWidget>
#include <QUrl>

#include "core/modelfile/model_file.h"
#include "session/modelfile/model_file_controller.h"
#include "session/modelfile/tensor_tree_model.h"
#include "session/workbench/embedding_model.h"
#include "session/workbench/workbench_controller.h"
#include "ui/embedding/workbench_window.h"
#include "ui/modelfile/model_dock.h"
#include "ui/modelfile/model_docks.h"
#include "ui/modelfile/model_report_view.h"
#include "ui/modelfile/stored_quant_view.h"

namespace {

struct StoredTensor {
    QString name;
    std::vector<int64_t> shape;
    std::vector<float> values;
};

// A safetensors file: 8-byte little-endian header length, the JSON header, the F32 data.
bool writeSafetensors(const QString& path, const std::vector<StoredTensor>& tensors) {
    QJsonObject header;
    QByteArray data;
    for (const StoredTensor& t : tensors) {
        QJsonArray shape;
        for (int64_t d : t.shape) shape.append(static_cast<qint64>(d));
        const qint64 begin = data.size();
        data.append(reinterpret_cast<const char*>(t.values.data()), static_cast<qsizetype>(t.values.size() * 4));
        header[t.name] = QJsonObject{{"dtype", "F32"}, {"shape", shape}, {"data_offsets", QJsonArray{begin, data.size()}}};
    }
    QByteArray json = QJsonDocument(header).toJson(QJsonDocument::Compact);
    while (json.size() % 8) json += ' ';
    QByteArray bytes(8, '\0');
    qToLittleEndian<quint64>(static_cast<quint64>(json.size()), bytes.data());
    return writeText(path, bytes + json + data);
}

// Values whose spread grows along the last index.
std::vector<float> ramp(int64_t n, int64_t channels) {
    std::vector<float> v(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) v[size_t(i)] = float((i * 7919 % 97) - 48) / 48.0f * float(1 + i % channels);
    return v;
}

const QString kWeight = QStringLiteral("encoder.layer1.weight");  // [4, 3, 2, 5]: 480 bytes
const QString kBias = QStringLiteral("encoder.layer1.bias");      // [5]
const QString kTable = QStringLiteral("decoder.embedding");       // [6, 4]: a 2-D table
const QString kHead = QStringLiteral("head.weight");              // [3, 8]
// The transfer plot's axis rect with the model docks open in a 1600×1000 window: about 250
// pixels when the docks took half the window.
constexpr int kUsableHeight = 330;

}  // namespace

class ModelWindowTest : public ExplorerWindowTest {
    Q_OBJECT

    QString modelPath() const { return dir_->filePath(QStringLiteral("net.safetensors")); }

    // Writes the test model; opens it through File → Open model… and waits until it is listed.
    void openTestModel() {
        QVERIFY(writeSafetensors(modelPath(), {{kWeight, {4, 3, 2, 5}, ramp(120, 5)},
                                               {kBias, {5}, ramp(5, 1)},
                                               {kTable, {6, 4}, ramp(24, 4)},
                                               {kHead, {3, 8}, ramp(24, 8)}}));
        QSignalSpy opened(w_->modelFiles(), &ModelFileController::opened);
        QAction* open = menuAction(QStringLiteral("&File"), QStringLiteral("Open &model"));
        QVERIFY(open);
        answerNextDialog(modelPath());
        open->trigger();
        QVERIFY(opened.wait(10000) || opened.count() == 1);
        QVERIFY(w_->modelDockWidget()->isVisible());
    }
    ModelDock* dock() const { return w_->modelDock(); }
    QModelIndex row(const QString& tensor) const {
        return dock()->proxy()->mapFromSource(dock()->tensorModel()->indexOfTensor(tensor));
    }
    QStringList topLevelNames() const {
        QStringList names;
        for (int r = 0; r < dock()->proxy()->rowCount(); ++r) names << dock()->proxy()->index(r, 0).data().toString();
        return names;
    }
    // Clicks the tensor's row as a user does and waits for its data.
    void clickTensor(const QString& tensor) {
        const QModelIndex index = row(tensor);
        QVERIFY(index.isValid());
        QTreeView* view = dock()->view();
        view->scrollTo(index);
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(index).center());
        QCOMPARE(model_->dataSource().tensor, tensor);
        QVERIFY(settle());
    }

private slots:
    void openModelListsTensorsGroupedByLayer() {
        CHECK(openTestModel());
        QCOMPARE(dock()->tensorModel()->tensorCount(), 4);
        QStringList top = topLevelNames();  // in the reader's order until a header is clicked
        top.sort();
        // Groups of one row merge into it: "encoder" holds only "layer1", "head" only "weight".
        QCOMPARE(top, (QStringList{"decoder.embedding", "encoder.layer1", "head.weight"}));
        const QModelIndex weight = row(kWeight);
        QCOMPARE(weight.data().toString(), QStringLiteral("weight"));
        QCOMPARE(weight.parent().data().toString(), QStringLiteral("encoder.layer1"));
        QVERIFY(!weight.parent().parent().isValid());
        auto column = [&](const QModelIndex& i, int c) { return i.siblingAtColumn(c).data().toString(); };
        QCOMPARE(column(weight, TensorTreeModel::Shape), QStringLiteral("[4, 3, 2, 5]"));
        QCOMPARE(column(weight, TensorTreeModel::DType), QStringLiteral("float32"));
        QCOMPARE(column(weight, TensorTreeModel::Size), QStringLiteral("480 bytes"));
        QCOMPARE(column(weight, TensorTreeModel::Quantization), QString());  // stored as float
        // A group adds up its tensors: 480 + 20 bytes.
        QCOMPARE(column(weight.parent(), TensorTreeModel::Size), QStringLiteral("500 bytes"));
        QVERIFY(child<QLabel>("modelHeader")->text().contains(QStringLiteral("net.safetensors")));
        QVERIFY(child<QLabel>("explorerStatusLabel")->text().contains(QStringLiteral("4 tensors")));
        // Opening a model lists it; the explorer's data stays until a tensor is chosen.
        QCOMPARE(model_->dataSource().generator, kSmallData);
        QVERIFY(!model_->dataSource().isFile());
    }

    void filterKeepsMatchingTensorsAndTheirLayers() {
        CHECK(openTestModel());
        QTest::keyClicks(dock()->filterEdit(), QStringLiteral("layer1"));
        QCOMPARE(topLevelNames(), QStringList{"encoder.layer1"});
        QVERIFY(row(kWeight).isValid());
        QVERIFY(row(kBias).isValid());  // the whole layer stays
        QVERIFY(!row(kTable).isValid());
        dock()->filterEdit()->clear();
        QTest::keyClicks(dock()->filterEdit(), QStringLiteral("WEIGHT"));  // case-insensitive
        QStringList top = topLevelNames();
        top.sort();
        QCOMPARE(top, (QStringList{"encoder.layer1", "head.weight"}));  // not "decoder.embedding"
        QVERIFY(row(kWeight).isValid());
        QVERIFY(!row(kBias).isValid());
        QVERIFY(row(kHead).isValid());
    }

    // Typing in the filter only filters: the explorer's tensor stays its data (no new undo
    // step), whichever rows come and go, and its row is current again when it shows again.
    void filterTypingLeavesTheExploredTensorAlone() {
        CHECK(openTestModel());
        CHECK(clickTensor(kWeight));
        const int steps = model_->undoStack()->count();
        QSignalSpy sourceChanged(model_.get(), &ExplorerModel::dataSourceChanged);
        QTest::keyClicks(dock()->filterEdit(), QStringLiteral("layer"));
        QCOMPARE(dock()->currentTensor(), kWeight);
        // "bias" takes the weight's row out and keeps its neighbour in the layer, the row the
        // view would make current in its place.
        dock()->filterEdit()->clear();
        QTest::keyClicks(dock()->filterEdit(), QStringLiteral("bias"));
        QVERIFY(!row(kWeight).isValid());
        QVERIFY(row(kBias).isValid());
        QCOMPARE(dock()->currentTensor(), QString());  // no row stands for the data
        QCOMPARE(model_->dataSource().tensor, kWeight);
        QCOMPARE(model_->undoStack()->count(), steps);
        dock()->filterEdit()->selectAll();
        QTest::keyClick(dock()->filterEdit(), Qt::Key_Backspace);
        QCOMPARE(dock()->currentTensor(), kWeight);
        QVERIFY(settle());
        QCOMPARE(sourceChanged.count(), 0);
        QCOMPARE(model_->dataSource().tensor, kWeight);
        QCOMPARE(model_->undoStack()->count(), steps);
    }

    // Another model starts with an empty filter (the last model's would hide its tensors) and
    // columns wide enough for its rows, not for the header alone.
    void anotherModelShowsAllItsTensorsInColumnsThatFit() {
        CHECK(openTestModel());
        QTest::keyClicks(dock()->filterEdit(), QStringLiteral("nothing matches this"));
        QCOMPARE(topLevelNames(), QStringList());
        const QString other = dir_->filePath(QStringLiteral("other.safetensors"));
        const QString query = QStringLiteral("model.blocks.0.attention.query.weight");
        const QString key = QStringLiteral("model.blocks.0.attention.key.weight");
        QVERIFY(writeSafetensors(other, {{query, {16, 16, 3, 3}, ramp(2304, 16)}, {key, {16, 16, 3, 3}, ramp(2304, 16)}}));
        QSignalSpy opened(w_->modelFiles(), &ModelFileController::opened);
        answerNextDialog(other);
        menuAction(QStringLiteral("&File"), QStringLiteral("Open &model"))->trigger();
        QVERIFY(opened.wait(10000) || opened.count() == 1);
        QCOMPARE(dock()->filterEdit()->text(), QString());
        QVERIFY(row(query).isValid() && row(key).isValid());
        QTreeView* view = dock()->view();
        QTRY_VERIFY(view->isVisible());
        const QAbstractItemView* items = view;  // sizeHintForColumn: what the rows need
        for (int c = 0; c < TensorTreeModel::ColumnCount - 1; ++c) {  // the last one stretches
            const int needed = c == TensorTreeModel::Name ? std::min(items->sizeHintForColumn(c), 440)
                                                          : items->sizeHintForColumn(c);
            QVERIFY2(view->columnWidth(c) >= needed,
                     qPrintable(QStringLiteral("column %1: %2 px for %3").arg(c).arg(view->columnWidth(c)).arg(needed)));
        }
        const QModelIndex shape = row(query).siblingAtColumn(TensorTreeModel::Shape);
        QCOMPARE(shape.data().toString(), QStringLiteral("[16, 16, 3, 3]"));
        QVERIFY(view->visualRect(shape).width() >= view->fontMetrics().horizontalAdvance(shape.data().toString()));
    }

    void headerClicksSortBySizeAndName() {
        CHECK(openTestModel());
        QHeaderView* header = dock()->view()->header();
        const int x = header->sectionViewportPosition(TensorTreeModel::Size) + 5;
        QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, QPoint(x, header->height() / 2));
        const bool ascending = header->sortIndicatorOrder() == Qt::AscendingOrder;
        QCOMPARE(header->sortIndicatorSection(), int(TensorTreeModel::Size));
        // By bytes, not by text: the encoder's layer (500 bytes) against the others (96 each).
        const QString layer = QStringLiteral("encoder.layer1");
        QCOMPARE(topLevelNames().first() == layer, !ascending);
        QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, QPoint(x, header->height() / 2));
        QCOMPARE(topLevelNames().first() == layer, ascending);
        const int nameX = header->sectionViewportPosition(TensorTreeModel::Name) + 5;
        QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, QPoint(nameX, header->height() / 2));
        const QStringList names = topLevelNames();
        QStringList sorted = names;
        std::sort(sorted.begin(), sorted.end());
        if (header->sortIndicatorOrder() == Qt::DescendingOrder) std::reverse(sorted.begin(), sorted.end());
        QCOMPARE(names, sorted);
    }

    void choosingATensorMakesItTheDataWithItsAxisInOneUndoStep() {
        CHECK(openTestModel());
        QUndoStack* undo = model_->undoStack();
        const int steps = undo->count();
        const qs::QuantSpec before = model_->spec();
        QCOMPARE(before.axis, -1);
        CHECK(clickTensor(kWeight));
        QCOMPARE(undo->count(), steps + 1);
        QCOMPARE(model_->spec().axis, 0);  // safetensors: output channels first (PyTorch)
        // QuantizeV2 per channel with each channel's own range, in the same step.
        QCOMPARE(model_->spec().range_source, qs::RangeSource::FromData);
        const auto data = w_->dataService()->dataset();
        QCOMPARE(data->shape, (qs::Shape{4, 3, 2, 5}));
        QCOMPARE(data->values, ramp(120, 5));
        CHECK(verifyShowsModel());
        QCOMPARE(w_->lastResult()->run.slices.size(), size_t(4));  // per channel
        QCOMPARE(w_->modelFiles()->selectedTensor(), kWeight);

        // A vector: per tensor.
        CHECK(clickTensor(kBias));
        QCOMPARE(model_->spec().axis, -1);
        QCOMPARE(w_->dataService()->dataset()->shape, (qs::Shape{5}));
        QCOMPARE(undo->count(), steps + 2);

        // Undo goes back through both, data and axis together; the dock follows.
        undo->undo();
        QVERIFY(settle());
        QCOMPARE(model_->dataSource().tensor, kWeight);
        QCOMPARE(model_->spec().axis, 0);
        QCOMPARE(dock()->currentTensor(), kWeight);
        CHECK(verifyShowsModel());
        undo->undo();
        QVERIFY(settle());
        QCOMPARE(model_->spec(), before);
        QCOMPARE(model_->dataSource().generator, kSmallData);
        QVERIFY(!model_->dataSource().isFile());
        QCOMPARE(w_->dataService()->dataset()->values.size(), size_t(20000));
        QCOMPARE(dock()->currentTensor(), QString());
        QCOMPARE(undo->count(), steps + 2);  // following the undo pushed nothing
        CHECK(verifyShowsModel());
        undo->redo();
        QVERIFY(settle());
        QCOMPARE(model_->dataSource().tensor, kWeight);
        QCOMPARE(model_->spec().axis, 0);
        CHECK(verifyShowsModel());
    }

    void keyboardAndEnterChooseTensors() {
        CHECK(openTestModel());
        CHECK(clickTensor(kTable));
        QCOMPARE(model_->spec().axis, 0);
        // A group row is no tensor: the data stays.
        QTreeView* view = dock()->view();
        const QModelIndex group = row(kWeight).parent();
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(group).center());
        QCOMPARE(dock()->currentTensor(), QString());
        QCOMPARE(model_->dataSource().tensor, kTable);
        // Down through the tree: each tensor passed is explored, groups are not.
        QStringList explored;
        for (int i = 0; i < 8 && dock()->currentTensor() != kWeight; ++i) {
            QTest::keyClick(dock()->view(), Qt::Key_Down);
            if (!dock()->currentTensor().isEmpty()) explored << model_->dataSource().tensor;
            QCOMPARE(model_->dataSource().tensor.isEmpty(), false);
        }
        QCOMPARE(dock()->currentTensor(), kWeight);
        QCOMPARE(explored.last(), kWeight);
        QVERIFY(explored.size() <= 2);  // the bias may come first
        QTest::keyClick(dock()->view(), Qt::Key_Return);  // already explored: no second step
        QCOMPARE(model_->dataSource().tensor, kWeight);
        QVERIFY(settle());
        QCOMPARE(w_->dataService()->dataset()->shape, (qs::Shape{4, 3, 2, 5}));
        QCOMPARE(model_->spec().axis, 0);
    }

    void sessionsRememberTheModelTensor() {
        CHECK(openTestModel());
        CHECK(clickTensor(kWeight));
        const QString session = dir_->filePath(QStringLiteral("m.qscope"));
        QVERIFY(w_->saveSessionAs(session));
        QFile f(session);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject data = QJsonDocument::fromJson(f.readAll()).object().value("data").toObject();
        QCOMPARE(data.value("model").toString(), QFileInfo(modelPath()).absoluteFilePath());
        QCOMPARE(data.value("tensor").toString(), kWeight);
        QVERIFY(!data.contains("file"));  // older versions would take the model for a data file

        // A new window opens the session: the data is the tensor, the dock lists its model.
        w_.reset();
        model_ = std::make_unique<ExplorerModel>();
        w_ = std::make_unique<MainWindow>(model_.get());
        QSignalSpy opened(w_->modelFiles(), &ModelFileController::opened);
        QVERIFY(w_->openSession(session));
        QVERIFY(opened.wait(10000) || opened.count() == 1);
        QVERIFY(settle());
        QCOMPARE(w_->dataService()->dataset()->shape, (qs::Shape{4, 3, 2, 5}));
        QCOMPARE(model_->spec().axis, 0);
        QCOMPARE(dock()->currentTensor(), kWeight);
        QCOMPARE(w_->modelFiles()->path(), QFileInfo(modelPath()).absoluteFilePath());
    }

    void aSessionWhoseModelIsGoneSaysSo() {
        const QString session = dir_->filePath(QStringLiteral("gone.qscope"));
        Session s = w_->currentSession();
        s.data.path = dir_->filePath(QStringLiteral("gone.safetensors"));
        s.data.tensor = kWeight;
        QString error;
        QVERIFY(saveSession(session, s, &error));
        QSignalSpy failed(w_->modelFiles(), &ModelFileController::openFailed);
        QSignalSpy dataFailed(w_->dataService(), &DataService::failed);
        QVERIFY(w_->openSession(session));  // the session itself is fine
        QVERIFY(dataFailed.wait(10000) || dataFailed.count() == 1);
        QVERIFY(dataFailed.first().first().toString().contains(QStringLiteral("gone.safetensors")));
        QVERIFY(failed.count() == 1 || failed.wait(10000));
        QVERIFY(failed.first().first().toString().contains(QStringLiteral("gone.safetensors")));
        QVERIFY(settle());
        QVERIFY(w_->lastResult());  // the previous data's result stays on show
        QVERIFY(child<QLabel>("explorerStatusLabel")->text().contains(QStringLiteral("gone.safetensors")));
    }

    void aBadFileGivesAMessage() {
        const QString bad = dir_->filePath(QStringLiteral("bad.safetensors"));
        QByteArray bytes(8, '\0');
        qToLittleEndian<quint64>(quint64(1) << 40, bytes.data());  // a header of 1 TiB in 8 bytes
        QVERIFY(writeText(bad, bytes));
        QSignalSpy failed(w_->modelFiles(), &ModelFileController::openFailed);
        answerNextDialog();
        w_->openModel(bad);
        QVERIFY(failed.wait(10000) || failed.count() == 1);
        QTRY_VERIFY(lastMessage_.contains(QStringLiteral("bad.safetensors")));
        QVERIFY(child<QLabel>("explorerStatusLabel")->text().startsWith(QStringLiteral("Could not open the model")));
        QVERIFY(!w_->modelFiles()->model());
        QVERIFY(!w_->modelDockWidget()->isVisible());
    }

    void droppingAModelFileOpensIt() {
        QVERIFY(writeSafetensors(modelPath(), {{kTable, {6, 4}, ramp(24, 4)}}));
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(modelPath())});
        QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(w_.get(), &enter);
        QVERIFY(enter.isAccepted());
        QSignalSpy opened(w_->modelFiles(), &ModelFileController::opened);
        QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(w_.get(), &drop);
        QVERIFY(drop.isAccepted());
        QVERIFY(opened.wait(10000) || opened.count() == 1);
        QCOMPARE(dock()->tensorModel()->tensorCount(), 1);
        // Text is not a file: refused.
        QMimeData text;
        text.setText(QStringLiteral("hello"));
        QDragEnterEvent refused(QPoint(10, 10), Qt::CopyAction, &text, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(w_.get(), &refused);
        QVERIFY(!refused.isAccepted());
    }

    void recentModelsReopen() {
        CHECK(openTestModel());
        QAction* recent = menuAction(QStringLiteral("&File"), QStringLiteral("Recent mode&ls"));
        QVERIFY(recent && recent->menu());
        QCOMPARE(recent->menu()->actions().size(), 1);
        QCOMPARE(recent->menu()->actions().first()->toolTip(), QFileInfo(modelPath()).absoluteFilePath());
        // Another window (a new start) lists it and opens it from the menu.
        w_.reset();
        model_ = std::make_unique<ExplorerModel>();
        w_ = std::make_unique<MainWindow>(model_.get());
        recent = menuAction(QStringLiteral("&File"), QStringLiteral("Recent mode&ls"));
        QVERIFY(recent->isEnabled());
        QSignalSpy opened(w_->modelFiles(), &ModelFileController::opened);
        recent->menu()->actions().first()->trigger();
        QVERIFY(opened.wait(10000) || opened.count() == 1);
        QCOMPARE(dock()->tensorModel()->tensorCount(), 4);
    }

    // person_detect.tflite: a row of the whole-model report explores its tensor (axis from the
    // stored per-channel quantization), and the Stored quantization dock compares its codes.
    void reportRowsAndStoredCodesOfARealModel() {
        const QString path = QStringLiteral(QS_TEST_DATA_DIR "/models/tflite/person_detect.tflite");
        QSignalSpy opened(w_->modelFiles(), &ModelFileController::opened);
        QSignalSpy report(w_->modelDocks()->reportView()->service(), &ModelReportService::reportReady);
        w_->openModel(path);
        QVERIFY(opened.wait(10000) || opened.count() == 1);
        QVERIFY(w_->modelDocks()->reportDockWidget()->isVisible() || !w_->modelDocks()->reportDockWidget()->isHidden());
        QVERIFY(report.count() == 1 || report.wait(30000));
        QTreeWidget* table = w_->modelDocks()->reportView()->table();
        QTreeWidgetItem* item = nullptr;
        const QString kernel = QStringLiteral("MobilenetV1/Conv2d_2_depthwise/depthwise_weights/read");
        for (int i = 0; i < table->topLevelItemCount() && !item; ++i)
            if (table->topLevelItem(i)->text(ModelReportView::ColName).contains(QStringLiteral("Conv2d_2_depthwise/depthwise_weights")))
                item = table->topLevelItem(i);
        QVERIFY(item);
        w_->modelDocks()->reportDockWidget()->raise();
        w_->resizeDocks({w_->modelDocks()->reportDockWidget()}, {450}, Qt::Vertical);  // as a user drags it taller
        QTRY_VERIFY(table->isVisible());
        table->scrollToItem(item);
        const auto nameCell = [&] { return QPoint(30, table->visualItemRect(item).center().y()); };
        QTRY_VERIFY2(table->viewport()->rect().contains(nameCell()),
                     qPrintable(QStringLiteral("viewport %1x%2, item at %3").arg(table->viewport()->width())
                                    .arg(table->viewport()->height()).arg(table->visualItemRect(item).y())));
        QSignalSpy compared(w_->modelDocks()->storedView(), &StoredQuantView::comparisonShown);
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, nameCell());
        QCOMPARE(model_->dataSource().tensor, kernel);
        QVERIFY(settle());
        QCOMPARE(w_->dataService()->dataset()->shape, (qs::Shape{1, 3, 3, 16}));
        // The explorer runs the row's own spec (this report is per tensor) and shows the
        // row's SQNR; it presets the per-channel axis only when the Model dock picks a tensor.
        const auto reportShown = w_->modelDocks()->reportView()->report();
        const auto reportRow = std::find_if(reportShown->rows.begin(), reportShown->rows.end(),
                                            [&](const auto& r) { return QString::fromStdString(r.name) == kernel; });
        QVERIFY(reportRow != reportShown->rows.end());
        QCOMPARE(model_->spec(), qs::analysis::reportRowSpec(reportShown->spec, *reportRow));
        QCOMPARE(model_->spec().axis, int64_t{reportRow->axis});
        QVERIFY(w_->lastResult());
        QVERIFY2(std::abs(w_->lastResult()->stats.sqnr_db - reportRow->stats.sqnr_db) < 1e-9,
                 qPrintable(QStringLiteral("explorer %1 dB, report row %2 dB")
                                .arg(w_->lastResult()->stats.sqnr_db).arg(reportRow->stats.sqnr_db)));
        QCOMPARE(item->text(ModelReportView::ColSqnr), QString::number(w_->lastResult()->stats.sqnr_db, 'f', 2));
        QCOMPARE(dock()->currentTensor(), kernel);
        const QModelIndex listed = row(kernel);
        QCOMPARE(listed.siblingAtColumn(TensorTreeModel::Quantization).data().toString(),
                 QStringLiteral("per-channel on axis 3 (int8, 16 scales)"));
        QVERIFY(compared.count() == 1 || compared.wait(30000));
        QVERIFY(w_->modelDocks()->storedView()->comparison());
    }

    // A channel's row of a per-channel report: the explorer shows that tensor with the
    // channel's transfer curve, and a view that draws it (the whole tensor opened before).
    void aChannelRowShowsThatChannel() {
        CHECK(openTestModel());
        QVERIFY(w_->showView(QStringLiteral("histogram")));
        ModelReportView* report = w_->modelDocks()->reportView();
        qs::QuantSpec spec = model_->spec();
        spec.axis = 0;  // [4, 3, 2, 5] along its first axis
        emit report->tensorActivated(kWeight, spec, 2);
        QCOMPARE(model_->dataSource().tensor, kWeight);
        QCOMPARE(model_->viewState().channel, qint64{2});
        QCOMPARE(w_->currentView(), QStringLiteral("transfer"));
        QVERIFY(settle());
        QCOMPARE(w_->lastResult()->curve_channel, int64_t{2});
    }

    // After a model tensor was explored, File → Open data file… opens data files as data: the
    // tensor's name stays behind with the model, so a .npy is not searched for that tensor
    // and a .vec is not refused as a model file.
    void dataFilesOpenAsDataAfterAModelTensor() {
        const QString path = QStringLiteral(QS_TEST_DATA_DIR "/models/tflite/person_detect.tflite");
        QSignalSpy opened(w_->modelFiles(), &ModelFileController::opened);
        QAction* openModel = menuAction(QStringLiteral("&File"), QStringLiteral("Open &model"));
        QVERIFY(openModel);
        answerNextDialog(path);
        openModel->trigger();
        QVERIFY(opened.wait(10000) || opened.count() == 1);
        const QString kernel = QStringLiteral("MobilenetV1/Conv2d_2_depthwise/depthwise_weights/read");
        CHECK(clickTensor(kernel));
        QCOMPARE(w_->dataService()->dataset()->shape, (qs::Shape{1, 3, 3, 16}));

        const QString npy = dir_->filePath(QStringLiteral("some_nan.npy"));
        QVERIFY(writeNpy(npy, {1.5f, std::nanf(""), -2.0f, 0.25f, 3.0f, -0.5f}, QStringLiteral("2, 3")));
        const QString vec = dir_->filePath(QStringLiteral("words.vec"));
        QVERIFY(writeText(vec, "3 2\nthe 0.5 -0.25\nof 1.0 0.75\nand -1.5 2.0\n"));
        QAction* openData = menuAction(QStringLiteral("&File"), QStringLiteral("Open &data file"));
        QVERIFY(openData);
        QSignalSpy failed(w_->dataService(), &DataService::failed);
        const struct {
            QString file;
            qs::Shape shape;
        } files[] = {{npy, {2, 3}}, {vec, {3, 2}}};
        for (const auto& f : files) {
            answerNextDialog(f.file);
            openData->trigger();
            QVERIFY(settle());
            QCOMPARE(QFileInfo(model_->dataSource().path), QFileInfo(f.file));
            QVERIFY(!model_->dataSource().isModelTensor());
            QCOMPARE(w_->dataService()->dataset()->shape, f.shape);
            QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.first().first().toString()));
            QCOMPARE(dock()->currentTensor(), QString());  // no row stands for a data file
        }
        // The model stays open: a click on its tensor explores it again.
        CHECK(clickTensor(kernel));
        QCOMPARE(w_->dataService()->dataset()->shape, (qs::Shape{1, 3, 3, 16}));
    }

    // `quantscope MODEL_FILE --tensor NAME`: the argument goes to the model reader (not to the
    // session reader, which would call it invalid JSON), the tensor is explored, a wrong name
    // or a bad file is said on stderr; --screenshot waits for the model and the tensor's data.
    void commandLineOpensAModel() {
        QVERIFY(writeSafetensors(modelPath(), {{kWeight, {4, 3, 2, 5}, ramp(120, 5)}}));
        auto run = [&](const QStringList& args, QString* err) {
            QProcess p;
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
            env.insert(QStringLiteral("HOME"), dir_->path());  // its own settings and autosave
            env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir_->filePath(QStringLiteral("config")));
            env.insert(QStringLiteral("XDG_DATA_HOME"), dir_->filePath(QStringLiteral("data")));
            env.insert(QStringLiteral("XDG_CACHE_HOME"), dir_->filePath(QStringLiteral("cache")));
            p.setProcessEnvironment(env);
            p.start(QStringLiteral(QS_GUI_PATH), args);
            if (!p.waitForFinished(60000)) return -1;
            *err = QString::fromUtf8(p.readAllStandardError());
            return p.exitCode();
        };
        const QString shot = dir_->filePath(QStringLiteral("shot.png"));
        QString err;
        QCOMPARE(run({modelPath(), QStringLiteral("--tensor"), kWeight, QStringLiteral("--screenshot"), shot}, &err), 0);
        QVERIFY2(!err.contains(QStringLiteral("quantscope:")), qPrintable(err));
        QVERIFY(QImage(shot).width() > 100);
        QCOMPARE(run({modelPath(), QStringLiteral("--tensor"), QStringLiteral("nope"), QStringLiteral("--screenshot"), shot}, &err), 0);
        QVERIFY2(err.contains(QStringLiteral("no tensor 'nope'")), qPrintable(err));
        const QString bad = dir_->filePath(QStringLiteral("bad.tflite"));
        QVERIFY(writeText(bad, "not a flatbuffer"));
        run({bad, QStringLiteral("--screenshot"), shot}, &err);
        QVERIFY2(err.contains(QStringLiteral("bad.tflite")), qPrintable(err));
        QVERIFY2(!err.contains(QStringLiteral("JSON")), qPrintable(err));
    }

    // With the model docks open the explorer's plots keep a usable size, and the stored
    // quantization dock shows its plot and more than one rule (the review's 1600×1000 window).
    void modelDocksLeaveThePlotsAUsableSize() {
        w_->resize(1600, 1000);
        QTRY_COMPARE(w_->height(), 1000);
        CHECK(openTestModel());
        QVERIFY(settle());
        QCustomPlot* plot = w_->transferView()->plot();
        plot->replot();
        QVERIFY2(plot->axisRect()->height() >= kUsableHeight,
                 qPrintable(QStringLiteral("transfer plot %1 px high").arg(plot->axisRect()->height())));
        QVERIFY(!plot->legend->outerRect().intersects(plot->axisRect()->rect()));
        QDockWidget* stored = w_->modelDocks()->storedDockWidget();
        stored->raise();
        QTRY_VERIFY(stored->isVisible() && w_->modelDocks()->storedView()->isVisible());
        StoredQuantView* view = w_->modelDocks()->storedView();
        // The dock as it opens shows all of the view (no scrolling to the table).
        QTRY_VERIFY2(view->visibleRegion().boundingRect().height() == view->height(),
                     qPrintable(QStringLiteral("%1 of %2 px visible").arg(view->visibleRegion().boundingRect().height()).arg(view->height())));
        QVERIFY2(view->plot()->height() >= 160, qPrintable(QString::number(view->plot()->height())));
        QVERIFY(view->rulesTable()->height() >= 80);  // three rules
        QCOMPARE(view->splitter()->orientation(), Qt::Horizontal);  // beside the plot in the wide dock
    }

    void aTwoDimensionalTensorOpensInTheWorkbenchAsATable() {
        CHECK(openTestModel());
        CHECK(clickTensor(kWeight));
        QVERIFY(!dock()->workbenchButton()->isEnabled());  // rank 4: not a table
        CHECK(clickTensor(kTable));
        QVERIFY(dock()->workbenchButton()->isEnabled());
        QTest::mouseClick(dock()->workbenchButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(w_->findChild<WorkbenchWindow*>(), 10000);
        WorkbenchWindow* bench = w_->findChild<WorkbenchWindow*>();
        QTRY_VERIFY_WITH_TIMEOUT(bench->model()->document().tables.size() == 2, 10000);  // the example's + ours
        const EmbeddingTable& table = bench->model()->document().tables.back();
        QCOMPARE(table.name, QStringLiteral("decoder_embedding"));
        QCOMPARE(table.vocabulary_size.toInteger(), 6);
        QCOMPARE(table.dim.toInteger(), 4);
        QCOMPARE(bench->model()->document().view.table, 1);
        // The views show the new table at once: the example's lone feature looks it up now
        // (they kept showing the example's table until the feature was changed by hand).
        QCOMPARE(bench->model()->document().features.size(), size_t(1));
        QCOMPARE(bench->model()->document().features[0].table, 1);
        QTRY_VERIFY_WITH_TIMEOUT(bench->controller()->tableInputs() &&
                                     bench->controller()->tableInputs()->name == "decoder_embedding" &&
                                     bench->controller()->table() && bench->controller()->table()->rows() == 6,
                                 20000);
        QCOMPARE(bench->controller()->tableIndex(), 1);
        // The file the table reads holds the tensor's values.
        auto loaded = DataService::loadNow(DataSource{QString(), table.data_file, QString()});
        QVERIFY(loaded);
        QCOMPARE((*loaded)->shape, (qs::Shape{6, 4}));
        QCOMPARE((*loaded)->values, ramp(24, 4));
        bench->close();
    }
};

QTEST_MAIN(ModelWindowTest)
#include "tst_main_window_model.moc"
