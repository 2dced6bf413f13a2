#!/usr/bin/env bash
# Set up if needed, then run the whole test suite headless (and the linter and type checker).
source "$(dirname "$0")/bootstrap.sh"
ks_venv
ks_test_tools
cd "$KS_ROOT"
export QT_QPA_PLATFORM=offscreen
# Two workers (pytest-xdist), each taking whole files so that a file's module fixtures (its
# TVM builds) are made once; the 25 slowest tests are listed at the end. `-n 0` runs serially.
"$KS_VENV/bin/python" -m pytest -q -n 2 --dist loadfile --durations=25 "$@"
"$KS_VENV/bin/ruff" check --quiet .
"$KS_VENV/bin/python" -m mypy
