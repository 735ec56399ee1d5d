#include "tests/ui/explorer_window_test.h"

#include <QFileInfo>

#include "tests/ui/isolated_user_files.h"

namespace {

// The offscreen platform warns on every top-level resize; drop exactly that message and
// collect every other warning: the window must run warning-free.
QtMessageHandler previousHandler = nullptr;
void messageFilter(QtMsgType type, const QMessageLogContext& context, const QString& message) {
    // (and, for a popup menu, raise and keyboard grabs: offscreen has no window manager)
    for (const char* noise : {"This plugin does not support propagateSizeHints()",
                              "This plugin does not support raise()",
                              "This plugin does not support grabbing the keyboard"})
        if (message == QLatin1String(noise)) return;
    if (type == QtWarningMsg || type == QtCriticalMsg) warnings << message;
    previousHandler(type, context, message);
}

}  // namespace

QStringList warnings;

size_t distinctValues(QCPGraph* graph) {
    std::set<double> s;
    for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it) s.insert(it->value);
    return s.size();
}

QCPItemStraightLine* plotLine(QCustomPlot* plot, const QString& name) {
    for (int i = 0; i < plot->itemCount(); ++i)
        if (plot->item(i)->objectName() == name) return qobject_cast<QCPItemStraightLine*>(plot->item(i));
    return nullptr;
}

QList<QStringList> readCsv(const QString& path) {
    QFile f(path);
    QList<QStringList> rows;
    if (!f.open(QIODevice::ReadOnly)) return rows;
    for (const QByteArray& line : f.readAll().split('\n'))
        if (!line.isEmpty()) rows << QString::fromUtf8(line).split(QLatin1Char(','));
    return rows;
}

double csvValue(const QString& field) {
    if (field == QLatin1String("nan")) return std::numeric_limits<double>::quiet_NaN();
    if (field == QLatin1String("inf")) return std::numeric_limits<double>::infinity();
    if (field == QLatin1String("-inf")) return -std::numeric_limits<double>::infinity();
    bool ok = false;
    const double v = field.toDouble(&ok);
    return ok ? v : std::numeric_limits<double>::signaling_NaN();
}

static bool sameValue(double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

bool csvEquals(const QString& field, double value) {
    const double v = csvValue(field);
    if (sameValue(v, value)) return true;
    return static_cast<double>(static_cast<float>(value)) == value && static_cast<float>(v) == static_cast<float>(value);
}

double shareOf(const QImage& image, const QColor& colour) {
    qint64 n = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) n += QColor(image.pixel(x, y)) == colour;
    return double(n) / (double(image.width()) * image.height());
}

bool writeNpy(const QString& path, const std::vector<float>& values, const QString& shape) {
    QByteArray header = QStringLiteral("{'descr': '<f4', 'fortran_order': False, 'shape': (%1), }")
                            .arg(shape).toLatin1();
    while ((10 + header.size() + 1) % 64 != 0) header += ' ';
    header += '\n';
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) return false;
    f.write("\x93NUMPY\x01\x00", 8);
    const quint16 len = static_cast<quint16>(header.size());
    const char lenBytes[2] = {static_cast<char>(len & 0xff), static_cast<char>(len >> 8)};
    f.write(lenBytes, 2);
    f.write(header);
    f.write(reinterpret_cast<const char*>(values.data()), static_cast<qint64>(values.size() * sizeof(float)));
    return true;
}

bool writeText(const QString& path, const QByteArray& text) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(text) == text.size();
}

std::vector<float> channelData() {
    std::vector<float> v(2500 * 8);
    for (size_t i = 0; i < v.size(); ++i)
        v[i] = static_cast<float>(std::sin(0.37 * static_cast<double>(i)) * (0.5 + 0.25 * static_cast<double>(i % 8)));
    return v;
}

void ExplorerWindowTest::initTestCase() {
    previousHandler = qInstallMessageHandler(messageFilter);
    QVERIFY(isolateUserFiles(settingsDir_));
    QLocale::setDefault(QLocale::c());
    // The autosave lives under the test-mode data location, never the user's.
    QVERIFY(MainWindow::lastSessionPath().contains(QLatin1String(".qttest")));
    QFile::remove(MainWindow::lastSessionPath());
}

