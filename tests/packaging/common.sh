# Sourced by the check_*.sh scripts: their arguments, a scratch folder removed on exit, and
# fail/expect helpers. Every check names what it looked at.
set -euo pipefail
SOURCE_DIR=$1 BUILD_DIR=$2 GUI=$3 CLI=$4
SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/qs-packaging.XXXXXX")
trap 'rm -rf "$SCRATCH"' EXIT
FAILURES=0
fail() { printf 'FAIL: %s\n' "$*" >&2; FAILURES=$((FAILURES + 1)); }
pass() { printf 'PASS: %s\n' "$*"; }
# expect DESCRIPTION COMMAND...: runs COMMAND, which must succeed.
expect() {
    local what=$1
    shift
    if "$@"; then pass "$what"; else fail "$what"; fi
}
finish() {
    if ((FAILURES > 0)); then printf '%d check(s) failed\n' "$FAILURES" >&2; exit 1; fi
    printf 'all checks passed\n'
}
# The long options (--name) a help text lists, one a line, sorted.
long_options() { grep -o -- '\(^\|[][ ,(|]\)--[a-z][a-z-]*' | grep -o -- '--.*' | sort -u; }
