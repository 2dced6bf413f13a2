# Sourced by the scripts that run on the GPU host from a staged folder (stage.sh copies it
# there): unpack_staged HERE W unpacks HERE's runtime-only TVM bundle into W/rt (where
# kernelscope looks for a runtime of that TVM and Python) and its workspaces into W/ws, and
# points Python at HERE's kernelscope core and platformdirs.
unpack_staged() {
    local here=$1 w=$2 marker tvm_version tag
    mkdir -p "$w/rt" "$w/ws"
    marker=$(tar -xzOf "$here/runtime.tar.gz" kernelscope-runtime.json)
    tvm_version=$(echo "$marker" | python3 -c 'import json, sys; print(json.load(sys.stdin)["tvm"])')
    tag=$(echo "$marker" | python3 -c 'import json, sys; print(json.load(sys.stdin)["python"])' | tr -d .)
    mkdir -p "$w/rt/tvm-$tvm_version-cp$tag" &&
        tar -xzf "$here/runtime.tar.gz" -C "$w/rt/tvm-$tvm_version-cp$tag" &&
        tar -xzf "$here/ws.tgz" -C "$w/ws" || return 1
    export PYTHONPATH="$here/pkg:$here/py" KERNELSCOPE_RUNTIME_ROOT="$w/rt" PYTHONUNBUFFERED=1
    unset TVM_USE_RUNTIME_LIB
}
