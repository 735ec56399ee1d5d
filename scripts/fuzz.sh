#!/usr/bin/env bash
# QuantScope fuzzing: builds the libFuzzer targets of tests/fuzz with clang, ASan and UBSan
# into build-fuzz/ (QS_FUZZ=ON) and runs one target or all of them for a while.
#
#   bash scripts/fuzz.sh                  every target, 300 s each
#   bash scripts/fuzz.sh TARGET [SECONDS] one target (npy, csv, vec, id_csv, generator_spec,
#                                         op_case, session, lesson, workbench_config,
#                                         py_literal, model_<format> for each
#                                         tests/fuzz/fuzz_model_<format>.cpp)
#   bash scripts/fuzz.sh all SECONDS      every target, SECONDS each
#   bash scripts/fuzz.sh list             the targets
#
# Each run starts from the checked-in corpus tests/fuzz/corpus/TARGET (plus the project's
# sample files) and works in build-fuzz/corpus/TARGET. Afterwards the inputs that reach new
# code are merged into tests/fuzz/corpus/TARGET (commit them: ctest replays that folder in
# the normal build). Crashes, leaks, timeouts and property violations are written to
# fuzz-findings/TARGET/ with the input that shows them; the script then exits 1.
# Replay one: build-fuzz/tests/fuzz/fuzz_TARGET fuzz-findings/TARGET/crash-...
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="$REPO_ROOT/build-fuzz"
FINDINGS_DIR="$REPO_ROOT/fuzz-findings"
TARGETS=(npy csv vec id_csv generator_spec op_case session lesson workbench_config py_literal)
# The model-file readers' targets exist as their readers land: model_<format> for each
# tests/fuzz/fuzz_model_<format>.cpp, seeded with tests/data/models/<format>.
for source in "$REPO_ROOT"/tests/fuzz/fuzz_model_*.cpp; do
    [[ -e "$source" ]] || continue
    name="${source##*/fuzz_}"
    TARGETS+=("${name%.cpp}")
done

say() { printf '\033[1m==> %s\033[0m\n' "$*"; }
die() { printf 'fuzz.sh: error: %s\n' "$*" >&2; exit 2; }

# The project's own sample files each target starts from, besides its corpus folder.
seeds_of() {
    case "$1" in
        npy) echo "$REPO_ROOT/resources/data" ;;
        op_case) echo "$REPO_ROOT/tests/data" ;;
        session) echo "$REPO_ROOT/resources/presets" ;;
        lesson) echo "$REPO_ROOT/resources/lessons" ;;
        workbench_config) echo "$REPO_ROOT/resources/embedding" ;;
        model_*) echo "$REPO_ROOT/tests/data/models/${1#model_}" ;;
    esac
}

build() {
    bash "$REPO_ROOT/scripts/setup.sh" fuzz-packages
    say "Configuring the fuzz build (clang, QS_FUZZ=ON) in build-fuzz/"
    CXX=clang++ CC=clang cmake -S "$REPO_ROOT" -B "$BUILD_DIR" -G Ninja \
        -DCMAKE_BUILD_TYPE=RelWithDebInfo -DQS_FUZZ=ON >/dev/null
    say "Building the fuzz targets"
    cmake --build "$BUILD_DIR" --parallel "$(nproc)"
}

# run_target NAME SECONDS: prints "NAME: N executions in S s" and returns 1 on a finding.
run_target() {
    local name="$1" seconds="$2"
    local binary="$BUILD_DIR/tests/fuzz/fuzz_$name"
    local corpus="$REPO_ROOT/tests/fuzz/corpus/$name" work="$BUILD_DIR/corpus/$name"
    local findings="$FINDINGS_DIR/$name" log="$BUILD_DIR/fuzz-$name.log"
    mkdir -p "$work" "$findings"
    local seeds=()
    read -r -a seeds <<<"$(seeds_of "$name")"
    say "Fuzzing $name for ${seconds} s"
    local status=0
    # -rss_limit_mb: the product refuses what does not fit well before 4 GiB of input data.
    ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=0" UBSAN_OPTIONS="print_stacktrace=1" \
        "$binary" "$work" "$corpus" "${seeds[@]}" -max_total_time="$seconds" -timeout=20 \
        -rss_limit_mb=4096 -artifact_prefix="$findings/" -print_final_stats=1 >"$log" 2>&1 || status=$?
    local executions
    executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    # Keep what reaches new code: merge the work corpus into the checked-in one.
    "$binary" -merge=1 "$corpus" "$work" >>"$log" 2>&1 || true
    printf '%s: %s executions in %s s, corpus %s files\n' "$name" "${executions:-?}" "$seconds" \
        "$(find "$corpus" -type f | wc -l)" | tee -a "$BUILD_DIR/fuzz-summary.txt"
    if ((status != 0)); then
        printf '%s: FINDING (exit %d); the log: %s; inputs in %s\n' "$name" "$status" "$log" "$findings" >&2
        grep -m1 -E 'ERROR: |runtime error|property violated' "$log" >&2 || true
        return 1
    fi
    rmdir "$findings" 2>/dev/null || true
}

main() {
    local which="${1:-all}" seconds="${2:-300}"
    case "$which" in
        -h | --help | help) sed -n '2,18p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
        list) printf '%s\n' "${TARGETS[@]}"; exit 0 ;;
    esac
    [[ "$seconds" =~ ^[0-9]+$ ]] || die "SECONDS must be a whole number, got '$seconds'"
    local selected=()
    if [[ "$which" == all ]]; then
        selected=("${TARGETS[@]}")
    else
        [[ " ${TARGETS[*]} " == *" $which "* ]] || die "unknown target '$which' (try: bash scripts/fuzz.sh list)"
        selected=("$which")
    fi
    build
    local failed=0 name
    for name in "${selected[@]}"; do
        run_target "$name" "$seconds" || failed=1
    done
    exit "$failed"
}

main "$@"
