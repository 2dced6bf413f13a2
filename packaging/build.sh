#!/usr/bin/env bash
# Build the desktop app: dist/kernelscope/ (a PyInstaller folder that runs without Python)
# and dist/kernelscope_VERSION_ARCH.deb. Heavy (TVM): runs niced; one build at a time.
#   bash packaging/build.sh            # KERNELSCOPE_DIST=folder puts the results elsewhere
#   bash packaging/build.sh --folder   # only the app folder (the .deb's xz takes most of the time)
set -euo pipefail
make_deb=1
[ "${1:-}" = "--folder" ] && make_deb=0
source "$(dirname "$0")/../scripts/bootstrap.sh"
ks_venv # kernelscope's dependencies (TVM, Qt, the NVIDIA wheels), downloaded once per machine

dist="${KERNELSCOPE_DIST:-$KS_ROOT/dist}"
work="${XDG_CACHE_HOME:-$HOME/.cache}/kernelscope/packaging"
venv="$work/venv"
mkdir -p "$work" "$dist"
exec 9>"$work/lock"
flock -n 9 || { ks_say "another packaging build is running (lock $work/lock)"; exit 1; }

# The build environment: PyInstaller and kernelscope itself installed as a wheel (PyInstaller
# cannot follow setuptools' editable finder), over the setup venv's packages (a .pth line),
# so that nothing is downloaded twice.
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
own="$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
"$KS_VENV/bin/python" -c 'import sys; print("\n".join(p for p in sys.path if p.endswith("-packages")))' \
    >"$own/zz-kernelscope-deps.pth"
"$venv/bin/python" -m pip install -q --disable-pip-version-check "pyinstaller>=6.10,<7"
"$venv/bin/python" -m pip install -q --disable-pip-version-check --no-deps --force-reinstall \
    "$KS_ROOT" 2>&1 | grep -v "^WARNING: Location" || true
# (pip builds in a temporary copy; the clone stays clean)

ks_say "PyInstaller: analysing and collecting (a few minutes)"
start=$(date +%s)
KS_LEFT_OUT="$work/left_out.txt" nice -n 10 "$venv/bin/python" -m PyInstaller --noconfirm \
    --log-level WARN --workpath "$work/build" --distpath "$dist" \
    "$KS_ROOT/packaging/kernelscope.spec" 2> >(grep -v "required via ctypes not found\|Failed to collect submodules\|Library not found" >&2)
ks_say "app folder: $dist/kernelscope ($(du -sh "$dist/kernelscope" | cut -f1), $(($(date +%s) - start)) s)"

if [ "$make_deb" -eq 0 ]; then
    ks_say "--folder: no .deb made"
elif command -v dpkg-deb >/dev/null; then
    ks_say "making the .deb (xz)"
    nice -n 10 "$venv/bin/python" "$KS_ROOT/packaging/deb.py" "$dist/kernelscope" \
        "$work/left_out.txt" "$dist"
else
    ks_say "dpkg-deb not found: no .deb made (the app folder works as it is)"
fi
