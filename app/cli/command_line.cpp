#include "app/cli/command_line.h"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "app/cli/pictures_program.h"
#include "qs_build_info.h"

namespace qs::cli {

extern const Command evalCommand, conformanceCommand, exportCommand, analyzeCommand, embeddingCommand,
    modelCommand;

namespace {

const Command* const kCommands[] = {
    &evalCommand, &conformanceCommand, &exportCommand, &analyzeCommand, &embeddingCommand, &modelCommand,
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

// The first picture option `args` give, read as the command itself reads them (a value that
// looks like an option stays a value). None when the arguments do not parse: the command
// then reports that itself.
std::optional<std::string_view> pictureOptionGiven(const Command& command, const std::vector<std::string>& args) {
    if (command.options.empty()) return std::nullopt;
    const Result<ParsedArgs> parsed = parseArgs(args, command.options);
    if (!parsed) return std::nullopt;
    for (const OptionSpec& o : command.options)
        if (o.picture && parsed->has(o.longName)) return o.longName;
    return std::nullopt;
}

}  // namespace

int runCommandLine(int argc, char** argv, const PictureOutputs* pictures) {
    const std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty()) {
        print(overview(), stderr);
        return kExitInput;
    }
    const std::string& first = args.front();
    if (first == "--version") {
        print("quantscope-cli " QS_VERSION_TEXT "\n");
        return kExitOk;
    }
    if (first == "--help" || first == "-h" || first == "help") {
        if (args.size() > 1) {  // "help eval"
            if (const Command* c = findCommand(args[1])) {
                print(c->usage);
                return kExitOk;
            }
            return reportInputError("", "unknown command '" + args[1] + "' (see 'quantscope-cli --help')");
        }
        print(overview());
        return kExitOk;
    }
    const Command* command = findCommand(first);
    if (!command)
        return reportInputError("", (first.starts_with('-') ? "unknown option '" : "unknown command '") + first +
                                        "' (see 'quantscope-cli --help')");
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    if (wantsHelp(rest)) {
        print(command->usage);
        return kExitOk;
    }
    if (!pictures)
        if (const auto option = pictureOptionGiven(*command, rest))
            return runPicturesProgram(command->name, *option, argv);
    return command->run(rest, pictures);
}

}  // namespace qs::cli
