#!/usr/bin/env bash
# Install everything the tests need on a fresh machine, then lint, type-check and test.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v chromium >/dev/null 2>&1; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && SUDO="sudo"
  $SUDO apt-get update -qq && $SUDO apt-get install -y -qq chromium >/dev/null
fi
python -m pip install -q --disable-pip-version-check -e '.[test]'
ruff check src tests benchmarks
mypy
python -m pytest -q
