#include "session/modelfile/tensor_tree_model.h"

#include <QHash>
#include <algorithm>

#include "session/modelfile/tensor_text.h"

namespace qs::ui {

namespace {

QStandardItem* cell(const QString& text, const QVariant& sortValue) {
    auto* item = new QStandardItem(text);
    item->setEditable(false);
    item->setData(sortValue, TensorTreeModel::SortRole);
    return item;
}

// A group with one row only is merged into that row ("depthwise_weights" over "read" becomes
// "depthwise_weights/read"): TFLite and TF names end in chains like that, and a level per
// name part would bury every tensor one click deeper for nothing.
void mergeSingleChildGroups(QStandardItem* parent, const QString& separator) {
    for (int r = 0; r < parent->rowCount(); ++r) {
        QStandardItem* item = parent->child(r, 0);
        mergeSingleChildGroups(item, separator);
        if (item->data(TensorTreeModel::TensorNameRole).isValid() || item->rowCount() != 1) continue;
        QList<QStandardItem*> only = item->takeRow(0);
        only[0]->setText(item->text() + separator + only[0]->text());
        only[0]->setData(only[0]->text().toLower(), TensorTreeModel::SortRole);
        parent->removeRow(r);
        parent->insertRow(r, only);
    }
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
    const auto& tensors = model->tensors();
    const bool slashes = std::any_of(tensors.begin(), tensors.end(),
                                     [](const auto& t) { return t.name.find('/') != std::string::npos; });
    mergeSingleChildGroups(invisibleRootItem(), slashes ? QStringLiteral("/") : QStringLiteral("."));
}

QModelIndex TensorTreeModel::indexOfTensor(const QString& name) const {
    const QModelIndexList hits =
        match(index(0, 0), TensorNameRole, name, 1, Qt::MatchExactly | Qt::MatchRecursive);
    return hits.isEmpty() ? QModelIndex() : hits.first();
}

}  // namespace qs::ui
