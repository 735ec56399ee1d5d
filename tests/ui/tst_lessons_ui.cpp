// The guided lessons and the Frameworks tab in a real MainWindow, offscreen: the Lessons
// menu lists the built-in lessons (Qt resources), each one loads its preset into the model
// and its live check turns green; breaking the theory turns it red; Next/Previous, the
// presentation keys and PresentationMode::stepRequested move between lessons; a lesson in
// the user's folder joins the menu; the Frameworks table shows compareSchemes's numbers.
// Isolated from the user's files: QStandardPaths test mode and a temporary QSettings path.
#include <QtTest>

#include <QAction>
#include <QCheckBox>
#include <QDockWidget>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <memory>
#include <qcustomplot.h>

#include "core/analysis/framework_schemes.h"
#include "session/explorer/data_service.h"
#include "session/explorer/explorer_model.h"
#include "session/modelfile/model_file_controller.h"
#include "tests/ui/explorer_window_slot.h"
#include "ui/lessons/lesson_controller.h"
#include "ui/lessons/lesson_library.h"
#include "ui/lessons/lesson_panel.h"
#include "ui/lessons/lesson_stage_director.h"
#include "ui/main_window.h"
#include "ui/modelfile/model_docks.h"
#include "ui/panels/parameter_panel.h"
#include "ui/views/framework_view.h"
#include "ui/window/presentation_mode.h"

using namespace qs::ui;

namespace {

constexpr int kCheckTimeoutMs = 180000;  // the sweeps of a lesson check on 1M samples

QList<QAction*> lessonActions(MainWindow* w) {
    QList<QAction*> out;
    auto* menu = w->findChild<QMenu*>(QStringLiteral("lessonsMenu"));
    if (!menu) return out;
    for (QAction* a : menu->actions())
        if (a->objectName().startsWith(QLatin1String("lesson:"))) out << a;
    return out;
}

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

}  // namespace

class TstLessonsUi : public ExplorerWindowSlot {
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void cleanup();

    void libraryFromResourcesAndUserFolder();
    void menuListsTheLessonsInOrder();
    void eachLessonLoadsItsPresetAndPasses_data();
    void eachLessonLoadsItsPresetAndPasses();
    void breakingTheTheoryTurnsTheCheckRed();
    void narrowRangeOffBreaksTheStoredCodes();
    void nextPreviousAndPresentationStep();
    void lessonsSetTheirStageAndRestoreIt();
    void presentationShowsTheLessonsViewAndParameters();
    void frameworksTableMatchesCompareSchemes();

private:
    void waitForVerdict();
    LessonController* lessons() const { return w_->lessons(); }
};

void TstLessonsUi::initTestCase() {
    QVERIFY(isolate());
    QVERIFY(userLessonDir().contains(QLatin1String(".qttest")));
    QDir(userLessonDir()).removeRecursively();
}

void TstLessonsUi::init() {
    // The explorer's own starting spec, on small data, at the window's own size.
    QVERIFY(openWindow(ExplorerModel().spec(), QStringLiteral("normal:n=20000,seed=1"), QSize()));
    QVERIFY(settle(30000));
    QVERIFY(w_->lastResult());
}

void TstLessonsUi::cleanup() { closeWindow(); }

void TstLessonsUi::waitForVerdict() {
    LessonPanel* p = lessons()->panel();
    QTRY_VERIFY_WITH_TIMEOUT(p->checkState() != CheckState::Running && !lessons()->checkBusy() &&
                                 !w_->dataService()->loading() && !w_->computeService()->busy(),
                             kCheckTimeoutMs);
}

