// The fixture of the explorer window's tests (tst_main_window*): the real MainWindow on a
// small generated dataset, driven as a user drives it, offscreen. Each test gets a fresh
// model and window; settle() waits for the compute service; verifyShowsModel() checks that
// the result on screen is the model's and every view draws it. Isolated from the user's
// files: QStandardPaths test mode and a temporary QSettings path. Every warning the window
// prints fails the test (the offscreen platform's own noise is dropped).
#pragma once

#include <QtTest>

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QStyle>
#include <QStyleOptionButton>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTimer>
#include <QWindow>
#include <cmath>
#include <functional>
#include <memory>
#include <qcustomplot.h>
#include <set>
#include <tuple>

#include "core/analysis/quant_spec.h"
#include "core/analysis/view_data.h"
#include "session/explorer/compute_service.h"
#include "session/explorer/data_service.h"
#include "session/explorer/explorer_model.h"
#include "session/explorer/session.h"
#include "ui/main_window.h"
#include "ui/panels/data_panel.h"
#include "ui/panels/parameter_panel.h"
#include "ui/plot/plot_frame.h"
#include "ui/plot/range_handles.h"
#include "ui/plot/theme.h"
#include "ui/views/channel_view.h"
#include "ui/views/error_histogram_view.h"
#include "ui/views/histogram_view.h"
#include "ui/views/stats_panel.h"
#include "ui/views/transfer_view.h"
#include "ui/window/presentation_mode.h"


using namespace qs::ui;

// A helper that QVERIFYs returns early on failure; the caller stops too.
#define CHECK(call)                                  \
    do {                                             \
        call;                                        \
        if (QTest::currentTestFailed()) return;      \
    } while (false)

inline const QString kSmallData = QStringLiteral("normal:n=20000,seed=1");
// The explorer's views come first; the analysis tabs after them have tests of their own
// (tst_analysis_views).
inline constexpr int kExplorerTabs = 4;

// Warnings printed during the current test (a test may take out one it expects).
extern QStringList warnings;

template <typename Data>
std::vector<std::pair<double, double>> points(const Data& data) {
    std::vector<std::pair<double, double>> out;
    for (auto it = data->constBegin(); it != data->constEnd(); ++it) out.emplace_back(it->key, it->value);
    return out;
}
size_t distinctValues(QCPGraph* graph);
QCPItemStraightLine* plotLine(QCustomPlot* plot, const QString& name);
// Rows of a CSV file (header first), split at commas (our files quote nothing numeric).
QList<QStringList> readCsv(const QString& path);
double csvValue(const QString& field);
// A CSV number against the value written: float32 values are written as the shortest text
// that reads back as the same float32, other doubles as the shortest round-trip double.
bool csvEquals(const QString& field, double value);
// Share of the image's pixels that have exactly this colour.
double shareOf(const QImage& image, const QColor& colour);
// A float32 .npy file (format 1.0).
bool writeNpy(const QString& path, const std::vector<float>& values, const QString& shape);
bool writeText(const QString& path, const QByteArray& text);
// 8 channels along axis 1 of [2500, 8], each with its own spread.
std::vector<float> channelData();

class ExplorerWindowTest : public QObject {
    Q_OBJECT

private slots:  // run by QTest for every test class derived from this one
    void initTestCase();
    void init();
    void cleanup();
    void cleanupTestCase();

protected:
    void makeWindow();
    bool settle();  // waits until no data load or computation is pending
    void verifyShowsModel();
    void verifyStale(const QString& text);
    void typeInto(const char* name, const QString& text);
    void clickCheck(const char* name);
    void selectData(const char* name, int value);
    bool rowVisible(const char* name) const;
    QAction* menuAction(const QString& menu, const QString& prefix) const;
    QMenu* recentMenu() const;
    void answerNextDialog(const QString& path = QString());
    void useChannelData();
    template <typename T>
    T* child(const char* name) const {
        return w_->findChild<T*>(QLatin1String(name));
    }

    QTemporaryDir settingsDir_;
    std::unique_ptr<QTemporaryDir> dir_;
    std::unique_ptr<ExplorerModel> model_;
    std::unique_ptr<MainWindow> w_;
    std::unique_ptr<QSignalSpy> firstShown_;  // resultShown since the window was built
    QString lastMessage_;                     // the text of the last message box answered
};
