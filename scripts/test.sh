#!/usr/bin/env bash
# Install everything the tests need on a fresh machine, then lint, type-check and test.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v chromium >/dev/null 2>&1; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && SUDO="sudo"
  $SUDO apt-get update -qq && $SUDO apt-get install -y -qq chromium >/dev/null
fi
# the install compiles the rules engine with mypyc where a C compiler is (setup.py)
python -m pip install -q --disable-pip-version-check -e '.[test]'
if [ -z "${TAPETE_PURE:-}" ] && command -v cc >/dev/null 2>&1 && python -c "import os, sysconfig
raise SystemExit(not os.path.exists(sysconfig.get_paths()['include'] + '/Python.h'))"; then
  export TAPETE_EXPECT_COMPILED=1  # tests/test_build.py fails if the build fell back
fi
python -c "import tapete; print('engine:', tapete.build_kind())"
ruff check src tests benchmarks setup.py
mypy
python -m pytest -q
# the engine's own tests once more on the Python sources: what a machine without a compiler runs
TAPETE_PURE=1 python -m pytest -q -p no:cacheprovider tests/test_rules_vectors.py \
  tests/test_properties.py tests/test_table.py tests/test_phh.py tests/test_phh_dataset.py \
  tests/test_replay.py tests/test_replay_engine.py tests/test_pokerstars.py
