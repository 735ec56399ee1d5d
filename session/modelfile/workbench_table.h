// A 2-D tensor of a model file as a table of the TPU embedding workbench: where its float32
// copy is written, and the workbench document with the table added. Rules without widgets,
// so MainWindow only asks and shows (and tests check them without a window).
#pragma once

#include <QString>

#include "core/tensor.h"
#include "session/workbench/embedding_document.h"

namespace qs::ui {

// The .npy file for `tensor` of the model at `modelPath`, in `folder`: one file per model
// and tensor (opening the same tensor again rewrites the same file), its name the model's
// base name and the tensor's, every character but letters, digits, '-' and '_' made '_',
// at most 180 characters before ".npy".
QString workbenchTableFile(const QString& folder, const QString& modelPath, const QString& tensor);

// `doc` with a table made from `tensor` (rows × columns = `shape`, at least 2-D) whose
// values are in `npyPath`, selected. Its name is the tensor's path parts joined with '_'
// ("dense/kernel" → "dense_kernel"), with "_2", "_3"... when a table has that name. A lone
// feature (a new document's default) then looks the new table up; with several features,
// none is selected, so the views show the table.
EmbeddingDocument withModelTable(EmbeddingDocument doc, const QString& tensor, const qs::Shape& shape,
                                 const QString& npyPath);

}  // namespace qs::ui