void ExplorerWindowTest::makeWindow() {
    model_ = std::make_unique<ExplorerModel>();
    DataSource small;
    small.generator = kSmallData;
    model_->reset(model_->spec(), small, ViewState{});
    w_ = std::make_unique<MainWindow>(model_.get());
    // Closing with unsaved edits would ask in a message box; these tests close to autosave.
    w_->setUnsavedChangesPrompt([] { return MainWindow::UnsavedChoice::Discard; });
    firstShown_ = std::make_unique<QSignalSpy>(w_.get(), &MainWindow::resultShown);
    w_->show();
    w_->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(w_.get()));
}

void ExplorerWindowTest::init() {
    warnings.clear();
    QSettings().clear();
    dir_ = std::make_unique<QTemporaryDir>();
    QVERIFY(dir_->isValid());
    CHECK(makeWindow());
    QVERIFY(settle());
    QVERIFY(w_->lastResult());
}

void ExplorerWindowTest::cleanup() {
    firstShown_.reset();
    w_.reset();
    model_.reset();
    dir_.reset();
    QApplication::setPalette(widgetPalette(Theme::Light));
    QFile::remove(MainWindow::lastSessionPath());
    QVERIFY2(warnings.isEmpty(), qPrintable(warnings.join(QLatin1Char('\n'))));
}

void ExplorerWindowTest::cleanupTestCase() { qInstallMessageHandler(previousHandler); }

bool ExplorerWindowTest::settle() {
    return QTest::qWaitFor([this] { return !w_->computeService()->busy() && !w_->dataService()->loading(); },
                           10000);
}

// The result on screen is the model's spec, every view draws it, nothing is stale.
void ExplorerWindowTest::verifyShowsModel() {
    const ExplorerResultPtr r = w_->lastResult();
    QVERIFY(r);
    QVERIFY(r->spec == model_->spec());
    QVERIFY(!w_->resultIsStale());
    QCOMPARE(w_->transferView()->result(), r);
    QCOMPARE(w_->histogramView()->result(), r);
    QCOMPARE(w_->errorHistogramView()->result(), r);
    QCOMPARE(w_->channelView()->result(), r);
    QCOMPARE(w_->statsPanel()->result(), r);
    for (int i = 0; i < kExplorerTabs; ++i)
        QVERIFY(!qobject_cast<PlotFrame*>(w_->tabs()->widget(i))->isStale());
    QVERIFY(!w_->statsPanel()->isStale());
    QVERIFY(!child<QLabel>("errorLabel")->isVisible());
    // The transfer curve the view holds is the result's curve, point for point; it draws the
    // points its width shows, each one a point of that curve.
    const PlotDecimation::Series* full = w_->transferView()->fullSeries(w_->transferView()->curveGraph());
    QVERIFY(full);
    QCOMPARE(full->keys, r->curve.x);
    QCOMPARE(full->values, r->curve.output);
    const auto drawn = points(w_->transferView()->curveGraph()->data());
    QVERIFY(!drawn.empty());
    for (const auto& [x, y] : drawn) {
        const auto at = std::lower_bound(r->curve.x.begin(), r->curve.x.end(), x);
        QVERIFY(at != r->curve.x.end() && *at == x);
        QCOMPARE(y, r->curve.output[size_t(at - r->curve.x.begin())]);
    }
    // The histogram's clip lines sit at the range the op used.
    QCustomPlot* hp = w_->histogramView()->plot();
    QCOMPARE(plotLine(hp, QStringLiteral("clipLoLine"))->point1->coords().x(), double(r->clip_lo));
    QCOMPARE(plotLine(hp, QStringLiteral("clipHiLine"))->point1->coords().x(), double(r->clip_hi));
    // Statistics: the panel and the status bar show the result's numbers.
    const QString sqnr = QString::number(r->stats.sqnr_db, 'f', 2);
    if (std::isfinite(r->stats.sqnr_db)) QCOMPARE(w_->statsPanel()->valueText(QStringLiteral("sqnr_db")), sqnr + QStringLiteral(" dB"));
    QCOMPARE(w_->statsPanel()->valueText(QStringLiteral("count")), QLocale().toString(static_cast<qlonglong>(r->stats.count)));
    const QString status = child<QLabel>("explorerStatusLabel")->text();
    QVERIFY2(status.contains(QStringLiteral("SQNR %1 dB").arg(sqnr)) &&
                 status.contains(QStringLiteral("%1 levels used").arg(r->stats.distinct_levels)),
             qPrintable(status));
}

