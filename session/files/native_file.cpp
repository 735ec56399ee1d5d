#include "session/files/native_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <QCoreApplication>
#include <QFile>
#include <cerrno>
#include <string_view>
#include <system_error>

#include "core/data/output_file.h"

namespace qs::ui {

namespace {
QString errnoText(int e) { return QString::fromStdString(std::generic_category().message(e)); }
}  // namespace

std::string nativePath(const QString& path) { return QFile::encodeName(path).toStdString(); }

QString displayPath(const std::string& nativePath) {
    return QFile::decodeName(QByteArray::fromStdString(nativePath));
}

QString displayFileName(const std::string& nativePath) {
    const size_t slash = nativePath.rfind('/');
    return displayPath(slash == std::string::npos ? nativePath : nativePath.substr(slash + 1));
}

bool readFileBytes(const std::string& nativePath, QByteArray* bytes, QString* reason) {
    const int fd = ::open(nativePath.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        if (reason) *reason = errnoText(errno);
        return false;
    }
    struct stat st{};
    if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
        ::close(fd);
        if (reason) *reason = errnoText(EISDIR);
        return false;
    }
    QFile file;
    if (!file.open(fd, QIODevice::ReadOnly, QFileDevice::AutoCloseHandle)) {
        ::close(fd);
        if (reason) *reason = file.errorString();
        return false;
    }
    *bytes = file.readAll();
    if (file.error() != QFileDevice::NoError) {
        if (reason) *reason = file.errorString();
        return false;
    }
    return true;
}

bool writeFileBytes(const std::string& nativePath, const QByteArray& bytes, QString* reason) {
    const std::string_view parts[] = {{bytes.constData(), static_cast<size_t>(bytes.size())}};
    const int e = qs::data::writeOutputFileErrno(nativePath, parts);
    if (e != 0 && reason) *reason = errnoText(e);
    return e == 0;
}

bool writeFileBytes(const QString& path, const QByteArray& bytes, QString* reason) {
    return writeFileBytes(nativePath(path), bytes, reason);
}

bool exportFile(const QString& path, const QByteArray& bytes, QString* error) {
    QString reason;
    if (writeFileBytes(path, bytes, &reason)) return true;
    if (error) *error = QCoreApplication::translate("qs::ui::PlotFrame", "Could not write %1: %2").arg(path, reason);
    return false;
}

}  // namespace qs::ui
