// The QApplication of the commands that draw pictures with the GUI's views (export,
// analyze --png): views are widgets and need one. It runs on Qt's offscreen platform unless
// the caller chose a platform (the pictures then depend on no display or screen DPI), with
// Qt's messages going to `handler`. The other commands never create one.
#pragma once

#include <QApplication>
#include <memory>

namespace qs::cli {

std::unique_ptr<QApplication> offscreenApplication(QtMessageHandler handler);

}  // namespace qs::cli
