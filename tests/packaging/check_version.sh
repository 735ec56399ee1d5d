# Both programs' --version (and the GUI's --help without a display): "<name> <version> (revision <rev>)", the version of CMakeLists.txt
# and, in a git checkout, the commit the build was made from (HEAD, as tests run right after
# the build); "unknown" only without git.
source "$(dirname "$0")/common.sh"
version=$(sed -n 's/^project(QuantScope VERSION \([0-9.]*\).*/\1/p' "$SOURCE_DIR/CMakeLists.txt")
[[ -n $version ]] || { fail "no version in CMakeLists.txt"; finish; }
if git -C "$SOURCE_DIR" rev-parse --show-toplevel >/dev/null 2>&1 &&
    [[ $(realpath "$(git -C "$SOURCE_DIR" rev-parse --show-toplevel)") == $(realpath "$SOURCE_DIR") ]]; then
    head=$(git -C "$SOURCE_DIR" rev-parse HEAD)
    revision="${head:0:12}(-dirty)?"
else
    revision=unknown
fi
check() {  # NAME PROGRAM ARGS...
    local name=$1 out
    shift
    if ! out=$("$@" 2>&1); then fail "$* exits with an error: $out"; return; fi
    if [[ $out =~ ^$name\ $version\ \(revision\ $revision\)$ ]]; then
        pass "$* -> $out"
    else
        fail "$* printed '$out', expected '$name $version (revision $revision)'"
    fi
}
check quantscope-cli "$CLI" --version
check QuantScope "$GUI" --version
# Without a display: answered before QApplication needs one.
check QuantScope env -u QT_QPA_PLATFORM -u DISPLAY -u WAYLAND_DISPLAY "$GUI" --version
# With other arguments Qt's parser answers, with the same line.
check QuantScope "$GUI" --fresh --version
# --help without a display too (QCoreApplication), listing the window's own options.
if help=$(env -u QT_QPA_PLATFORM -u DISPLAY -u WAYLAND_DISPLAY "$GUI" --help 2>&1) &&
    [[ $help == *"--screenshot <file>"* && $help == *"--workbench <config>"* ]]; then
    pass "quantscope --help without a display"
else
    fail "quantscope --help without a display printed: $help"
fi
finish