void TstLessonsUi::libraryFromResourcesAndUserFolder() {
    QStringList errors;
    QTemporaryDir user;
    QVERIFY(user.isValid());
    // A user lesson that adds one and one that replaces a built-in lesson by id.
    QFile own(user.filePath(QStringLiteral("mine.json")));
    QVERIFY(own.open(QIODevice::WriteOnly));
    own.write(R"({"format": "quantscope-lesson", "version": 1, "id": "my-own", "title": "Mine",
        "order": 50, "explanation": "<p>e</p>", "spec": {"op": "QuantizeV2"},
        "data": "uniform:n=1000,seed=1", "check": {"kind": "step", "tolerance": 0.1}})");
    own.close();
    QFile replace(user.filePath(QStringLiteral("tie.json")));
    QVERIFY(replace.open(QIODevice::WriteOnly));
    replace.write(R"({"format": "quantscope-lesson", "version": 1, "id": "tie-bias", "title": "My ties",
        "order": 9, "explanation": "e", "spec": {"op": "QuantizeV2"},
        "data": "uniform:n=1000,seed=1", "check": {"kind": "step", "tolerance": 0.1}})");
    replace.close();
    QFile broken(user.filePath(QStringLiteral("broken.json")));
    QVERIFY(broken.open(QIODevice::WriteOnly));
    broken.write("{ not json");
    broken.close();

    const QList<Lesson> builtIn = loadLessonLibrary(&errors, builtInLessonDir(), QString());
    QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
    QCOMPARE(builtIn.size(), 13);
    const QList<Lesson> all = loadLessonLibrary(&errors, builtInLessonDir(), user.path());
    QCOMPARE(all.size(), 14);
    QCOMPARE(errors.size(), 1);
    QVERIFY(errors.first().startsWith(QLatin1String("broken.json")));
    QCOMPARE(all.last().id, QStringLiteral("my-own"));
    auto tie = std::find_if(all.begin(), all.end(), [](const Lesson& l) { return l.id == "tie-bias"; });
    QVERIFY(tie != all.end());
    QCOMPARE(tie->title, QStringLiteral("My ties"));
    for (int i = 1; i < all.size(); ++i) QVERIFY(all[i - 1].order <= all[i].order);

    // The built-in per-channel lesson's data file comes out of the resources onto disk,
    // byte for byte.
    auto pc = std::find_if(builtIn.begin(), builtIn.end(), [](const Lesson& l) { return l.id == "per-channel"; });
    QVERIFY(pc != builtIn.end());
    QVERIFY(pc->data.isFile());
    QVERIFY(!pc->data.path.startsWith(QLatin1Char(':')));
    QCOMPARE(readAll(pc->data.path), readAll(QStringLiteral(QS_SOURCE_DIR "/resources/data/weights_8ch.npy")));
    // So does the stored-codes lesson's int8 file, which its check reads.
    auto stored = std::find_if(builtIn.begin(), builtIn.end(), [](const Lesson& l) { return l.id == "stored-int8-table"; });
    QVERIFY(stored != builtIn.end());
    const QString storedModel = QString::fromStdString(stored->check.stored_model);
    QVERIFY2(!storedModel.startsWith(QLatin1Char(':')), qPrintable(storedModel));
    QCOMPARE(readAll(storedModel), readAll(QStringLiteral(QS_SOURCE_DIR "/resources/models/test-model-int8.safetensors")));
    QString error;
    QCOMPARE(fileOnDisk(QStringLiteral("/some/file.npy"), &error), QStringLiteral("/some/file.npy"));
    QVERIFY(fileOnDisk(QStringLiteral(":/data/missing.npy"), &error).isEmpty());
    QVERIFY2(error.contains(QLatin1String(":/data/missing.npy")), qPrintable(error));
}

void TstLessonsUi::menuListsTheLessonsInOrder() {
    const QList<QAction*> actions = lessonActions(w_.get());
    QVERIFY(actions.size() >= 10);
    QCOMPARE(actions.size(), lessons()->lessons().size());
    QVERIFY2(lessons()->loadErrors().isEmpty(), qPrintable(lessons()->loadErrors().join('\n')));
    for (int i = 0; i < actions.size(); ++i) {
        QCOMPARE(actions[i]->objectName(), QStringLiteral("lesson:") + lessons()->lessons()[i].id);
        QVERIFY(actions[i]->text().contains(lessons()->lessons()[i].title));
    }
    QCOMPARE(lessons()->lessons().first().id, QStringLiteral("staircase-step"));
    QVERIFY(!lessons()->dock()->isVisible());
    QCOMPARE(lessons()->dock()->property("qsShowInPresentation").toBool(), true);
}

