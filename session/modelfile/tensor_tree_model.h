// The Model dock's item model: one row per stored tensor, grouped under its layer path
// (tensorPathParts), with the columns name, shape, dtype, size, stored quantization and
// origin. A group of one row is merged into it ("depthwise_weights/read"). Each cell also holds the value its column sorts by (SortRole: element count for
// the shape, bytes for the size), and every row its full name or path (FilterRole), so
// a filter on "conv1" keeps a whole layer. Group rows add up their tensors' sizes.
#pragma once

#include <QStandardItemModel>

#include "core/modelfile/model_file.h"

namespace qs::ui {

class TensorTreeModel : public QStandardItemModel {
    Q_OBJECT
public:
    enum Column { Name, Shape, DType, Size, Quantization, Origin, ColumnCount };
    enum Role {
        TensorNameRole = Qt::UserRole + 1,  // the tensor's full name (tensor rows only)
        SortRole,
        FilterRole,  // the full name, or the group's path
    };

    explicit TensorTreeModel(QObject* parent = nullptr);
    // Lists `model`'s tensors (null: empty).
    void setModel(const qs::modelfile::ModelPtr& model);
    // The item of the tensor called `name` (column Name), or an invalid index.
    QModelIndex indexOfTensor(const QString& name) const;
    int tensorCount() const { return tensorCount_; }

private:
    int tensorCount_ = 0;
};

}  // namespace qs::ui
