#include "app/cli/pictures_program.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <system_error>

#include "app/cli/cmd_common.h"

#ifndef QS_PICTURES_RELATIVE_DIR  // set by app/cli/CMakeLists.txt from the install folders
#define QS_PICTURES_RELATIVE_DIR "../libexec/quantscope"
#endif

namespace qs::cli {

namespace {

namespace fs = std::filesystem;

// This program's executable with symbolic links resolved, so that a link to it elsewhere on
// the PATH still finds the installed tree; argv[0] where /proc is not mounted.
fs::path ownExecutable(const char* argv0) {
    std::error_code error;
    if (fs::path self = fs::read_symlink("/proc/self/exe", error); !error) return self;
    return fs::weakly_canonical(fs::path(argv0), error);
}

}  // namespace

int runPicturesProgram(std::string_view command, std::string_view option, char** argv) {
    const fs::path here = ownExecutable(argv[0]).parent_path();
    const fs::path installed = (here / QS_PICTURES_RELATIVE_DIR).lexically_normal();
    for (const fs::path& folder : {here, installed}) {
        const fs::path program = folder / kPicturesProgram;
        std::error_code error;
        if (!fs::exists(program, error)) continue;
        std::string path = program.string();
        argv[0] = path.data();
        std::fflush(nullptr);
        ::execv(path.c_str(), argv);
        return reportInputError(command, std::string(option) + ": cannot run " + path + ": " + std::strerror(errno));
    }
    return reportInputError(command, std::string(option) + " needs the quantscope package (" +
                                         std::string(kPicturesProgram) + " not found in " +
                                         installed.string() + ")");
}

}  // namespace qs::cli