void TstLessonsUi::eachLessonLoadsItsPresetAndPasses_data() {
    QTest::addColumn<int>("index");
    QStringList errors;
    const QList<Lesson> all = loadLessonLibrary(&errors, builtInLessonDir(), QString());
    for (int i = 0; i < all.size(); ++i) QTest::newRow(qPrintable(all[i].id)) << i;
}

void TstLessonsUi::eachLessonLoadsItsPresetAndPasses() {
    QFETCH(int, index);
    lessonActions(w_.get())[index]->trigger();
    const Lesson& l = lessons()->lessons()[index];
    QCOMPARE(lessons()->currentIndex(), index);
    QVERIFY(model_->spec() == l.spec);
    QVERIFY(model_->dataSource() == l.data);
    QVERIFY(lessons()->dock()->isVisible());
    QCOMPARE(lessons()->panel()->title(), l.title);
    QCOMPARE(lessons()->panel()->position(),
             QStringLiteral("Lesson %1 of %2").arg(index + 1).arg(lessons()->lessons().size()));
    waitForVerdict();
    if (QTest::currentTestFailed()) return;
    QVERIFY2(lessons()->panel()->checkState() == CheckState::Passed, qPrintable(lessons()->panel()->checkText()));
    QVERIFY(lessons()->panel()->checkText().contains(QLatin1String(" vs ")));
    // The check ran on the explorer's result for the lesson's own spec.
    QVERIFY(w_->lastResult()->spec == l.spec);
}

void TstLessonsUi::breakingTheTheoryTurnsTheCheckRed() {
    QVERIFY(lessons()->openLesson(QStringLiteral("scaled-bound")));
    waitForVerdict();
    if (QTest::currentTestFailed()) return;
    QVERIFY(lessons()->panel()->checkState() == CheckState::Passed);
    QVERIFY(lessons()->panel()->checkText().contains(QLatin1String("9.921875")));
    // On [−5, 5] the scale comes from the upper bound (127/5 < 128/5): output_max = 5.
    model_->setMinRange(-5.0f);
    QTRY_VERIFY_WITH_TIMEOUT(lessons()->panel()->checkState() == CheckState::Failed, kCheckTimeoutMs);
    waitForVerdict();
    if (QTest::currentTestFailed()) return;
    QVERIFY(lessons()->panel()->checkState() == CheckState::Failed);
    // Undo restores the preset, and the check passes again.
    model_->undoStack()->undo();
    QTRY_VERIFY_WITH_TIMEOUT(lessons()->panel()->checkState() == CheckState::Passed, kCheckTimeoutMs);
    // Opening a lesson is a reset, not an undo step.
    QCOMPARE(model_->undoStack()->count(), 1);
}

void TstLessonsUi::narrowRangeOffBreaksTheStoredCodes() {
    // The stored int8 table: narrow_range reproduces its codes; switching it off in the
    // explorer changes some by one, and the lesson's check must say so.
    QVERIFY(lessons()->openLesson(QStringLiteral("stored-int8-table")));
    waitForVerdict();
    if (QTest::currentTestFailed()) return;
    QVERIFY2(lessons()->panel()->checkState() == CheckState::Passed, qPrintable(lessons()->panel()->checkText()));
    QVERIFY(lessons()->panel()->checkText().contains(QLatin1String("<br>0 of 59056 codes differ")));
    model_->setNarrowRange(false);
    QTRY_VERIFY_WITH_TIMEOUT(lessons()->panel()->checkState() == CheckState::Failed, kCheckTimeoutMs);
    waitForVerdict();
    if (QTest::currentTestFailed()) return;
    QVERIFY(lessons()->panel()->checkState() == CheckState::Failed);
    qInfo("narrow_range off: %s", qPrintable(lessons()->panel()->checkText()));
    QVERIFY(lessons()->panel()->checkText().contains(QLatin1String("by at most 1;")));
    model_->undoStack()->undo();
    QTRY_VERIFY_WITH_TIMEOUT(lessons()->panel()->checkState() == CheckState::Passed, kCheckTimeoutMs);
}

