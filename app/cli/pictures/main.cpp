// quantscope-cli-pictures: quantscope-cli's commands with its picture outputs, drawn by the
// GUI's views (WidgetPictures). quantscope-cli runs it with its own arguments when they ask
// for a picture (app/cli/pictures_program.h); it is not meant to be started by hand.
#include <csignal>

#include "app/cli/command_line.h"
#include "app/cli/pictures/widget_pictures.h"

int main(int argc, char** argv) {
    // As quantscope-cli: a write past a file-size limit fails with EFBIG instead of killing us.
    std::signal(SIGXFSZ, SIG_IGN);
    const qs::cli::WidgetPictures pictures;
    return qs::cli::runCommandLine(argc, argv, &pictures);
}
