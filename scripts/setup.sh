#!/usr/bin/env bash
# QuantScope set-up: installs the Debian 12 packages that are missing, configures and builds
# into build/ (Ninja, Release), then optionally runs the app or the tests.
#
#   bash scripts/setup.sh          install what is missing + build
#   bash scripts/setup.sh run      ... then start build/app/gui/quantscope (extra args passed on)
#   bash scripts/setup.sh test     ... then run every test (ctest); exits with ctest's status
#   bash scripts/setup.sh sanitize build with ASan + UBSan (QS_SANITIZE=ON) into build-sanitize/
#                                  and run every test under them; any report fails the run
#   bash scripts/setup.sh package  ... then build the Debian packages build/quantscope-cli_<version>_<arch>.deb
#                                  (the headless CLI) and build/quantscope_<version>_<arch>.deb (the
#                                  window and the CLI's pictures; it depends on quantscope-cli)
#   bash scripts/setup.sh fuzz-packages   only install clang and libFuzzer (for scripts/fuzz.sh)
#
# Extra arguments of test and sanitize go to ctest (e.g. -R tst_ops).
# Safe to run again: installed packages are skipped and the build is incremental.
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="$REPO_ROOT/build"
SANITIZE_DIR="$REPO_ROOT/build-sanitize"
APP="$BUILD_DIR/app/gui/quantscope"
PACKAGES=(cmake g++ ninja-build ccache qt6-base-dev qt6-svg-dev libqcustomplot-dev libeigen3-dev
          xvfb xauth fonts-dejavu-core
          # model files: ONNX (protobuf), TFLite (flatbuffers), zip (.npz, .keras), Snappy
          # (checkpoint indexes), JSON (safetensors headers)
          libonnx-dev libprotobuf-dev protobuf-compiler libflatbuffers-dev libzip-dev
          libsnappy-dev nlohmann-json3-dev pkgconf
          # packaging/: icons rendered from the SVG, the .deb's computed dependencies
          # (dpkg-shlibdeps), and the tools tests/packaging checks the package's files with
          librsvg2-bin dpkg-dev desktop-file-utils appstream shared-mime-info man-db bash-completion)
# For scripts/fuzz.sh only: the libFuzzer targets are built with clang.
FUZZ_PACKAGES=(clang libfuzzer-14-dev libclang-rt-14-dev)

say() { printf '\033[1m==> %s\033[0m\n' "$*"; }
die() { printf 'setup.sh: error: %s\n' "$*" >&2; exit 1; }

usage() {
    sed -n '2,16p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
}