void TstLessonsUi::nextPreviousAndPresentationStep() {
    const int n = static_cast<int>(lessons()->lessons().size());
    // With no lesson open, "next" starts at the first.
    emit w_->presentationMode()->stepRequested(+1);
    QCOMPARE(lessons()->currentIndex(), 0);
    QVERIFY(!lessons()->panel()->previousButton()->isEnabled());
    QTest::mouseClick(lessons()->panel()->nextButton(), Qt::LeftButton);
    QCOMPARE(lessons()->currentIndex(), 1);
    QCOMPARE(lessons()->panel()->position(), QStringLiteral("Lesson 2 of %1").arg(n));
    QVERIFY(model_->spec() == lessons()->lessons()[1].spec);
    QTest::mouseClick(lessons()->panel()->previousButton(), Qt::LeftButton);
    QCOMPARE(lessons()->currentIndex(), 0);
    emit w_->presentationMode()->stepRequested(-1);  // stays at the first
    QCOMPARE(lessons()->currentIndex(), 0);

    // In presentation mode the arrow keys step, and the lesson dock stays visible.
    auto* checkBox = lessons()->panel()->findChild<QLabel*>(QStringLiteral("lessonCheck"));
    auto* titleLabel = lessons()->panel()->findChild<QLabel*>(QStringLiteral("lessonTitle"));
    QVERIFY(checkBox && titleLabel);
    const double checkSize = checkBox->font().pointSizeF(), titleSize = titleLabel->font().pointSizeF();
    w_->presentationMode()->setOn(true);
    QVERIFY(lessons()->dock()->isVisible());
    // The check box (own style sheet) and the title (own font) grow with the rest of the text.
    QCOMPARE(checkBox->font().pointSizeF(), checkSize * PresentationMode::kFontScale);
    QCOMPARE(titleLabel->font().pointSizeF(), titleSize * PresentationMode::kFontScale);
    QTest::keyClick(w_.get(), Qt::Key_Right);
    QCOMPARE(lessons()->currentIndex(), 1);
    QTest::keyClick(w_.get(), Qt::Key_Right);
    QCOMPARE(lessons()->currentIndex(), 2);
    QTest::keyClick(w_.get(), Qt::Key_Left);
    QCOMPARE(lessons()->currentIndex(), 1);
    QVERIFY(model_->spec() == lessons()->lessons()[1].spec);
    QVERIFY(lessons()->dock()->isVisible());
    w_->presentationMode()->setOn(false);
    // Leaving restores the sizes; entering again does not compound them.
    QCOMPARE(checkBox->font().pointSizeF(), checkSize);
    QCOMPARE(titleLabel->font().pointSizeF(), titleSize);
    w_->presentationMode()->setOn(true);
    QCOMPARE(checkBox->font().pointSizeF(), checkSize * PresentationMode::kFontScale);
    w_->presentationMode()->setOn(false);
    QCOMPARE(titleLabel->font().pointSizeF(), titleSize);

    QVERIFY(lessons()->openLesson(n - 1));
    QVERIFY(!lessons()->panel()->nextButton()->isEnabled());
    emit w_->presentationMode()->stepRequested(+1);  // stays at the last
    QCOMPARE(lessons()->currentIndex(), n - 1);
    QVERIFY(!lessons()->openLesson(QStringLiteral("no-such-lesson")));
    QCOMPARE(lessons()->currentIndex(), n - 1);
    waitForVerdict();
    if (QTest::currentTestFailed()) return;
}

namespace {
int indexOf(const QList<Lesson>& lessons, const QString& id) {
    for (int i = 0; i < lessons.size(); ++i)
        if (lessons[i].id == id) return i;
    return -1;
}
}  // namespace

