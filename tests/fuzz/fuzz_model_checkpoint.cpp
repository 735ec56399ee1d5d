// Fuzz target: TensorFlow checkpoint indexes (core/modelfile/checkpoint_reader.cpp and the
// LevelDB-table and protobuf-wire readers under it). The fuzz bytes are the .index; every
// shard it names is one fixed small shard that starts like the seed SavedModel's (a = 0.5,
// b = 2, c = 3 at offsets 0, 4, 8, so the seed's checksums hold and loads get through).
#include <cstring>

#include "core/modelfile/readers.h"
#include "tests/fuzz/model_checks.h"

namespace {

qs::modelfile::SharedBytes fixedShard() {
    std::vector<char> bytes(631, '\0');
    const float values[] = {0.5f, 2.0f, 3.0f};
    std::memcpy(bytes.data(), values, sizeof values);
    return qs::modelfile::ownBytes(std::move(bytes));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const qs::modelfile::SharedBytes shard = fixedShard();
    const std::string label = "fuzz.index";
    const qs::modelfile::Sidecars sidecars = [](const std::string&) -> qs::Result<qs::modelfile::SharedBytes> {
        return shard;
    };
    qs::fuzz::checkModel(qs::modelfile::openCheckpoint(
                             label, qs::modelfile::copyBytes({reinterpret_cast<const char*>(data), size}),
                             sidecars, "variables"),
                         label);
    return 0;
}
