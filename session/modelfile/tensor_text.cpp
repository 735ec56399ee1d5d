#include "session/modelfile/tensor_text.h"

#include <QFileInfo>
#include <QLocale>
#include <QObject>

#include "core/modelfile/model_formats.h"

namespace qs::ui {

QString shapeText(const qs::Shape& shape) {
    QStringList dims;
    for (int64_t d : shape) dims << QString::number(d);
    return QStringLiteral("[%1]").arg(dims.join(QStringLiteral(", ")));
}

QString tensorCountText(size_t count) {
    return count == 1 ? QObject::tr("1 tensor") : QObject::tr("%1 tensors").arg(QLocale().toString(qulonglong(count)));
}

QString byteSizeText(int64_t bytes) {
    if (bytes < 0) return QStringLiteral("?");
    return QLocale().formattedDataSize(bytes, 1, QLocale::DataSizeIecFormat);
}

QString storedQuantizationText(const qs::modelfile::TensorInfo& info) {
    if (!info.quantization) return {};
    const QString dtype = QString::fromStdString(info.dtype_name);
    const auto& q = *info.quantization;
    if (!q.perChannel()) return QObject::tr("per-tensor %1").arg(dtype);
    return QObject::tr("per-channel on axis %1 (%2, %3 scales)").arg(q.axis).arg(dtype).arg(q.scale.size());
}

QStringList tensorPathParts(const std::string& name) {
    const QString n = QString::fromStdString(name);
    const QChar separator = n.contains(QLatin1Char('/')) ? QLatin1Char('/') : QLatin1Char('.');
    QStringList parts = n.split(separator, Qt::SkipEmptyParts);
    if (parts.isEmpty()) parts << n;  // "", "/" or "..": the name itself
    return parts;
}

bool isTableTensor(const qs::modelfile::TensorInfo& info) {
    if (info.shape.size() != 2) return false;
    return qs::modelfile::isFloat(info.dtype) ||
           (info.quantization && qs::modelfile::isInteger(info.dtype));
}

bool isModelFilePath(const QString& path) {
    if (QFileInfo(path).isDir()) return true;
    for (const std::string& suffix : qs::modelfile::modelSuffixes())
        if (path.endsWith(QString::fromStdString(suffix), Qt::CaseInsensitive)) return true;
    return false;
}

QString modelFileFilter() {
    QStringList patterns;
    for (const std::string& suffix : qs::modelfile::modelSuffixes())
        patterns << QStringLiteral("*") + QString::fromStdString(suffix);
    return QObject::tr("Model files (%1);;All files (*)").arg(patterns.join(QLatin1Char(' ')));
}

}  // namespace qs::ui
