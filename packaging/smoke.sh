#!/usr/bin/env bash
# Smoke-test the packaged app offscreen, as a user would meet it: without Python on PATH, in
# an empty home. Uses the .deb's contents when there is one (dist/kernelscope_*.deb), else
# the app folder dist/kernelscope/. Prints each step's time and the package's size.
#   bash packaging/smoke.sh [APP_BINARY_OR_DEB]   (KERNELSCOPE_SMOKE_OUT=DIR keeps the PNGs)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dist="${KERNELSCOPE_DIST:-$root/dist}"
target="${1:-$(ls "$dist"/kernelscope_*.deb 2>/dev/null | tail -1 || true)}"
target="${target:-$dist/kernelscope/kernelscope}"
tmp="$(mktemp -d -t kernelscope-smoke.XXXXXX)"
trap 'rm -rf "$tmp"' EXIT

say() { printf 'smoke: %s\n' "$*"; }
fail() { printf 'smoke: FAILED: %s\n' "$*" >&2; exit 1; }
step() { # step NAME COMMAND...: run it, print its wall and CPU time (CPU: less noisy on a
    # shared machine), return its exit status
    local name=$1 rc=0 real user sys TIMEFORMAT="%R %U %S"
    shift
    { time "$@" >"$tmp/out.txt" 2>&1 || rc=$?; } 2>"$tmp/time.txt"
    read -r real user sys <"$tmp/time.txt"
    printf 'smoke: %-30s %7s s wall %7s s CPU  (exit %d)\n' "$name" "$real" \
        "$(awk "BEGIN { print $user + $sys }")" "$rc"
    return $rc
}

if [[ "$target" == *.deb ]]; then
    say "package $(basename "$target"): $(du -h "$target" | cut -f1)"
    dpkg-deb -x "$target" "$tmp/root"
    dpkg-deb -f "$target" Depends | tr ',' '\n' | grep -q "libxcb-icccm4" ||
        fail "the .deb does not depend on libxcb-icccm4"
    app="$tmp/root/opt/kernelscope/kernelscope"
    if command -v desktop-file-validate >/dev/null; then
        desktop-file-validate "$tmp/root/usr/share/applications/kernelscope.desktop"
    fi
    if command -v update-desktop-database >/dev/null && command -v update-mime-database >/dev/null; then
        # what dpkg's triggers do on install: a double-clicked report must map to kernelscope
        update-mime-database "$tmp/root/usr/share/mime" >/dev/null 2>&1
        update-desktop-database "$tmp/root/usr/share/applications"
        grep -q "^application/x-ncu-report=.*kernelscope.desktop" \
            "$tmp/root/usr/share/applications/mimeinfo.cache" ||
            fail "reports are not associated with kernelscope.desktop"
        grep -q ":application/x-ncu-report:\*\.ncu-rep$" "$tmp/root/usr/share/mime/globs2" ||
            fail "the MIME type of .ncu-rep is not installed"
        say "desktop integration: .ncu-rep -> application/x-ncu-report -> kernelscope.desktop"
    fi
    if command -v appstreamcli >/dev/null; then
        appstreamcli validate --no-net --explain "$tmp/root/usr/share/metainfo/"*.metainfo.xml >/dev/null ||
            fail "appstreamcli validate"
    fi
else
    app="$target"
fi
[ -x "$app" ] || fail "no app at $app: run bash packaging/build.sh first"
say "app folder: $(du -sh "$(dirname "$app")" | cut -f1)"
demo="$(dirname "$app")/_internal/kernelscope/resources/demo"

# A user's session: no Python, no virtual environment, no CUDA on PATH, an empty home.
export HOME="$tmp/home" XDG_CACHE_HOME="$tmp/home/.cache" XDG_DATA_HOME="$tmp/home/.local/share"
export XDG_CONFIG_HOME="$tmp/home/.config" PATH="/usr/bin:/bin" QT_QPA_PLATFORM=offscreen
unset PYTHONPATH PYTHONHOME VIRTUAL_ENV KERNELSCOPE_CACHE_DIR CUDA_HOME CUDA_PATH
mkdir -p "$HOME"
ws="$tmp/demo.kscope"

step "start-up (--help)" "$app" --help || fail "--help: $(cat "$tmp/out.txt")"
step "doctor" "$app" doctor || fail "doctor: $(cat "$tmp/out.txt")"
grep -q "^TVM .*ok .*_internal/tvm" "$tmp/out.txt" || fail "doctor does not find the bundled TVM: $(cat "$tmp/out.txt")"
# Build with the NVIDIA tools inside the package even where a CUDA toolkit is installed
# (kernelscope prefers one on PATH or in /usr/local/cuda).
bundled="$(dirname "$app")/_internal/nvidia/cu13/bin"
for tool in nvcc nvdisasm cuobjdump; do
    [ -x "$bundled/$tool" ] || fail "the package has no $tool"
    export "KERNELSCOPE_${tool^^}=$bundled/$tool"
done
if ! command -v ncu >/dev/null; then
    grep -q "^ncu .*MISSING .*Nsight Compute" "$tmp/out.txt" || fail "doctor does not say ncu is missing"