// Opening a lesson shows the view its text talks about and exactly its docks; the next lesson
// starts from the user's window again (the previous lesson's model docks do not stay); ending
// the lesson puts back the view and the docks the user had.
void TstLessonsUi::lessonsSetTheirStageAndRestoreIt() {
    QDockWidget* parameters = w_->findChild<QDockWidget*>(QStringLiteral("parametersDock"));
    QDockWidget* data = w_->findChild<QDockWidget*>(QStringLiteral("dataDock"));
    QDockWidget* stats = w_->findChild<QDockWidget*>(QStringLiteral("statisticsDock"));
    ModelDocks* models = w_->modelDocks();
    QVERIFY(parameters && data && stats);
    // Every view name a lesson may use is one the window shows.
    for (const QString& name : lessonViewNames()) {
        QVERIFY2(w_->showView(name), qPrintable(name));
        QCOMPARE(w_->currentView(), name);
    }
    QVERIFY(w_->showView(QStringLiteral("bit-sweep")));
    data->raise();  // the user looks at the Data tab
    const QList<Lesson>& all = lessons()->lessons();

    // Lesson 1, "drag a range handle": the transfer curve, not the Bit sweep.
    QVERIFY(lessons()->openLesson(QStringLiteral("staircase-step")));
    QCOMPARE(w_->currentView(), QStringLiteral("transfer"));
    QVERIFY(!parameters->isHidden() && !stats->isHidden() && !lessons()->dock()->isHidden());
    QVERIFY(data->isHidden());

    // The real kernel opens its model: of the three model docks only the Model dock stays.
    QSignalSpy opened(w_->modelFiles(), &ModelFileController::opened);
    QVERIFY(lessons()->openLesson(QStringLiteral("per-channel-real-weights")));
    QCOMPARE(w_->currentView(), QStringLiteral("per-channel"));
    QVERIFY(opened.count() > 0 || opened.wait(30000));
    QVERIFY(!models->modelDockWidget()->isHidden());
    QVERIFY(models->reportDockWidget()->isHidden());
    QVERIFY(models->storedDockWidget()->isHidden());
    // Compact: the bottom dock leaves the view at least two thirds of the height.
    QTRY_VERIFY(models->modelDockWidget()->height() <= w_->height() / 3 + 20);

    // The next lesson does not inherit the model docks.
    QTest::mouseClick(lessons()->panel()->nextButton(), Qt::LeftButton);
    QCOMPARE(lessons()->currentIndex(), indexOf(all, QStringLiteral("stored-int8-table")));
    QCOMPARE(w_->currentView(), QStringLiteral("error-histogram"));
    QTRY_VERIFY_WITH_TIMEOUT(!w_->modelFiles()->opening(), 30000);
    QTest::qWait(50);
    for (QDockWidget* d : {models->modelDockWidget(), models->reportDockWidget(), models->storedDockWidget()})
        QVERIFY2(d->isHidden(), qPrintable(d->objectName()));

    // Ending the lesson: the user's view and docks again.
    auto* end = w_->findChild<QAction*>(QStringLiteral("endLessonAction"));
    QVERIFY(end && end->isEnabled());
    end->trigger();
    QCOMPARE(lessons()->currentIndex(), -1);
    QVERIFY(!end->isEnabled());
    QCOMPARE(w_->currentView(), QStringLiteral("bit-sweep"));
    QVERIFY(lessons()->dock()->isHidden());
    QVERIFY(!data->isHidden() && !parameters->isHidden() && !stats->isHidden());
    QVERIFY(models->modelDockWidget()->isHidden());
    waitForVerdict();
}

