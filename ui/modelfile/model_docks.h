// The window's three model-file docks and their wiring, so MainWindow only places them:
//  - Model: the tensors of the open file (ModelDock);
//  - Model report: the whole-model report under the explorer's op settings (ModelReportView,
//    recomputed when a model opens or the settings change; a row or bar explores its tensor);
//  - Stored quantization: for the explored tensor when the file stores it as integer codes,
//    the codes against TF's rules (StoredQuantView), optionally against a float original
//    chosen with "Float original…" (the safetensors int8 file next to its float32 file).
// All three sit in the bottom dock area, tabbed; they appear when the first model opens. On a
// short window (a 1280×800 laptop) they open tabbed with the side dock named by
// setShortWindowCompanion() instead: below the explorer they left its transfer plot 120
// pixels of data under its legend.
#pragma once

#include <QObject>
#include <QString>

#include "core/modelfile/model_file.h"

class QDockWidget;
class QLabel;
class QMainWindow;
class QPushButton;

namespace qs::ui {

class ExplorerModel;
class ModelDock;
class ModelFileController;
class ModelReportView;
class StoredQuantView;

class ModelDocks : public QObject {
    Q_OBJECT
public:
    ModelDocks(QMainWindow* window, ModelFileController* controller, ExplorerModel* explorer);

    ModelDock* modelDock() const { return modelDock_; }
    ModelReportView* reportView() const { return report_; }
    StoredQuantView* storedView() const { return stored_; }
    QDockWidget* modelDockWidget() const { return modelDockWidget_; }
    QDockWidget* reportDockWidget() const { return reportDockWidget_; }
    QDockWidget* storedDockWidget() const { return storedDockWidget_; }

    // The side dock the model docks join, as tabs, when the first model opens in a window
    // lower than kShortWindowHeight (the Statistics dock).
    void setShortWindowCompanion(QDockWidget* companion) { companion_ = companion; }
    static constexpr int kShortWindowHeight = 900;

    // The float file the stored codes are compared with (null: the file's own scales);
    // false with `error` when it cannot be opened.
    bool setOriginal(const QString& path, QString* error = nullptr);
    qs::modelfile::ModelPtr original() const { return original_; }

signals:
    // A channel's row of the report was clicked: the explorer shows its tensor with that
    // channel's transfer curve (the window then shows a view that draws it).
    void channelActivated();

private:
    void modelOpened();
    void showStored(const QString& tensor);
    void chooseOriginal();

    QMainWindow* window_;
    ModelFileController* controller_;
    ModelDock* modelDock_;
    ModelReportView* report_;
    StoredQuantView* stored_;
    QLabel* originalLabel_;
    QPushButton* originalButton_;
    QDockWidget* modelDockWidget_;
    QDockWidget* reportDockWidget_;
    QDockWidget* storedDockWidget_;
    QDockWidget* companion_ = nullptr;
    qs::modelfile::ModelPtr original_;
    QString originalPath_;
};

}  // namespace qs::ui
