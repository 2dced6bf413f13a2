#!/usr/bin/env bash
# On the build machine: what timeline_ssh_h200.sh needs, into STAGE (default
# .device/timeline_ssh, ignored), small enough to travel beside the checkout (64 MiB in all):
#   rt.txz            kernelscope's runtime-only TVM bundle for the host's Python 3.12, without
#                     what a runtime never loads (tvm_ffi's 3rdparty sources, TVM's web files)
#   ws.tgz            benchmarks/mobilenet_onnx.py's MobileNetV2 built here, without its weights
#   mobilenet_v2.onnx the model (10 KB), from which params_from_onnx.py makes the weights there
#   code.tgz          this checkout's core/ (the "new" kernelscope)
#   ssh.txz           OpenSSH's sshd and ssh of this machine with the libraries a bare Ubuntu
#                     image lacks (seen on the H200 image: no OpenSSH at all), and the host's
#                     and the user's key made here (that image has no ssh-keygen either)
#   *.whl             platformdirs (kernelscope's cache folder)
# and the scripts. Usage: bash scripts/device/stage_timeline_ssh.sh [STAGE]
set -euo pipefail
py=${KERNELSCOPE_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/kernelscope/venv}/bin/python
out=${1:-.device/timeline_ssh}
build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT
rm -rf "$out"
mkdir -p "$out"
"$py" benchmarks/mobilenet_onnx.py "$out/mobilenet_v2.onnx"
"$py" -m kernelscope.core.cli build "$out/mobilenet_v2.onnx" -o "$build/mobilenet_v2.kscope" >/dev/null
tar -czf "$out/ws.tgz" --exclude=sass.json --exclude=build.log --exclude=params.npz \
    -C "$build" mobilenet_v2.kscope
bundle=$("$py" -c 'from kernelscope.core.profiling import make_bundle; print(make_bundle((3, 12), "x86_64", "2.28"))')
mkdir "$build/rt" && tar -xzf "$bundle" -C "$build/rt"
tar -cJf "$out/rt.txz" --exclude=tvm_ffi/3rdparty --exclude=tvm/web \
    --exclude='*.pyc' -C "$build/rt" .
tar -czf "$out/code.tgz" --exclude=__pycache__ core
echo "new (staged): $(git log -1 --format='%h %s') $(git diff --quiet || echo '+ local changes')" \
    >"$out/code.txt"
# OpenSSH: binaries and the libraries that are not in a minimal Ubuntu image
ssh_dir=$build/sshmin
mkdir -p "$ssh_dir/bin" "$ssh_dir/lib" "$ssh_dir/keys"
sshd=${KERNELSCOPE_TEST_SSHD:-$(command -v sshd || echo /usr/sbin/sshd)}
cp "$sshd" "$(command -v ssh)" "$ssh_dir/bin/"
for lib in libwrap.so.0 libnsl.so.2 libtirpc.so.3 libgssapi_krb5.so.2 libk5crypto.so.3 \
    libkrb5.so.3 libkrb5support.so.0 libcom_err.so.2 libkeyutils.so.1 libaudit.so.1 \
    libcap-ng.so.0 libpam.so.0 libcrypt.so.1; do
    found=$(LD_LIBRARY_PATH=${KERNELSCOPE_TEST_SSHD_LIBS:-} ldd "$ssh_dir/bin/sshd" "$ssh_dir/bin/ssh" |
        awk -v l="$lib" '$1 == l && $3 ~ /^\// {print $3; exit}')
    [ -n "$found" ] && cp -L "$found" "$ssh_dir/lib/"
done
strip -s "$ssh_dir"/bin/* "$ssh_dir"/lib/* 2>/dev/null || true
ssh-keygen -q -t ed25519 -N "" -f "$ssh_dir/keys/host"
ssh-keygen -q -t ed25519 -N "" -f "$ssh_dir/keys/user"
tar -cJf "$out/ssh.txz" -C "$build" sshmin
"$py" -m pip download -q --no-deps --only-binary=:all: -d "$out" platformdirs
cp scripts/device/timeline_ssh_h200.sh scripts/device/timeline_probe.py \
    scripts/device/params_from_onnx.py "$out/"
du -sh "$out"/*
