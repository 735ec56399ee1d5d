// What every subcommand of quantscope-cli shares: its table entry, the exit codes, a tiny
// option parser and the output helpers. A command lives in cmd_<name>.cpp and defines
// `extern const Command <name>Command`; command_line.cpp lists it in its table.
#pragma once

#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

class QByteArray;

namespace qs::cli {

class PictureOutputs;  // picture_outputs.h

enum ExitCode : int {
    kExitOk = 0,
    kExitFailed = 1,  // conformance: some case did not match its expectations
    kExitInput = 2,   // malformed input, unknown op, bad usage, unreadable file
};

struct OptionSpec {
    std::string_view shortName;  // "-o", or empty
    std::string_view longName;   // "--output"; the key of ParsedArgs::values
    bool takesValue;
    bool picture = false;  // asks for a picture: quantscope-cli-pictures runs the command line
};

// The rows of a command's option table: an option with a value, a flag, a picture option.
constexpr OptionSpec valueOption(std::string_view longName) { return {"", longName, true}; }
constexpr OptionSpec flagOption(std::string_view longName) { return {"", longName, false}; }
constexpr OptionSpec pictureOption(std::string_view longName) { return {"", longName, true, true}; }

struct Command {
    std::string_view name;
    std::string_view summary;  // one line for `quantscope-cli --help`
    std::string_view usage;    // the full text of `quantscope-cli <name> --help`
    // `args`: the arguments after <name>. `pictures` draws the picture options' outputs; it
    // is null in quantscope-cli, which never runs a command line naming a picture option
    // (command_line.cpp hands it to quantscope-cli-pictures).
    int (*run)(const std::vector<std::string>& args, const PictureOutputs* pictures);
    // The options run() parses, given by the commands that have picture options (the runner
    // looks for those with parseArgs, so it sees them exactly as run() would).
    std::span<const OptionSpec> options = {};
};

struct ParsedArgs {
    std::vector<std::string> positional;
    std::map<std::string, std::string, std::less<>> values;  // long name -> value ("" for flags)
    bool has(std::string_view longName) const { return values.find(longName) != values.end(); }
    // The option's value; "" when it was not given.
    std::string value(std::string_view longName) const {
        const auto it = values.find(longName);
        return it == values.end() ? std::string() : it->second;
    }
};

// Accepts "-o X", "-oX", "--output X", "--output=X"; "--" ends the options; a lone "-"
// is positional. An unknown option or a missing value is an Error naming it.
Result<ParsedArgs> parseArgs(const std::vector<std::string>& args,
                             std::span<const OptionSpec> options);

// A whole option value as a number: "1e-3", "-2" (no trailing text, no spaces).
bool parseNumber(const std::string& text, double& out);
bool parseInteger(const std::string& text, int& out);

// True when args ask for help before any "--".
bool wantsHelp(const std::vector<std::string>& args);

// One line on stderr: "quantscope-cli <command>: <message>", returns kExitInput.
int reportInputError(std::string_view command, const std::string& message);

// Writes text to the file or to stdout when path is empty or "-". Files go through
// data::writeOutputFile: regular files are replaced atomically and stay as they were when the
// write fails (full disk, size limit, unwritable folder: "cannot write PATH: <reason>");
// devices, FIFOs and the file standard output already writes to are written in place. PATH
// is the argument's bytes, whatever the encoding.
Status writeOutput(const std::string& path, std::string_view text);
// The same for binary outputs (pictures), always to the file named `path` ("-" is a file).
Status writeFileOutput(const std::string& path, const QByteArray& bytes);

}  // namespace qs::cli
