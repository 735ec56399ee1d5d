#include "session/modelfile/workbench_table.h"

#include <QDir>
#include <QFileInfo>
#include <QStringList>

#include "session/modelfile/tensor_text.h"

namespace qs::ui {

QString workbenchTableFile(const QString& folder, const QString& modelPath, const QString& tensor) {
    QString name = QFileInfo(modelPath).completeBaseName() + QLatin1Char('-') + tensor;
    for (QChar& c : name)
        if (!c.isLetterOrNumber() && c != QLatin1Char('-') && c != QLatin1Char('_')) c = QLatin1Char('_');
    return QDir(folder).filePath(name.left(180) + QStringLiteral(".npy"));
}

EmbeddingDocument withModelTable(EmbeddingDocument doc, const QString& tensor, const qs::Shape& shape,
                                 const QString& npyPath) {
    QStringList names;
    for (const EmbeddingTable& t : doc.tables) names << t.name;
    EmbeddingTable table;
    const QString base = tensorPathParts(tensor.toStdString()).join(QLatin1Char('_'));
    table.name = base;
    for (int i = 2; names.contains(table.name); ++i) table.name = QStringLiteral("%1_%2").arg(base).arg(i);
    table.vocabulary_size = static_cast<qint64>(shape.size() > 0 ? shape[0] : 0);
    table.dim = static_cast<qint64>(shape.size() > 1 ? shape[1] : 0);
    table.data_file = npyPath;
    doc.tables.push_back(table);
    doc.view.table = static_cast<int>(doc.tables.size()) - 1;
    if (doc.features.size() == 1) {
        doc.features.front().table = doc.view.table;
        doc.view.feature = 0;
    } else {
        doc.view.feature = -1;
    }
    return doc;
}

}  // namespace qs::ui
