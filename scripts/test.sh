#!/usr/bin/env bash
# Set up if needed, then run the whole test suite headless (and the linter and type checker).
source "$(dirname "$0")/bootstrap.sh"
ks_venv
ks_test_tools
cd "$KS_ROOT"
export QT_QPA_PLATFORM=offscreen
"$KS_VENV/bin/python" -m pytest -q "$@"
"$KS_VENV/bin/ruff" check --quiet .
"$KS_VENV/bin/python" -m mypy
