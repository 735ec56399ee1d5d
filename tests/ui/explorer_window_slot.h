// The base of GUI test classes that open one explorer window per test: the model and the
// MainWindow (model_, w_), made by openWindow() and torn down by closeWindow(), with the
// user's files kept away (isolated_user_files.h) by isolate() in initTestCase. No Q_OBJECT
// here: the test class that derives from it has its own slots.
#pragma once

#include <QFile>
#include <QLocale>
#include <QObject>
#include <QSize>
#include <QTemporaryDir>
#include <QtTest>
#include <memory>

#include "core/analysis/quant_spec.h"
#include "session/explorer/compute_service.h"
#include "session/explorer/data_service.h"
#include "session/explorer/explorer_model.h"
#include "tests/ui/isolated_user_files.h"
#include "tests/ui/show_exposed.h"
#include "ui/main_window.h"

class ExplorerWindowSlot : public QObject {
protected:
    // In initTestCase: settings in a temporary folder, C number formats.
    bool isolate() {
        if (!isolateUserFiles(settingsDir_)) return false;
        QLocale::setDefault(QLocale::c());
        return true;
    }

    // A fresh model on `spec` and `source`, its window shown at `size` (an empty size: the
    // window's own) and exposed. The caller waits for what it needs.
    bool openWindow(const qs::QuantSpec& spec, const qs::ui::DataSource& source, QSize size = {1600, 1000}) {
        closeWindow();
        model_ = std::make_unique<qs::ui::ExplorerModel>();
        model_->reset(spec, source, qs::ui::ViewState{});
        w_ = std::make_unique<qs::ui::MainWindow>(model_.get());
        return showExposed(w_.get(), size);
    }
    bool openWindow(const qs::QuantSpec& spec, const QString& generator, QSize size = {1600, 1000}) {
        qs::ui::DataSource source;
        source.generator = generator;
        return openWindow(spec, source, size);
    }

    // The window first (it reads the model while closing), then the model and the autosave.
    void closeWindow() {
        w_.reset();
        model_.reset();
        QFile::remove(qs::ui::MainWindow::lastSessionPath());
    }

    // Waits until neither the explorer's computation nor its data load is running.
    bool settle(int timeoutMs = 20000) const {
        return QTest::qWaitFor([this] { return !w_->computeService()->busy() && !w_->dataService()->loading(); },
                               timeoutMs);
    }

    QTemporaryDir settingsDir_;
    std::unique_ptr<qs::ui::ExplorerModel> model_;
    std::unique_ptr<qs::ui::MainWindow> w_;
};
