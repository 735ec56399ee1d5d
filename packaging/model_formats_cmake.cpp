// qs_model_formats OUT.cmake: writes the table of model formats (core/modelfile/
// model_formats.h) as CMake variables, for the files that must be static text: the bash
// completion, the AppStream metadata and quantscope(1) (packaging/CMakeLists.txt fills their
// templates from OUT.cmake at build time). Built and run on the build machine only.
#include <cstdio>
#include <fstream>
#include <string>

#include "core/modelfile/model_formats.h"

namespace {

// A CMake quoted argument: backslashes, quotes and ${ escaped.
std::string quoted(const std::string& text) {
    std::string out = "\"";
    for (const char c : text) {
        if (c == '\\' || c == '"' || c == '$') out += '\\';
        out += c;
    }
    return out + "\"";
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: qs_model_formats OUT.cmake\n");
        return 2;
    }
    using namespace qs::modelfile;
    std::string suffixes;  // CMake lists: ".onnx;.tflite;…"
    for (const std::string& suffix : modelSuffixes()) (suffixes += suffixes.empty() ? "" : ";") += suffix;
    std::string folders;
    for (const ModelFormat& format : modelFormats())
        if (!format.folder.empty()) (folders += folders.empty() ? "" : ";") += format.folder;
    std::ofstream out(argv[1], std::ios::binary);
    out << "# Written by qs_model_formats from core/modelfile/model_formats.cpp; do not edit.\n"
        << "set(QS_MODEL_SUFFIXES " << quoted(suffixes) << ")\n"
        << "set(QS_MODEL_FOLDERS " << quoted(folders) << ")\n"
        << "set(QS_MODEL_FORMAT_NAMES " << quoted(modelFormatNames()) << ")\n";
    out.close();
    if (!out) {
        std::fprintf(stderr, "qs_model_formats: cannot write %s\n", argv[1]);
        return 1;
    }
    return 0;
}
