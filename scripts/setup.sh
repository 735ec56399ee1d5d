#!/usr/bin/env bash
# QuantScope set-up: installs the Debian 12 packages that are missing, configures and builds
# into build/ (Ninja, Release), then optionally runs the app or the tests.
#
#   bash scripts/setup.sh          install what is missing + build
#   bash scripts/setup.sh run      ... then start build/app/gui/quantscope (extra args passed on)
#   bash scripts/setup.sh test     ... then run every test (ctest); exits with ctest's status
#   bash scripts/setup.sh fuzz-packages   only install clang and libFuzzer (scripts/fuzz.sh)
#
# Safe to run again: installed packages are skipped and the build is incremental.
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="$REPO_ROOT/build"
APP="$BUILD_DIR/app/gui/quantscope"
PACKAGES=(cmake g++ ninja-build qt6-base-dev qt6-svg-dev libqcustomplot-dev libeigen3-dev
          xvfb xauth fonts-dejavu-core)
# For scripts/fuzz.sh only: the libFuzzer targets are built with clang.
FUZZ_PACKAGES=(clang libfuzzer-14-dev libclang-rt-14-dev)

say() { printf '\033[1m==> %s\033[0m\n' "$*"; }
die() { printf 'setup.sh: error: %s\n' "$*" >&2; exit 1; }

usage() {
    sed -n '2,10p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
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

configure_and_build() {
    local cache="$BUILD_DIR/CMakeCache.txt"
    if [[ -f "$cache" ]] && ! grep -q '^CMAKE_GENERATOR:INTERNAL=Ninja$' "$cache"; then
        die "$BUILD_DIR was configured with another generator; remove it (rm -rf build) and run again."
    fi
    say "Configuring (Ninja, Release) in build/"
    cmake -S "$REPO_ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release
    say "Building"
    cmake --build "$BUILD_DIR" --parallel "$(nproc)"
}

main() {
    local command="${1:-build}"
    case "$command" in
        build | run | test) ;;
        fuzz-packages) install_missing_packages "${FUZZ_PACKAGES[@]}"; exit 0 ;;
        -h | --help | help) usage; exit 0 ;;
        *) usage >&2; die "unknown command '$command' (expected run or test)" ;;
    esac
    if (($# > 0)); then shift; fi

    install_missing_packages "${PACKAGES[@]}"
    configure_and_build

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
        test)
            say "Running the tests"
            exec ctest --test-dir "$BUILD_DIR" --output-on-failure "$@"
            ;;
    esac
}

main "$@"
