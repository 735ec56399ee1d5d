#!/usr/bin/env bash
# Retakes the screenshots in docs/ under Xvfb from build/ (run `bash scripts/setup.sh` first):
# the explorer's views, lessons, presentation mode, the model docks and the workbench, at
# 1600×1000 (docs/screenshot-*.png, shown in the README) and 1280×800
# (docs/screenshot-1280-*.png: what a laptop screen shows).
#
#   bash scripts/screenshots.sh            every screenshot
#   bash scripts/screenshots.sh transfer   only those whose name contains "transfer"
set -euo pipefail
REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
APP="$REPO_ROOT/build/app/gui/quantscope"
[[ -x "$APP" ]] || { echo "screenshots.sh: $APP not built (bash scripts/setup.sh)" >&2; exit 1; }
command -v xvfb-run >/dev/null || { echo "screenshots.sh: xvfb-run missing (apt-get install xvfb xauth)" >&2; exit 1; }
filter="${1:-}"
cd "$REPO_ROOT"

# A settings folder of its own: no restored session, no welcome page, no recent files.
home="$(mktemp -d)"
trap 'rm -rf "$home"' EXIT
export XDG_CONFIG_HOME="$home/config" XDG_DATA_HOME="$home/data" XDG_RUNTIME_DIR="$home/run"
mkdir -p "$XDG_RUNTIME_DIR" && chmod 0700 "$XDG_RUNTIME_DIR"

# shot NAME WIDTHxHEIGHT ARGS...
shot() {
    local name="$1" screen="$2"
    shift 2
    [[ -z "$filter" || "$name" == *"$filter"* ]] || return 0
    local out="$REPO_ROOT/docs/$name.png"
    xvfb-run -a -s "-screen 0 ${screen}x24" "$APP" --fresh "$@" --screenshot "$out" >/dev/null
    echo "docs/$name.png ($screen)"
}

presets="$REPO_ROOT/resources/presets"
person="$REPO_ROOT/resources/models/person_detect.tflite"
int8="$REPO_ROOT/resources/models/test-model-int8.safetensors"
views=(transfer histogram error-histogram per-channel bit-sweep clip-sweep calibration compare frameworks)
for i in "${!views[@]}"; do
    # The defaults quantize per tensor: the per-channel view is shown on a preset that has channels.
    session=()
    [[ "${views[$i]}" == per-channel ]] && session=("$presets/per-channel-outlier.qscope")
    shot "screenshot-${views[$i]}" 1600x1000 --tab "$i" "${session[@]}"
    shot "screenshot-1280-${views[$i]}" 1280x800 --tab "$i" "${session[@]}"
done
shot screenshot-per-channel-generator 1600x1000 --tab 3 "$presets/per-channel-generator.qscope"
shot screenshot-dark 1600x1000 --tab 0 "$presets/qdq-4bit-laplace-dark.qscope"
shot screenshot-lesson 1600x1000 --lesson staircase-step
shot screenshot-1280-lesson 1280x800 --lesson staircase-step
shot screenshot-lesson-per-channel 1600x1000 --lesson per-channel-real-weights
shot screenshot-lesson-stored-codes 1600x1000 --lesson stored-int8-table
shot screenshot-presentation 1600x1000 --presentation --tab 0
shot screenshot-lesson-presentation 1600x1000 --presentation --lesson six-db-per-bit
shot screenshot-model-dock 1600x1000 "$person" --model-view tensors
shot screenshot-1280-model-dock 1280x800 "$person" --model-view tensors
shot screenshot-1280-model-report-dock 1280x800 "$person" --model-view report
shot screenshot-model-report-dock 1600x1000 "$person" --model-view report
shot screenshot-stored-quant 1600x1000 "$person" --tensor MobilenetV1/Conv2d_2_depthwise/depthwise_weights/read --model-view stored
# The example configuration, not the empty default: its tables have a QuantizationConfig and
# its features real id batches, so every view has something to show. Relative to the
# repository, as the window prints the path it opened.
example="resources/embedding/example.json"
workbench=(table heatmap feature sharding pipelining)
for i in "${!workbench[@]}"; do
    shot "screenshot-workbench-${workbench[$i]}" 1600x1000 --workbench "$example" --workbench-tab "$i"
done
shot screenshot-1280-workbench 1280x800 --workbench "$example" --workbench-tab 0
