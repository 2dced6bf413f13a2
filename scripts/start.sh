#!/usr/bin/env bash
# Set everything up, build the bundled demo model and open the window on its welcome page,
# where "Open the demo" then opens it at once.
source "$(dirname "$0")/bootstrap.sh"
ks_venv
# Where the welcome page looks for the demo (kernelscope.core.environment.demo), built for
# the H200 its report was made on.
demo="${XDG_DATA_HOME:-$HOME/.local/share}/kernelscope/demo/squeezenet1_1.kscope"
"$KS_VENV/bin/kernelscope" build "$KS_ROOT/resources/demo/squeezenet1_1.onnx" -o "$demo" --arch sm_90
# A profile of this very build, made on an NVIDIA H200 by `kernelscope profile`.
# (shipped xz-compressed; unpacked next to the workspace, where the window's demo puts it too)
report="$(dirname "$demo")/squeezenet_h200.ncu-rep"
mkdir -p "$(dirname "$demo")"
[ -e "$report" ] || xz -dc "$KS_ROOT/resources/demo/squeezenet_h200.ncu-rep.xz" >"$report"
[ -e "$demo/profiles/squeezenet_h200.ncu-rep" ] ||
    "$KS_VENV/bin/kernelscope" import "$report" -w "$demo" >/dev/null
if [ -z "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && [ -z "${QT_QPA_PLATFORM:-}" ]; then
    ks_say "no display here: the demo workspace is at $demo; on a desktop, start the window"
    ks_say "with $KS_VENV/bin/kernelscope (its welcome page opens the demo)"
    exit 0
fi
exec "$KS_VENV/bin/kernelscope" gui "$@"
