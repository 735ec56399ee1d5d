// Fuzz target: the streamed .npy reader (core/data/npy_stream.h), which opens files too large
// to read from their header alone. Whatever it accepts must read back exactly what the
// in-memory reader (npy_reader.h) gives, and every read must stay inside the file.
#include <cstring>

#include "core/data/npy_reader.h"
#include "core/data/npy_stream.h"
#include "tests/fuzz/dataset_checks.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const qs::fuzz::FuzzInputFile file(data, size, ".npy");
    const auto stream = qs::data::NpyFileStream::open(file.path());
    if (!stream) return 0;
    const qs::data::NpyFileStream& s = **stream;
    const auto n = qs::checkedNumElements(s.shape());
    if (!n || *n != s.size()) qs::fuzz::propertyFailed("stream size differs from its shape " + qs::shapeString(s.shape()));
    const auto width = static_cast<size_t>(s.layout().type.width);
    if (s.layout().dataOffset > size || static_cast<size_t>(s.size()) > (size - s.layout().dataOffset) / width)
        qs::fuzz::propertyFailed("accepted a shape the file's bytes cannot hold");
    const auto memory = qs::data::readNpy(file.path());
    if (!memory) qs::fuzz::propertyFailed("the stream opened a file readNpy refuses: " + memory.error().message);
    qs::fuzz::checkDataset(*memory);
    if (memory->shape != s.shape()) qs::fuzz::propertyFailed("the two readers disagree on the shape");
    std::vector<float> read;
    qs::data::ChunkOptions options;
    options.chunk_elements = 7;  // many chunk boundaries on small inputs
    const qs::Status walked = qs::data::forEachChunk(
        s,
        [&read](int64_t, std::span<const float> v) {
            read.insert(read.end(), v.begin(), v.end());
            return qs::okStatus();
        },
        options);
    if (!walked) qs::fuzz::propertyFailed("a read of an accepted file failed: " + walked.error().message);
    // (memcmp only with values: an empty vector's data() may be null, which memcmp must not get)
    if (read.size() != memory->values.size() ||
        (!read.empty() && std::memcmp(read.data(), memory->values.data(), read.size() * sizeof(float)) != 0))
        qs::fuzz::propertyFailed("the streamed values differ from readNpy's");
    return 0;
}
