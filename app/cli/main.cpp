// quantscope-cli: the command-line face of QuantScope. A table of commands, one file each
// (cmd_<name>.cpp defines `const Command <name>Command`). Adding a command: one name on
// the declaration line and one entry in kCommands. The text commands come from qs_cli
// (no widgets); `export` and `analyze --png` from qs_cli_pictures (see CMakeLists.txt).
#include <algorithm>
#include <csignal>
#include <cstdio>
#include <string>
#include <vector>

#include "app/cli/analysis_png.h"
#include "app/cli/cmd_common.h"
#include "qs_build_info.h"

namespace qs::cli {
extern const Command evalCommand, conformanceCommand, exportCommand, analyzeCommand,
    embeddingCommand, modelCommand;
}

namespace {

using qs::cli::Command;

const Command* const kCommands[] = {
    &qs::cli::evalCommand,
    &qs::cli::conformanceCommand,
    &qs::cli::exportCommand,
    &qs::cli::analyzeCommand,
    &qs::cli::embeddingCommand,
    &qs::cli::modelCommand,
};

const Command* findCommand(const std::string& name) {
    for (const Command* c : kCommands)
        if (c->name == name) return c;
    return nullptr;
}

std::string overview() {
    std::string s =
        "Usage: quantscope-cli <command> [options] FILE...\n"
        "       quantscope-cli --help | --version\n"
        "\n"
        "Reproduces TensorFlow's quantization ops bit for bit.\n"
        "\n"
        "Commands:\n";
    for (const Command* c : kCommands) {
        std::string name(c->name);
        name.resize(std::max<size_t>(name.size() + 2, 14), ' ');
        s += "  " + name + std::string(c->summary) + "\n";
    }
    s += "\n"
         "Run 'quantscope-cli <command> --help' for the options of a command.\n"
         "Exit codes: 0 success, 1 conformance failures (export: the op's error), 2 malformed\n"
         "input or usage error.\n";
    return s;
}

void print(std::string_view text, std::FILE* to = stdout) {
    std::fwrite(text.data(), 1, text.size(), to);
}

}  // namespace

int main(int argc, char** argv) {
    // Past a file-size limit (ulimit -f) a write fails with EFBIG instead of killing the
    // process, so the output that hit it is reported and the previous file kept.
    std::signal(SIGXFSZ, SIG_IGN);
    qs::cli::installPictureOutputs();
    const std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty()) {
        print(overview(), stderr);
        return qs::cli::kExitInput;
    }
    const std::string& first = args.front();
    if (first == "--version") {
        print("quantscope-cli " QS_VERSION_TEXT "\n");
        return qs::cli::kExitOk;
    }
    if (first == "--help" || first == "-h" || first == "help") {
        if (args.size() > 1) {  // "help eval"
            if (const Command* c = findCommand(args[1])) {
                print(c->usage);
                return qs::cli::kExitOk;
            }
            return qs::cli::reportInputError(
                "", "unknown command '" + args[1] + "' (see 'quantscope-cli --help')");
        }
        print(overview());
        return qs::cli::kExitOk;
    }
    const Command* command = findCommand(first);
    if (!command)
        return qs::cli::reportInputError(
            "", (first.starts_with('-') ? "unknown option '" : "unknown command '") + first +
                    "' (see 'quantscope-cli --help')");
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    if (qs::cli::wantsHelp(rest)) {
        print(command->usage);
        return qs::cli::kExitOk;
    }
    return command->run(rest);
}
