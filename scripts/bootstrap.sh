# Sourced by start.sh and test.sh: make the virtual environment (outside the clone, in the
# user's cache folder, so TVM is downloaded once per machine) and install kernelscope into it.
set -euo pipefail

KS_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

ks_say() { printf 'kernelscope setup: %s\n' "$*" >&2; }

ks_venv_clone() {
    # The clone whose code the virtual environment $1 runs (the folder of its editable
    # install of kernelscope), or nothing when it has none.
    python3 - "$1" <<'PY'
import glob, json, sys, urllib.parse
pattern = "/lib/python3*/site-packages/kernelscope-*.dist-info/direct_url.json"
for found in glob.glob(sys.argv[1] + pattern):
    with open(found, encoding="utf-8") as f:
        url = json.load(f).get("url", "")
    if url.startswith("file://"):
        print(urllib.parse.unquote(url[len("file://"):]))
        break
PY
}

ks_venv_path() {
    # The virtual environment of this clone. Its editable install runs one clone's code, so
    # a second clone must not take over the first one's: the usual one belongs to the clone
    # it was made for (or, when that clone is gone, to whichever comes next), and any other
    # clone gets venv-HASH beside it, HASH of the clone's path. $KERNELSCOPE_VENV names one.
    if [ -n "${KERNELSCOPE_VENV:-}" ]; then
        printf '%s\n' "$KERNELSCOPE_VENV"
        return 0
    fi
    local cache="${XDG_CACHE_HOME:-$HOME/.cache}/kernelscope" owner
    owner="$(ks_venv_clone "$cache/venv" 2>/dev/null)" || owner=""  # (no python3: said later)
    if [ -z "$owner" ] || [ "$owner" = "$KS_ROOT" ] || [ ! -f "$owner/pyproject.toml" ]; then
        printf '%s\n' "$cache/venv"
        return 0
    fi
    local own
    own="$cache/venv-$(printf '%s' "$KS_ROOT" | sha256sum | cut -c1-8)"
    if [ ! -e "$own" ]; then
        ks_say "another clone, $owner, uses $cache/venv; this clone gets its own, $own"
        ks_say "(set KERNELSCOPE_VENV to choose one)"
    fi
    printf '%s\n' "$own"
}

KS_VENV="$(ks_venv_path)"

ks_apt_install() {
    # Install Debian packages when this user may (root, or sudo without a password); else
    # name them, exactly, and go on: the rest of the setup does not need them.
    [ $# -eq 0 ] && return 0
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo -n"
    if command -v apt-get >/dev/null && $sudo true 2>/dev/null; then
        ks_say "installing system packages: $*"
        $sudo apt-get update -qq >/dev/null
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >/dev/null ||
            ks_say "apt-get could not install: $* (install them by hand)"
    else
        ks_say "please install these Debian/Ubuntu packages: $*"
        ks_say "  sudo apt-get install $*"
    fi
}

ks_system_packages() {
    # What pip cannot bring and the virtual environment needs first: venv support, and a C++
    # compiler (TVM's export_library links the model library).
    local missing=()
    command -v g++ >/dev/null || missing+=(g++)
    python3 -c 'import ensurepip' 2>/dev/null || missing+=(python3-venv)
    ks_apt_install ${missing[@]+"${missing[@]}"}
}

ks_window_packages() {
    # The system libraries Qt's X11 and Wayland platform plugins link, read from the plugins
    # of the PySide6 just installed (kernelscope.core.environment.qt_runtime).
    local debs
    debs="$("$KS_VENV/bin/kernelscope" doctor --missing-packages)" || {
        ks_say "could not check the libraries Qt needs (kernelscope doctor failed)"
        return 0
    }
    # shellcheck disable=SC2086 # one word per package
    ks_apt_install $debs
}

ks_venv() {
    python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' || {
        ks_say "Python 3.11 or newer is needed (python3 is $(python3 --version 2>&1))"
        exit 1
    }
    ks_system_packages
    if [ ! -x "$KS_VENV/bin/python" ]; then
        ks_say "creating $KS_VENV"
        python3 -m venv "$KS_VENV"
    fi
    # Reinstall only when pyproject.toml or the clone's location changed.
    local stamp
    stamp="$(cat "$KS_ROOT/pyproject.toml" - <<<"$KS_ROOT" | sha256sum | cut -c1-16)"
    if [ "$(cat "$KS_VENV/.kernelscope-stamp" 2>/dev/null)" != "$stamp" ]; then
        ks_say "installing kernelscope and its dependencies (TVM, Qt, the CUDA compiler wheels)"
        "$KS_VENV/bin/python" -m pip install -q --upgrade pip
        "$KS_VENV/bin/python" -m pip install -q -e "$KS_ROOT[dev]"
        echo "$stamp" >"$KS_VENV/.kernelscope-stamp"
    fi
    ks_window_packages
}

ks_test_tools() {
    # The tests check the desktop files with the freedesktop validators, open a real X11
    # window under Xvfb and render the shared web page in headless Chromium; each test skips
    # where its tool is missing.
    local tools=() tool
    for tool in Xvfb:xvfb desktop-file-validate:desktop-file-utils appstreamcli:appstream \
                update-mime-database:shared-mime-info chromium:chromium; do
        command -v "${tool%%:*}" >/dev/null || tools+=("${tool#*:}")
    done
    ks_apt_install ${tools[@]+"${tools[@]}"}
    ks_test_sshd
}

ks_test_sshd() {
    # The remote-profiling tests run a private OpenSSH server on 127.0.0.1. Without one
    # installed, unpack Debian's server package into the cache (not installed: no service
    # starts) and tell the tests where it is.
    if command -v sshd >/dev/null || [ -x /usr/sbin/sshd ]; then
        return 0
    fi
    local dir="${XDG_CACHE_HOME:-$HOME/.cache}/kernelscope/tools/openssh"
    if [ ! -x "$dir/unpacked/usr/sbin/sshd" ] && command -v apt-get >/dev/null; then
        ks_say "unpacking an OpenSSH server for the remote-profiling tests into $dir"
        mkdir -p "$dir" && (
            cd "$dir" &&
                { apt-get download openssh-server openssh-sftp-server libwrap0 >/dev/null 2>&1 ||
                    { apt-get update -qq >/dev/null 2>&1 &&
                        apt-get download openssh-server openssh-sftp-server libwrap0 >/dev/null 2>&1; }; } &&
                for deb in ./*.deb; do dpkg -x "$deb" unpacked; done
        ) || ks_say "could not unpack an OpenSSH server; the SSH tests will be skipped"
    fi
    if [ "$(id -u)" -eq 0 ] && ! id sshd >/dev/null 2>&1; then
        # sshd started as root drops privileges to this user (the server package makes it).
        useradd --system --no-create-home --home-dir /run/sshd --shell /usr/sbin/nologin sshd
    fi
    if [ -x "$dir/unpacked/usr/sbin/sshd" ]; then
        export KERNELSCOPE_TEST_SSHD="$dir/unpacked/usr/sbin/sshd"
        export KERNELSCOPE_TEST_SSHD_LIBS="$dir/unpacked/lib/x86_64-linux-gnu:$dir/unpacked/usr/lib/x86_64-linux-gnu"
    fi
}
