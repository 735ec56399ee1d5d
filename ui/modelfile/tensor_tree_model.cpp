#include "ui/modelfile/tensor_tree_model.h"

#include <QHash>

#include "ui/modelfile/tensor_text.h"

namespace qs::ui {

namespace {

QStandardItem* cell(const QString& text, const QVariant& sortValue) {
    auto* item = new QStandardItem(text);
    item->setEditable(false);
    item->setData(sortValue, TensorTreeModel::SortRole);
    return item;
}

}  // namespace

TensorTreeModel::TensorTreeModel(QObject* parent) : QStandardItemModel(parent) {
    setHorizontalHeaderLabels({tr("Name"), tr("Shape"), tr("DType"), tr("Size"), tr("Stored quantization"),
                               tr("Origin")});
}

void TensorTreeModel::setModel(const qs::modelfile::ModelPtr& model) {
    removeRows(0, rowCount());
    tensorCount_ = 0;
    if (!model) return;
    // The group row of each path prefix ("a/b"), and the bytes under it.
    QHash<QString, QList<QStandardItem*>> groups;
    QHash<QString, qint64> groupBytes;
    for (const qs::modelfile::TensorInfo& info : model->tensors()) {
        const QString name = QString::fromStdString(info.name);
        const QStringList parts = tensorPathParts(info.name);
        QStandardItem* parent = invisibleRootItem();
        QString prefix;
        for (qsizetype i = 0; i + 1 < parts.size(); ++i) {
            prefix += (i ? QStringLiteral("/") : QString()) + parts[i];
            auto it = groups.find(prefix);
            if (it == groups.end()) {
                QList<QStandardItem*> row{cell(parts[i], parts[i].toLower())};
                for (int c = 1; c < ColumnCount; ++c) row << cell(QString(), QVariant());
                row[0]->setData(prefix, FilterRole);
                parent->appendRow(row);
                it = groups.insert(prefix, row);
            }
            const qint64 bytes = info.byteSize();
            if (bytes > 0) groupBytes[prefix] += bytes;
            parent = it->first();
        }
        int64_t elements = 1;
        for (int64_t d : info.shape) elements = d > 0 && elements <= INT64_MAX / d ? elements * d : (d == 0 ? 0 : -1);
        const QString quant = storedQuantizationText(info);
        QList<QStandardItem*> row{
            cell(parts.last(), name.toLower()),
            cell(shapeText(info.shape), static_cast<qlonglong>(elements)),
            cell(QString::fromStdString(info.dtype_name), QString::fromStdString(info.dtype_name)),
            cell(byteSizeText(info.byteSize()), static_cast<qlonglong>(info.byteSize())),
            cell(quant, quant),
            cell(QString::fromStdString(info.origin), QString::fromStdString(info.origin)),
        };
        row[0]->setData(name, TensorNameRole);
        row[0]->setData(name, FilterRole);
        row[0]->setToolTip(name);
        parent->appendRow(row);
        ++tensorCount_;
    }
    for (auto it = groups.cbegin(); it != groups.cend(); ++it) {
        const qint64 bytes = groupBytes.value(it.key());
        it.value()[Size]->setText(byteSizeText(bytes));
        it.value()[Size]->setData(static_cast<qlonglong>(bytes), SortRole);
    }
}

QModelIndex TensorTreeModel::indexOfTensor(const QString& name) const {
    const QModelIndexList hits =
        match(index(0, 0), TensorNameRole, name, 1, Qt::MatchExactly | Qt::MatchRecursive);
    return hits.isEmpty() ? QModelIndex() : hits.first();
}

}  // namespace qs::ui
