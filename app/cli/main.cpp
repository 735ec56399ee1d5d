// quantscope-cli: the command-line face of QuantScope (command_line.h). This program links
// the text commands only (qs_cli: QtCore, no widgets); a command line that asks for a
// picture runs in quantscope-cli-pictures (pictures_program.h).
#include <csignal>

#include "app/cli/command_line.h"

int main(int argc, char** argv) {
    // Past a file-size limit (ulimit -f) a write fails with EFBIG instead of killing the
    // process, so the output that hit it is reported and the previous file kept.
    std::signal(SIGXFSZ, SIG_IGN);
    return qs::cli::runCommandLine(argc, argv, nullptr);
}
