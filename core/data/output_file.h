// Writing an output file without ever losing the previous one: every export of the project
// (CLI outputs, sessions, plot pictures, CSV tables, .npy codes) goes through here, so a full
// disk, a file-size limit or an unwritable folder gives an error naming the file and leaves
// the old contents byte-for-byte as they were.
//
// `path` is the file name as the system spells it (bytes, not necessarily UTF-8), so a name
// typed on the command line is written exactly as given.
//   * A regular file (or a new one) is replaced atomically: the bytes go to a temporary file
//     in the same folder (created with the permissions a new file gets, or those of the file
//     it replaces), which is checked write by write, synced, and renamed over the target only
//     when complete. A symbolic link keeps pointing where it did: its target is replaced.
//   * Anything else that exists (a character device such as /dev/null, a FIFO, a socket) is
//     opened and written in place, since replacing it by a regular file would break it; so is
//     the file this process's standard output or error already writes to (`-o /dev/stdout`
//     with stdout redirected to a file appends to that stream rather than replacing the file
//     under the shell's feet).
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "core/status.h"

namespace qs::data {

// Writes the concatenated `parts`. DataError "cannot write PATH: <strerror text>" (e.g. "No
// space left on device", "File too large", "Permission denied"); the target is then unchanged
// (for devices and FIFOs: whatever the device took before the error).
Status writeOutputFile(const std::string& path, std::span<const std::string_view> parts);
Status writeOutputFile(const std::string& path, std::string_view bytes);
// The same, giving 0 or the errno of what failed, for callers that phrase their own message.
int writeOutputFileErrno(const std::string& path, std::span<const std::string_view> parts);

}  // namespace qs::data
