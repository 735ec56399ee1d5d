// From the workbench's document (values as entered) to the typed inputs of the core's
// computations (core/embedding/workbench.h): the window and `quantscope-cli embedding` both
// go through here, so they simulate the same thing for the same file.
#pragma once

#include <QString>
#include <optional>
#include <string>

#include "core/embedding/id_batch.h"
#include "core/embedding/optimizer_step.h"
#include "core/embedding/workbench.h"
#include "core/status.h"
#include "core/tpu/sharding.h"
#include "session/workbench/embedding_document.h"

namespace qs::ui {

struct WorkbenchTableInputs {
    std::string name;  // the table's name, or "table_<i>"
    int64_t vocabulary_size = 0;
    int64_t dim = 0;
    std::string combiner = "mean";
    std::optional<qs::tpu::QuantizationConfig> quantization;
    qs::embedding::TableSource source;
    qs::embedding::OptimizerParams optimizer;
    bool default_optimizer = false;  // optimizer None: SGD(0.01) is simulated
};

// InvalidArgument "table 'name' is not valid: <TF's first error>" when TF rejects the table
// (or its optimizer / quantization_config); "no table <i>" when out of range. A
// quantization_config with lower >= upper is kept (TF accepts it) and fails later in the
// analysis with its own message; one TF accepts but no TPU can run (num_buckets=256.5,
// lower='a') is InvalidArgument "table 'name': QuantizationConfig(...) cannot be simulated…".
Result<WorkbenchTableInputs> workbenchTableInputs(const EmbeddingDocument& doc, int table);

qs::embedding::InitializerSpec initializerSpec(const EmbeddingInitializer& init);

// The feature's lookup batch: its CSV file when set, else its generated spec over the
// table's vocabulary (DataError with the spec's message otherwise). `override_ids_file`
// (a file name as the system spells it, native_file.h) / `override_spec` (the CLI's --ids /
// --generate-ids) win over the document. A generated batch the lookup at `dim` would refuse
// (tpu::checkLookupSize) is refused before it is generated: a typo such as batch=1e8 costs
// nothing.
Result<qs::embedding::IdBatch> workbenchFeatureBatch(const EmbeddingDocument& doc, int feature,
                                                     int64_t vocabulary_size, int64_t dim,
                                                     const std::string& override_ids_file = {},
                                                     const QString& override_spec = {});

// The partition strategy the sharding view uses: the EmbeddingConfigSpec's
// partition_strategy ("div", TF's default, unless it is "mod").
qs::tpu::PartitionStrategy workbenchStrategy(const EmbeddingDocument& doc);

// "table_0" for an unnamed first table, the name otherwise (the same key the TF code uses).
QString tableDisplayName(const EmbeddingDocument& doc, int table);
QString featureDisplayName(const EmbeddingDocument& doc, int feature);

}  // namespace qs::ui
