// quantscope-cli's command line: --help, --version and the table of commands (one file
// each, cmd_<name>.cpp, defining `const Command <name>Command`). Adding a command: one name
// on the declaration line of command_line.cpp and one entry in its table.
//
// Two programs run it: quantscope-cli (main.cpp: no widgets, `pictures` null) and
// quantscope-cli-pictures (pictures/main.cpp: the GUI's views draw the pictures). In the
// first, a command line that names a picture option (OptionSpec::picture) is handed whole to
// the second before the command runs (pictures_program.h).
#pragma once

#include "app/cli/cmd_common.h"

namespace qs::cli {

int runCommandLine(int argc, char** argv, const PictureOutputs* pictures);

}  // namespace qs::cli
