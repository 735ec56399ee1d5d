#include "app/cli/cmd_common.h"

#include <QByteArray>
#include <QString>
#include <QUtf8StringView>
#include <charconv>
#include <cstdio>
#include <system_error>

#include "core/data/output_file.h"

namespace qs::cli {

namespace {
const OptionSpec* findOption(std::span<const OptionSpec> options, std::string_view name) {
    for (const OptionSpec& o : options)
        if ((!o.shortName.empty() && o.shortName == name) || o.longName == name) return &o;
    return nullptr;
}
}  // namespace

Result<ParsedArgs> parseArgs(const std::vector<std::string>& args,
                             std::span<const OptionSpec> options) {
    ParsedArgs out;
    bool optionsEnded = false;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (optionsEnded || a.size() < 2 || a[0] != '-') {
            out.positional.push_back(a);
            continue;
        }
        if (a == "--") {
            optionsEnded = true;
            continue;
        }
        std::string name = a;
        std::string value;
        bool inlineValue = false;
        if (a.rfind("--", 0) == 0) {
            if (const size_t eq = a.find('='); eq != std::string::npos) {
                name = a.substr(0, eq);
                value = a.substr(eq + 1);
                inlineValue = true;
            }
        } else if (a.size() > 2) {  // "-oFILE"
            name = a.substr(0, 2);
            value = a.substr(2);
            inlineValue = true;
        }
        const OptionSpec* spec = findOption(options, name);
        if (!spec) return Error{"Usage", "unknown option '" + name + "'"};
        if (spec->takesValue && !inlineValue) {
            if (i + 1 >= args.size()) return Error{"Usage", "option '" + name + "' needs a value"};
            value = args[++i];
        } else if (!spec->takesValue && inlineValue) {
            return Error{"Usage", "option '" + name + "' takes no value"};
        }
        out.values[std::string(spec->longName)] = value;
    }
    return out;
}

bool parseNumber(const std::string& text, double& out) {
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, out);
    return ec == std::errc() && ptr == end;
}

bool parseInteger(const std::string& text, int& out) {
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, out);
    return ec == std::errc() && ptr == end;
}

bool wantsHelp(const std::vector<std::string>& args) {
    for (const std::string& a : args) {
        if (a == "--") return false;
        if (a == "--help" || a == "-h") return true;
    }
    return false;
}

int reportInputError(std::string_view command, const std::string& message) {
    std::string line = "quantscope-cli";
    if (!command.empty()) line += ' ' + std::string(command);
    line += ": " + message;
    for (char& c : line)
        if (c == '\n' || c == '\r') c = ' ';  // always exactly one line
    // A file name that is not UTF-8 shows its stray bytes as U+FFFD: the line stays text.
    if (!QUtf8StringView(line).isValidUtf8()) line = QString::fromUtf8(line).toStdString();
    line += '\n';
    std::fflush(stdout);
    std::fputs(line.c_str(), stderr);
    return kExitInput;
}

Status writeOutput(const std::string& path, std::string_view text) {
    if (path.empty() || path == "-") {
        if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() ||
            std::fflush(stdout) != 0)
            return Error{"IOError", "cannot write to standard output"};
        return okStatus();
    }
    return data::writeOutputFile(path, text);
}

Status writeFileOutput(const std::string& path, const QByteArray& bytes) {
    return data::writeOutputFile(path, std::string_view(bytes.constData(), static_cast<size_t>(bytes.size())));
}

}  // namespace qs::cli
