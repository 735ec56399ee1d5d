#include "core/embedding/npy_table_stream.h"

#include "core/data/dataset.h"

namespace qs::embedding {

Result<std::shared_ptr<const NpyTableStream>> NpyTableStream::open(const std::string& path) {
    auto file = data::NpyFileStream::open(path);
    if (!file) return file.error();
    const Shape& shape = (*file)->shape();
    if (shape.size() != 2 || shape[0] < 1 || shape[1] < 1)
        return data::dataError(path + ": an embedding table needs 2-D data [rows, dim], got shape " +
                               shapeString(shape));
    return std::shared_ptr<const NpyTableStream>(new NpyTableStream(std::move(file).value()));
}

Result<tpu::RowMatrix> readTableRows(const NpyTableStream& table, std::span<const int64_t> ids) {
    tpu::RowMatrix rows{static_cast<int64_t>(ids.size()), table.dim(), {}};
    rows.values.resize(ids.size() * static_cast<size_t>(table.dim()));
    for (size_t k = 0; k < ids.size(); ++k)
        if (Status s = table.read(ids[k] * table.dim(),
                                  std::span<float>(rows.values).subspan(k * static_cast<size_t>(table.dim()),
                                                                        static_cast<size_t>(table.dim())));
            !s)
            return s.error();
    return rows;
}

}  // namespace qs::embedding
