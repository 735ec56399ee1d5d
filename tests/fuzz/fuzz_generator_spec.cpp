// Fuzz target: the generator specs typed in the data panel and given to the CLI
// (`normal:n=1000,std=2`, core/data/generator_spec.h) and the id-batch specs of the
// workbench (`zipf:batch=64,ids=8,s=1.1`, core/embedding/id_batch.h). The first byte picks
// the parser; the rest is the text. A spec that parses must print back to itself and
// generate in its shape (sizes are capped here so one input stays fast, a capped N-d spec
// loses its shape; the caps are the product's own checks' business, tested elsewhere).
#include <algorithm>
#include <string>
#include <string_view>

#include "core/data/generator_spec.h"
#include "core/embedding/id_batch.h"
#include "tests/fuzz/fuzz_input.h"

namespace {

void fuzzGeneratorSpec(std::string_view text) {
    const auto parsed = qs::data::parseGeneratorSpec(text);
    if (!parsed) return;
    qs::data::GeneratorSpec spec = *parsed;
    const std::string canonical = qs::data::toString(spec);
    const auto again = qs::data::parseGeneratorSpec(canonical);
    if (!again || !(*again == spec)) qs::fuzz::propertyFailed("'" + canonical + "' does not parse back to itself");
    spec.params["n"] = std::min(spec.params["n"], 512.0);
    if (static_cast<double>(qs::numElements(spec.shape)) != spec.params["n"]) spec.shape.clear();  // capped
    const auto d = qs::data::generate(spec);
    if (d && d->values.size() != static_cast<size_t>(spec.params["n"]))
        qs::fuzz::propertyFailed("'" + canonical + "' generated the wrong count");
    if (d && !spec.shape.empty() && d->shape != spec.shape)
        qs::fuzz::propertyFailed("'" + canonical + "' generated the wrong shape");
}

void fuzzIdBatchSpec(std::string_view text) {
    const auto parsed = qs::embedding::parseIdBatchSpec(std::string(text));
    if (!parsed) return;
    qs::embedding::IdBatchSpec spec = *parsed;
    const std::string canonical = qs::embedding::formatIdBatchSpec(spec);
    const auto again = qs::embedding::parseIdBatchSpec(canonical);
    if (!again || !(*again == spec)) qs::fuzz::propertyFailed("'" + canonical + "' does not parse back to itself");
    spec.batch_size = std::min<int64_t>(spec.batch_size, 64);
    spec.ids_per_example = std::min<int64_t>(spec.ids_per_example, 16);
    const auto batch = qs::embedding::generateIdBatch(spec, 1 + static_cast<int64_t>(text.size()) * 997);
    if (batch && batch->numIds() != spec.batch_size * spec.ids_per_example)
        qs::fuzz::propertyFailed("'" + canonical + "' generated the wrong count");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
    if (data[0] & 1) fuzzIdBatchSpec(text);
    else fuzzGeneratorSpec(text);
    return 0;
}