// Presentation mode: stepping with the arrow keys shows each lesson's view (no empty plot
// left from the previous lesson's axes), and the lesson dock shows the parameters the text
// asks to change, since the Parameters dock is hidden.
void TstLessonsUi::presentationShowsTheLessonsViewAndParameters() {
    const QList<Lesson>& all = lessons()->lessons();
    QVERIFY(lessons()->openLesson(QStringLiteral("per-channel")));
    QCOMPARE(w_->currentView(), QStringLiteral("per-channel"));
    ParameterPanel* strip = lessons()->parameterStrip();
    QVERIFY(!strip->isVisible());  // the Parameters dock is there
    w_->presentationMode()->setOn(true);
    QVERIFY(strip->isVisible());
    QVERIFY(strip->findChild<QWidget*>(QStringLiteral("axisSpin"))->isVisible());
    QVERIFY(!strip->findChild<QWidget*>(QStringLiteral("opCombo"))->isVisible());
    QVERIFY(!w_->findChild<QDockWidget*>(QStringLiteral("parametersDock"))->isVisible());

    // A field of the strip with the focus keeps its keys: the arrows move its cursor, not
    // the lesson.
    auto* axis = strip->findChild<QSpinBox*>(QStringLiteral("axisSpin"));
    QVERIFY(axis);
    axis->setFocus();
    QTRY_VERIFY(axis->hasFocus());
    QTest::keyClick(axis, Qt::Key_Right);
    QTest::keyClick(axis, Qt::Key_Space);
    QCOMPARE(lessons()->currentIndex(), indexOf(all, QStringLiteral("per-channel")));
    QTest::keyClick(axis, Qt::Key_Escape);  // out of the field, still presenting
    QVERIFY(w_->presentationMode()->isOn());
    QVERIFY(!axis->hasFocus());

    QTest::keyClick(w_.get(), Qt::Key_Right);  // TPU simulated quantization: no axis
    QCOMPARE(lessons()->currentIndex(), indexOf(all, QStringLiteral("tpu-combiner")));
    QCOMPARE(w_->currentView(), QStringLiteral("error-histogram"));
    auto* buckets = strip->findChild<QSpinBox*>(QStringLiteral("numBucketsSpin"));
    QVERIFY(buckets && buckets->isVisible());
    QVERIFY(!strip->findChild<QWidget*>(QStringLiteral("axisSpin"))->isVisible());
    QVERIFY(!strip->findChild<QWidget*>(QStringLiteral("minRangeSpin"))->isVisible());
    // The strip edits the explorer like the form: one undo step.
    buckets->setValue(16);
    QCOMPARE(model_->spec().num_buckets, qint64{16});
    QVERIFY(model_->undoStack()->canUndo());
    model_->undoStack()->undo();
    QCOMPARE(buckets->value(), 256);

    QTest::keyClick(w_.get(), Qt::Key_Right);  // a model's tensor: its docks stay hidden here
    QSignalSpy opened(w_->modelFiles(), &ModelFileController::opened);
    QCOMPARE(w_->currentView(), QStringLiteral("per-channel"));
    QVERIFY(opened.count() > 0 || opened.wait(30000));
    QVERIFY(w_->modelDocks()->modelDockWidget()->isHidden());
    QVERIFY(lessons()->dock()->isVisible());

    // Leaving presentation mode: the lesson's own stage (its Model dock), no strip.
    w_->presentationMode()->setOn(false);
    QVERIFY(!strip->isVisible());
    QVERIFY(!w_->modelDocks()->modelDockWidget()->isHidden());
    QVERIFY(w_->findChild<QDockWidget*>(QStringLiteral("parametersDock"))->isVisible());
    QCOMPARE(w_->currentView(), QStringLiteral("per-channel"));
    waitForVerdict();
}

