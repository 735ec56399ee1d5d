# quantscope-cli without quantscope-cli-pictures (the headless package alone): a copy of the
# built program in a scratch folder, where neither place it looks finds the pictures program.
# Every picture option, in every form the commands accept, is answered by one line naming the
# option, the missing program and the package that has it, with exit code 2 and no file
# written; the text commands write the same bytes as the built tree's program, which finds
# quantscope-cli-pictures next to it.
# Usage: check_without_pictures.sh QUANTSCOPE_CLI SOURCE_DIR
set -euo pipefail
built=$1 source_dir=$2
scratch=$(mktemp -d "${TMPDIR:-/tmp}/qs-headless.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/bin" "$scratch/out"
cli=$scratch/bin/quantscope-cli
cp "$built" "$cli"
case_file=$source_dir/resources/cases/qdq_v2_int8_data_range.json
model=$source_dir/tests/data/models/safetensors/test-model-float32.safetensors
failures=0
fail() { printf 'FAIL: %s\n' "$*"; failures=$((failures + 1)); }
pass() { printf 'PASS: %s\n' "$*"; }

# expect_missing OPTION COMMAND ARGS...: exit 2, exactly the one line, nothing written.
expect_missing() {
    local option=$1 command=$2 status=0
    shift
    (cd "$scratch/out" && "$cli" "$@" >"$scratch/stdout" 2>"$scratch/stderr") || status=$?
    local expected="quantscope-cli $command: $option needs the quantscope package (quantscope-cli-pictures not found in $scratch/libexec/quantscope)"
    if ((status != 2)); then
        fail "$* exited $status, expected 2"
    elif [[ $(cat "$scratch/stderr") != "$expected" ]]; then
        fail "$* printed '$(cat "$scratch/stderr")', expected '$expected'"
    elif [[ -s $scratch/stdout || -n $(ls -A "$scratch/out") ]]; then
        fail "$* wrote something: $(cat "$scratch/stdout") $(ls -A "$scratch/out")"
    else
        pass "$* -> exit 2, '$expected'"
    fi
    rm -rf "${scratch:?}/out/"*
}
expect_missing --png export --case "$case_file" --view transfer --png t.png
expect_missing --svg export --case "$case_file" --view histogram --csv h.csv --svg h.svg
expect_missing --pdf export --case "$case_file" --view error-histogram --pdf=e.pdf
expect_missing --png analyze sweep-bits --case "$case_file" --generate normal:n=1000 --png=b.png
expect_missing --png analyze compare --case "$case_file" --case "$case_file" --png c.png --json -
expect_missing --png model "$model" --report r.json --case "$case_file" --png r.png

# A value that only looks like a picture option is a value: no picture asked for.
status=0
(cd "$scratch/out" && "$cli" export --case "$case_file" --view transfer --csv --png >/dev/null 2>"$scratch/stderr") ||
    status=$?
if ((status == 0)) && [[ -f $scratch/out/--png ]]; then
    pass "export --csv --png writes the CSV to a file named --png"
else
    fail "export --csv --png exited $status ($(cat "$scratch/stderr"))"
fi
rm -rf "${scratch:?}/out/"*
# Help needs no pictures.
if "$cli" export --png x.png --help | grep -q '^Usage: quantscope-cli export'; then
    pass "export --png x.png --help prints the help"
else
    fail "export --png x.png --help"
fi

# The text commands of the copy write what the built tree's program writes.
same_output() {  # ARGS...
    local a b
    a=$("$built" "$@" 2>&1) || true
    b=$("$cli" "$@" 2>&1) || true
    if [[ -n $a && $a == "$b" ]]; then pass "same output: $*"; else fail "output differs: $*"; fi
}
same_output export --case "$case_file" --view transfer --csv -
same_output export --case "$case_file" --view per-channel --csv -
same_output analyze calibrate --case "$case_file" --generate normal:n=5000,seed=3 --csv -
same_output model "$model" --list --json -
same_output model "$model" --report - --case "$case_file"
same_output eval "$source_dir/tests/data/quantize_v2.json"
same_output conformance "$source_dir/tests/data/dequantize.json"

((failures == 0)) || { echo "$failures check(s) failed"; exit 1; }
echo "all checks passed"
