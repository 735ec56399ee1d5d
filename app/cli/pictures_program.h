// quantscope-cli links no widgets, so that its text commands run where only QtCore is
// installed. Its picture options (--png, --svg, --pdf) are drawn by quantscope-cli-pictures:
// the same commands linked with the GUI's views (pictures/), installed by the quantscope
// package in <libexec>/quantscope. quantscope-cli hands it the whole command line, so the
// pictures, the other outputs, the messages and the exit code are the ones one program
// linking both would give.
#pragma once

#include <string_view>

namespace qs::cli {

inline constexpr std::string_view kPicturesProgram = "quantscope-cli-pictures";

// Replaces this process by quantscope-cli-pictures with the same arguments. It is looked for
// next to this program's executable (the build tree) and in the libexec folder of the tree
// this program is installed in (bin/../libexec/quantscope). Returns only when that fails:
// after one line on stderr naming `option`, what is missing and how to get it, with
// kExitInput.
int runPicturesProgram(std::string_view command, std::string_view option, char** argv);

}  // namespace qs::cli