# install_missing_packages PACKAGE...
install_missing_packages() {
    command -v dpkg-query >/dev/null || die "dpkg-query not found: this script expects Debian 12 (or a derivative)."
    local missing=() pkg
    for pkg in "$@"; do
        if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q '^install ok installed$'; then
            missing+=("$pkg")
        fi
    done
    if ((${#missing[@]} == 0)); then
        say "All $# required packages are installed."
        return
    fi

    local sudo=()
    if ((EUID != 0)); then
        command -v sudo >/dev/null || die "not root and sudo is missing; install as root: apt-get install ${missing[*]}"
        sudo=(sudo)
    fi
    say "Installing ${#missing[@]} missing package(s): ${missing[*]}"
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q </dev/null
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
        apt-get install -y -q --no-install-recommends "${missing[@]}" </dev/null
}

# configure_and_build DIR BUILD_TYPE [cmake options...]
configure_and_build() {
    local dir="$1" type="$2"
    shift 2
    local cache="$dir/CMakeCache.txt"
    if [[ -f "$cache" ]] && ! grep -q '^CMAKE_GENERATOR:INTERNAL=Ninja$' "$cache"; then
        die "$dir was configured with another generator; remove it (rm -rf $dir) and run again."
    fi
    say "Configuring (Ninja, $type${*:+, $*}) in ${dir#"$REPO_ROOT"/}/"
    cmake -S "$REPO_ROOT" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE="$type" \
        -DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache "$@"
    say "Building"
    cmake --build "$dir" --parallel "$(nproc)"
}

# Every test under AddressSanitizer (with LeakSanitizer) and UndefinedBehaviorSanitizer. The
# child processes the tests start (quantscope-cli) inherit the same options. Reports go to
# files, one per process: a test that expects the CLI to fail would not notice a report in
# the child's stderr, so any file there fails the run even when every test passed. Leak
# suppressions (tests/sanitizer/lsan.supp) name third-party libraries only, never ours.
run_sanitized_tests() {
    local reports="$SANITIZE_DIR/sanitizer-reports"
    rm -rf "$reports" && mkdir -p "$reports"
    export ASAN_OPTIONS="detect_leaks=1:detect_stack_use_after_return=1:check_initialization_order=1:strict_init_order=1:strict_string_checks=1:log_path=$reports/asan"
    export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:log_path=$reports/ubsan"
    export LSAN_OPTIONS="suppressions=$REPO_ROOT/tests/sanitizer/lsan.supp:print_suppressions=0"
    say "Running the tests under ASan + UBSan (reports: ${reports#"$REPO_ROOT"/}/)"
    local status=0
    # One test per core; the window and job tests have the machine to themselves (their
    # PROCESSORS property, tests/ui/CMakeLists.txt), their waits would run past their limits
    # beside another test. The monkey runs 2 000 actions here (its CTest environment).
    ctest --test-dir "$SANITIZE_DIR" --output-on-failure --parallel "$(nproc)" "$@" || status=$?
    local files=("$reports"/*)
    if [[ -e "${files[0]}" ]]; then
        say "${#files[@]} sanitizer report(s):"
        local f
        for f in "${files[@]}"; do printf -- '--- %s\n' "${f#"$REPO_ROOT"/}"; cat "$f"; done
        die "the sanitizers reported errors (above)"
    fi
    exit "$status"
}

# ccache shares compiled objects between builds and between clones: paths under the clone are
# hashed relative to it (base_dir), the build folder is not hashed, and the compiler is known by
# its contents, so a fresh clone in another folder hits what an earlier build filled. The
# sloppiness lets it cache the precompiled headers (cmake/PrecompiledHeaders.cmake) and the
# files that use them; no file here uses __DATE__ or __TIME__.
export CCACHE_BASEDIR="$REPO_ROOT" CCACHE_NOHASHDIR=1 CCACHE_COMPILERCHECK=content
export CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime
export CCACHE_MAXSIZE="${CCACHE_MAXSIZE:-8G}"

main() {
    local command="${1:-build}"
    case "$command" in
        build | run | test | sanitize | package) ;;
        fuzz-packages) install_missing_packages "${FUZZ_PACKAGES[@]}"; exit 0 ;;
        -h | --help | help) usage; exit 0 ;;
        *) usage >&2; die "unknown command '$command' (expected run, test, sanitize or package)" ;;
    esac
    if (($# > 0)); then shift; fi

    install_missing_packages "${PACKAGES[@]}"
    if [[ "$command" == sanitize ]]; then
        # RelWithDebInfo: optimised like Release, with line numbers in the reports.
        configure_and_build "$SANITIZE_DIR" RelWithDebInfo -DQS_SANITIZE=ON
        run_sanitized_tests "$@"
    fi
    configure_and_build "$BUILD_DIR" Release

    case "$command" in
        build)
            say "Done. Start the app with: bash scripts/setup.sh run"
            ;;
        run)
            if [[ -z "${DISPLAY:-}" && -z "${WAYLAND_DISPLAY:-}" && -z "${QT_QPA_PLATFORM:-}" ]]; then
                die "no display found. On a headless machine use: xvfb-run -a bash scripts/setup.sh run"
            fi
            # Qt wants a private runtime dir; a root shell without a session has none.
            if [[ -z "${XDG_RUNTIME_DIR:-}" ]]; then
                export XDG_RUNTIME_DIR="$BUILD_DIR/xdg-runtime"
                mkdir -p "$XDG_RUNTIME_DIR" && chmod 0700 "$XDG_RUNTIME_DIR"
            fi
            say "Starting $APP"
            exec "$APP" "$@"
            ;;
        package)
            say "Building the Debian packages"
            rm -f "$BUILD_DIR"/quantscope_*.deb "$BUILD_DIR"/quantscope-cli_*.deb
            (cd "$BUILD_DIR" && cpack -G DEB)
            local cli gui
            cli=$(ls "$BUILD_DIR"/quantscope-cli_*.deb)
            gui=$(ls "$BUILD_DIR"/quantscope_*.deb)
            say "Done: $cli and $gui. Install both with: sudo apt-get install $cli $gui" \
                "(on a server without a display, $cli alone)"
            ;;
        test)
            say "Running the tests"
            exec ctest --test-dir "$BUILD_DIR" --output-on-failure --parallel "$(nproc)" "$@"
            ;;
    esac
}

main "$@"
