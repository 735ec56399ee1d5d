// The fuzz targets without libFuzzer: a plain program that feeds every file below the
// given files or folders to LLVMFuzzerTestOneInput, so ctest replays the checked-in corpora
// (and the seeds in tests/data, resources/) in the normal build. A crash or a property
// violation aborts with the file's name on stderr; otherwise it prints how many ran.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

std::vector<std::filesystem::path> inputsBelow(const std::filesystem::path& root) {
    std::vector<std::filesystem::path> files;
    if (std::filesystem::is_directory(root)) {
        for (const auto& entry : std::filesystem::recursive_directory_iterator(root))
            if (entry.is_regular_file()) files.push_back(entry.path());
    } else {
        files.push_back(root);
    }
    std::sort(files.begin(), files.end());  // the same order on every machine
    return files;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s FILE_OR_DIR...  (replays each file through the fuzz target)\n", argv[0]);
        return 2;
    }
    size_t replayed = 0;
    for (int a = 1; a < argc; ++a) {
        if (!std::filesystem::exists(argv[a])) {
            std::fprintf(stderr, "%s: no such file or folder\n", argv[a]);
            return 2;
        }
        for (const auto& path : inputsBelow(argv[a])) {
            std::ifstream in(path, std::ios::binary);
            const std::vector<char> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
            std::fprintf(stderr, "replay %s\n", path.c_str());  // the last line names a crashing input
            LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
            ++replayed;
        }
    }
    std::printf("replayed %zu inputs\n", replayed);
    return replayed > 0 ? 0 : 1;  // an empty corpus is a broken test, not a pass
}
