"""Where the tests' own files are, for test modules at any depth under tests/ (they sit in one
folder per feature): the repository, tests/ (on ``sys.path``, see conftest.py) and tests/data."""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
DATA = TESTS / "data"
# A report Nsight Compute made of small_cnn on an H200.
H200_REPORT = DATA / "h200" / "small_cnn_h200.ncu-rep"
# A MetaSchedule database written by stock TVM's tune_relax (data/tuning/make_stock_db.py).
STOCK_DB = DATA / "tuning" / "stock_tiny_mlp"
# A MetaSchedule database for small_cnn whose one record is the conv kernel's default schedule
# (data/tuning/make_dlight_db.py): a build with it compiles the code H200_REPORT profiled.
DLIGHT_DB = DATA / "tuning" / "dlight_small_cnn"