fi
step "build the demo (cold)" "$app" build "$demo/squeezenet1_1.onnx" -o "$ws" || fail "build: $(cat "$tmp/out.txt")"
xz -dc "$demo/squeezenet_h200.ncu-rep.xz" >"$tmp/squeezenet_h200.ncu-rep" || fail "no demo report"
step "import the H200 report" "$app" import "$tmp/squeezenet_h200.ncu-rep" -w "$ws" || fail "import: $(cat "$tmp/out.txt")"
step "hot lines from the report" "$app" hot "$ws/profiles/squeezenet_h200.ncu-rep" --top 5 -w "$ws" ||
    fail "hot: $(cat "$tmp/out.txt")"
xz -dc "$root/tests/data/ncu/mlp/mlp.ncu-rep.xz" >"$tmp/mlp.ncu-rep" || fail "no mlp report"
step "roofline PNG (Pillow)" "$app" roofline "$tmp/mlp.ncu-rep" \
    --png "$tmp/roofline.png" || fail "roofline: $(cat "$tmp/out.txt")"
[ -s "$tmp/roofline.png" ] || fail "no roofline PNG"
step "window screenshot of the demo" "$app" --screenshot "$tmp/demo.png" "$ws" || fail "screenshot: $(cat "$tmp/out.txt")"
[ "$(stat -c %s "$tmp/demo.png")" -gt 20000 ] || fail "the screenshot is (nearly) empty"
step "window start-up (welcome page)" "$app" --screenshot "$tmp/empty.png" || fail "empty window"
# The welcome page says what is installed, and what to do about a missing ncu; Help's windows.
step "welcome page facts" "$app" -c "from kernelscope.viewer.panels.welcome import facts_html
from kernelscope.core.environment import installed_facts
print(facts_html(installed_facts()))" || fail "welcome facts: $(cat "$tmp/out.txt")"
grep -q "<b>TVM</b> [0-9]" "$tmp/out.txt" || fail "the welcome page does not find TVM: $(cat "$tmp/out.txt")"
if ! command -v ncu >/dev/null; then
    grep -q "<b>ncu</b> not found<br>needed for profiling" "$tmp/out.txt" ||
        fail "the welcome page does not say ncu is missing: $(cat "$tmp/out.txt")"
fi
[ -f "$(dirname "$app")/_internal/kernelscope/docs/user-guide.md" ] || fail "the user guide is not bundled"
step "Help > About" "$app" --screenshot "$tmp/about.png" --dialog about || fail "about: $(cat "$tmp/out.txt")"
step "Help > User Guide" "$app" --screenshot "$tmp/guide.png" --dialog user-guide || fail "guide: $(cat "$tmp/out.txt")"
[ "$(stat -c %s "$tmp/guide.png")" -gt 20000 ] || fail "the guide's screenshot is (nearly) empty"
if [ -n "${KERNELSCOPE_SMOKE_OUT:-}" ]; then # keep the screenshots to look at
    mkdir -p "$KERNELSCOPE_SMOKE_OUT"
    cp "$tmp/demo.png" "$tmp/empty.png" "$tmp/about.png" "$tmp/guide.png" "$KERNELSCOPE_SMOKE_OUT/"
fi
step "build small_cnn.onnx" "$app" build "$root/tests/data/models/small_cnn.onnx" -o "$tmp/cnn.kscope" ||
    fail "build small_cnn: $(cat "$tmp/out.txt")"

# What ncu starts to profile: this program as python, on the runner's zipapp (built from the
# runner package's sources, which the app must carry).
step "the profiling runner is built" "$app" -c \
    "from kernelscope.core.profiling.runner_app import runner_path; print(runner_path())" ||
    fail "runner: $(cat "$tmp/out.txt")"
runner="$(tail -1 "$tmp/out.txt")"
[ -f "$runner" ] || fail "the package cannot build the profiling runner ($runner)"
step "the profiling runner starts" "$app" "$runner" --help || fail "runner: $(cat "$tmp/out.txt")"

# Bad input: a file that is not a report; no display at all.
head -c 4096 /dev/urandom >"$tmp/not-a-report.ncu-rep"
if step "a report that is not one" "$app" --screenshot "$tmp/bad.png" "$tmp/not-a-report.ncu-rep"; then
    fail "opening a random file as a report succeeded"
fi
grep -q "kernelscope: error:" "$tmp/out.txt" && ! grep -q "Traceback" "$tmp/out.txt" ||
    fail "no clear error for a bad report: $(cat "$tmp/out.txt")"
rc=0
env -u QT_QPA_PLATFORM -u DISPLAY -u WAYLAND_DISPLAY "$app" "$ws" >"$tmp/out.txt" 2>&1 || rc=$?
[ "$rc" -eq 1 ] && grep -q "no display" "$tmp/out.txt" || fail "without a display: exit $rc, $(cat "$tmp/out.txt")"
say "no display: exit 1, $(head -1 "$tmp/out.txt")"

if command -v nvidia-smi >/dev/null && command -v ncu >/dev/null; then
    step "profile small_cnn on the GPU" "$app" profile "$tmp/cnn.kscope" || fail "profile: $(cat "$tmp/out.txt")"
else
    say "no GPU/ncu here: profiling not tried"
fi
say "all passed"
