// Files named as the system spells them. On Linux a file name is bytes; Qt 6 decodes them as
// UTF-8 and turns bytes that are not UTF-8 into U+FFFD, so such a name does not survive a trip
// through QString. Names from the command line therefore stay bytes (std::string, which is
// also what core's readers and writers take) until the file is opened; names from a file
// dialog are QStrings and become bytes with QFile::encodeName (nativePath); QString paths
// may also name Qt resources (":/lessons/..."), which only QFile opens.
//
// Every output of the UI and the CLI is written with writeFileBytes (core's writeOutputFile:
// atomic for regular files, in place for devices and FIFOs, the previous file intact on error).
#pragma once

#include <QByteArray>
#include <QString>
#include <string>

namespace qs::ui {

std::string nativePath(const QString& path);
// For messages: bytes that are not UTF-8 show as U+FFFD.
QString displayPath(const std::string& nativePath);
// The last component of a path, for messages ("broken.qscope: line 3: ...").
QString displayFileName(const std::string& nativePath);

// The whole file; false with `reason` = the system's text ("No such file or directory").
bool readFileBytes(const std::string& nativePath, QByteArray* bytes, QString* reason);

// false with `reason` = the system's text ("No space left on device", "File too large").
bool writeFileBytes(const std::string& nativePath, const QByteArray& bytes, QString* reason);
bool writeFileBytes(const QString& path, const QByteArray& bytes, QString* reason);
// The window's exports (pictures, CSV tables): `error` = "Could not write PATH: <reason>".
bool exportFile(const QString& path, const QByteArray& bytes, QString* error);

}  // namespace qs::ui
