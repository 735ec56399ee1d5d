// MainWindow's layout: the views grouped under a two-level navigator and the window's size
// on the screen it opens on.
#include <QTabWidget>
#include <QVBoxLayout>

#include "ui/analysis/analysis_tabs.h"
#include "ui/analysis/bit_sweep_view.h"
#include "ui/analysis/calibration_panel.h"
#include "ui/analysis/clip_sweep_view.h"
#include "ui/analysis/comparison_view.h"
#include "ui/main_window.h"
#include "ui/view_navigator.h"
#include "ui/views/channel_view.h"
#include "ui/views/error_histogram_view.h"
#include "ui/views/framework_view.h"
#include "ui/views/histogram_view.h"
#include "ui/views/transfer_view.h"
#include "ui/window/window_fit.h"

namespace qs::ui {

void MainWindow::createViewNavigator() {
    using View = ViewNavigator::View;
    const QVector<ViewNavigator::Group> groups{
        {tr("Explore"),
         {View{QStringLiteral("transfer"), transferView_}, View{QStringLiteral("histogram"), histogramView_},
          View{QStringLiteral("error-histogram"), errorView_}, View{QStringLiteral("per-channel"), channelView_}}},
        {tr("Analyse"),
         {View{QStringLiteral("bit-sweep"), analysis_->bitSweepView()},
          View{QStringLiteral("clip-sweep"), analysis_->clipSweepView()},
          View{QStringLiteral("calibration"), analysis_->calibrationPanel()}}},
        {tr("Compare"),
         {View{QStringLiteral("compare"), analysis_->comparisonView()},
          View{QStringLiteral("frameworks"), frameworkView_}}},
    };
    navigator_ = new ViewNavigator(tabs_, groups);
    auto* central = new QWidget;
    central->setObjectName(QStringLiteral("viewArea"));
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(navigator_);
    layout->addWidget(tabs_, 1);
    setCentralWidget(central);
}

bool MainWindow::showView(const QString& id) { return navigator_->select(id); }

QString MainWindow::currentView() const { return navigator_->currentId(); }

void MainWindow::fitToScreen() { fitToAvailableScreen(this, QSize(1360, 820)); }

}  // namespace qs::ui