void TstLessonsUi::frameworksTableMatchesCompareSchemes() {
    // A spec where the schemes disagree: QuantizeV2 MIN_COMBINED qint8 on [−1, 0.7].
    model_->setRange(-1.0f, 0.7f);
    QTRY_VERIFY_WITH_TIMEOUT(w_->lastResult() && w_->lastResult()->spec == model_->spec(), 30000);
    FrameworkView* view = w_->frameworkView();
    int tab = -1;
    for (int i = 0; i < w_->tabs()->count(); ++i)
        if (w_->tabs()->tabText(i) == QStringLiteral("Frameworks")) tab = i;
    QVERIFY(tab >= 0);
    QVERIFY(!view->comparison());  // nothing computed while hidden
    w_->tabs()->setCurrentIndex(tab);
    QTRY_VERIFY_WITH_TIMEOUT(view->comparison() && !view->busy(), 60000);

    std::vector<qs::analysis::SchemeOutput> outputs;
    auto check = [&](int schemes) {
        const FrameworkInput& in = view->input();
        QCOMPARE(static_cast<int>(in.schemes.size()), schemes);
        QCOMPARE(in.min, -1.0f);
        QCOMPARE(in.max, 0.7f);
        QCOMPARE(in.bits, 8);
        QCOMPARE(view->graphs().size(), schemes);
        const auto data = w_->dataService()->dataset();
        auto direct = qs::analysis::compareSchemes(data->values, in.min, in.max, in.bits, in.schemes);
        QVERIFY(bool(direct));
        QTableWidget* t = view->table();
        QCOMPARE(t->rowCount(), static_cast<int>(direct->diffs.size()));
        QCOMPARE(t->rowCount(), schemes * (schemes - 1) / 2);
        int64_t total = 0;
        for (int row = 0; row < t->rowCount(); ++row) {
            const auto& d = direct->diffs[static_cast<size_t>(row)];
            QCOMPARE(t->item(row, 0)->toolTip(), QString::fromStdString(direct->outputs[static_cast<size_t>(d.a)].label));
            QCOMPARE(t->item(row, 1)->toolTip(), QString::fromStdString(direct->outputs[static_cast<size_t>(d.b)].label));
            QCOMPARE(t->item(row, 2)->text().toLongLong(), d.differing);
            for (int r = 1; r < qs::analysis::kDiffReasonCount; ++r)
                QCOMPARE(t->item(row, 3 + r)->text().toLongLong(), d.by_reason[static_cast<size_t>(r)]);
            total += d.differing;
            // The scheme labels wrap inside their cells instead of being cut short: each row
            // is as tall as its wrapped label needs at the column's width.
            for (int column : {0, 1}) {
                QStyleOptionViewItem option;
                option.initFrom(t);
                option.font = t->font();
                option.features |= QStyleOptionViewItem::WrapText;
                option.rect = QRect(0, 0, t->columnWidth(column), t->rowHeight(row));
                const int needed = t->itemDelegate()->sizeHint(option, t->model()->index(row, column)).height();
                QVERIFY2(t->rowHeight(row) >= needed,
                         qPrintable(QStringLiteral("row %1: %2 px for %3 px of text")
                                        .arg(row).arg(t->rowHeight(row)).arg(needed)));
            }
        }
        QVERIFY(total > 0);  // the schemes do disagree somewhere on this range
        QVERIFY(view->examples()->count() > 0);
        for (int i = 0; i < view->examples()->count(); ++i)
            QVERIFY(view->examples()->item(i)->text().contains(QLatin1String(" vs ")));
        outputs = direct->outputs;
    };
    check(5);
    if (QTest::currentTestFailed()) return;
    QCOMPARE(outputs.size(), size_t{5});
    QVERIFY(QString::fromStdString(outputs[0].label).startsWith(QLatin1String("TF")));
    for (const auto& o : outputs) QVERIFY(!QString::fromStdString(o.label).contains(QLatin1String("r1.4")));

    // The r1.4 documented SCALED only on request, labelled as such.
    QVERIFY(!view->r14Box()->isChecked());
    view->r14Box()->setChecked(true);
    QTRY_VERIFY_WITH_TIMEOUT(view->comparison() && view->comparison()->outputs.size() == 6 && !view->busy(), 60000);
    check(6);
    if (QTest::currentTestFailed()) return;
    QVERIFY(QString::fromStdString(outputs[5].label).contains(QLatin1String("r1.4")));

    // Clicking an example zooms the curves onto its element.
    QListWidgetItem* item = view->examples()->item(0);
    const double x = item->data(Qt::UserRole).toDouble();
    view->examples()->itemClicked(item);
    QVERIFY(view->plot()->xAxis->range().contains(x));
    QVERIFY(view->plot()->xAxis->range().size() < 0.5);
}

QTEST_MAIN(TstLessonsUi)
#include "tst_lessons_ui.moc"