// A failed computation: TF's text in the panel, the status bar and over every view; the
// last valid result stays.
void ExplorerWindowTest::verifyStale(const QString& text) {
    QVERIFY(w_->resultIsStale());
    auto* error = child<QLabel>("errorLabel");
    QVERIFY(error->isVisible());
    QCOMPARE(error->text(), text);
    QCOMPARE(child<QLabel>("explorerStatusLabel")->text(), text);
    for (int i = 0; i < kExplorerTabs; ++i) {
        auto* view = qobject_cast<PlotFrame*>(w_->tabs()->widget(i));
        QVERIFY(view->isStale());
        QCOMPARE(view->staleMessage(), text);
    }
    QVERIFY(w_->statsPanel()->isStale());
}

void ExplorerWindowTest::typeInto(const char* name, const QString& text) {
    auto* spin = child<QAbstractSpinBox>(name);
    QVERIFY2(spin, name);
    QVERIFY2(spin->isVisible() && spin->isEnabled(), name);
    spin->setFocus();
    spin->selectAll();
    QTest::keyClicks(spin, text);
    QTest::keyClick(spin, Qt::Key_Enter);
}

void ExplorerWindowTest::clickCheck(const char* name) {
    auto* check = child<QCheckBox>(name);
    QVERIFY2(check, name);
    QVERIFY2(check->isVisible(), name);
    QStyleOptionButton option;
    option.initFrom(check);
    const QRect indicator = check->style()->subElementRect(QStyle::SE_CheckBoxIndicator, &option, check);
    QTest::mouseClick(check, Qt::LeftButton, {}, indicator.center());
}

void ExplorerWindowTest::selectData(const char* name, int value) {
    auto* combo = child<QComboBox>(name);
    QVERIFY2(combo, name);
    const int index = combo->findData(value);
    QVERIFY2(index >= 0, name);
    combo->setCurrentIndex(index);
}

bool ExplorerWindowTest::rowVisible(const char* name) const {
    QWidget* field = child<QWidget>(name);
    return field && field->isVisibleTo(w_->parameterPanel());
}

QAction* ExplorerWindowTest::menuAction(const QString& menu, const QString& prefix) const {
    for (QAction* m : w_->menuBar()->actions())
        if (m->menu() && m->text() == menu)
            for (QAction* a : m->menu()->actions())
                if (a->text().startsWith(prefix)) return a;
    return nullptr;
}

QMenu* ExplorerWindowTest::recentMenu() const {
    QAction* a = menuAction(QStringLiteral("&File"), QStringLiteral("Open &recent"));
    return a ? a->menu() : nullptr;
}

// Answers the next modal dialog as a user would: a file dialog (QFileDialog::getOpenFileName /
// getSaveFileName) with `path`, a message box with OK (its text goes to lastMessage_).
void ExplorerWindowTest::answerNextDialog(const QString& given) {
    // A file dialog reads a relative name against its own folder, not the test's: absolute.
    const QString path = given.isEmpty() ? given : QFileInfo(given).absoluteFilePath();
    auto* timer = new QTimer(this);
    auto ticks = std::make_shared<int>(0);
    timer->setInterval(10);
    lastMessage_.clear();
    connect(timer, &QTimer::timeout, this, [this, timer, ticks, path] {
        QWidget* modal = QApplication::activeModalWidget();
        if (auto* dialog = qobject_cast<QFileDialog*>(modal)) {
            dialog->selectFile(path);
            // selectFile leaves the name field alone while it has focus (the dialog was
            // activated before this tick): type the path there as a user would, or accept()
            // sees no file, returns, and the dialog waits forever.
            if (auto* name = dialog->findChild<QLineEdit*>(QStringLiteral("fileNameEdit"))) name->setText(path);
            static_cast<QDialog*>(dialog)->accept();  // QFileDialog::accept: validates the file
        } else if (auto* box = qobject_cast<QMessageBox*>(modal)) {
            lastMessage_ = box->text();
            box->accept();
        }
        if (modal || ++*ticks > 500) {
            timer->stop();
            timer->deleteLater();
        }
    });
    timer->start();
}

void ExplorerWindowTest::useChannelData() {
    const QString path = dir_->filePath(QStringLiteral("channels.npy"));
    QVERIFY(writeNpy(path, channelData(), QStringLiteral("2500, 8")));
    DataSource source = model_->dataSource();
    source.path = path;
    model_->setDataSource(source);
    QVERIFY(settle());
    QCOMPARE(w_->dataService()->dataset()->shape, (qs::Shape{2500, 8}));
}
