#!/usr/bin/env bash
# Install everything the tests need on a fresh machine, then lint, type-check and test.
# Each stage prints a heading; a PostgreSQL cluster this run started is stopped when it ends
# (passed, failed or interrupted); one that was already running is left running.
set -euo pipefail
cd "$(dirname "$0")/.."
SUDO=""
[ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && SUDO="sudo"

STAGES=6
stage() {  # stage N what...: a heading in the log, so a failure is easy to place
  printf '\n==> [%s/%s] %s\n' "$1" "$STAGES" "${*:2}"
}

PG_STARTED=""  # "VERSION CLUSTER" of the cluster this run started, if it started one
REDIS_STARTED=""  # the port of the Redis server this run started, if it started one
cleanup() {
  local rc=$?
  if [ -n "$REDIS_STARTED" ]; then
    printf '\n==> stopping the Redis server this run started (port %s)\n' "$REDIS_STARTED"
    redis-cli -p "$REDIS_STARTED" shutdown nosave >/dev/null 2>&1 || true
  fi
  if [ -n "$PG_STARTED" ]; then
    printf '\n==> stopping the PostgreSQL cluster this run started (%s)\n' "$PG_STARTED"
    # shellcheck disable=SC2086  # PG_STARTED is two words: the version and the cluster
    $SUDO pg_ctlcluster $PG_STARTED stop || true
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT  # a signal ends the run through the EXIT trap, so the cluster still stops
trap 'exit 143' TERM

stage 1 "services: Chromium (browser tests), PostgreSQL (storage tests), Redis (nodes)"
if ! command -v chromium >/dev/null 2>&1; then
  $SUDO apt-get update -qq && $SUDO apt-get install -y -qq chromium >/dev/null
fi
# a PostgreSQL server for tests/server/test_postgres.py, unless TAPETE_TEST_POSTGRES names one:
# Debian's cluster started by pg_ctlcluster (which runs postgres as its owner, never as root),
# a role and a database; each step is skipped when already done
if [ -z "${TAPETE_TEST_POSTGRES:-}" ]; then
  if ! command -v pg_ctlcluster >/dev/null 2>&1; then
    $SUDO apt-get update -qq && $SUDO apt-get install -y -qq postgresql >/dev/null
  fi
  if [ -z "$(pg_lsclusters -h)" ]; then
    $SUDO pg_createcluster "$(ls /usr/lib/postgresql | sort -n | tail -1)" main >/dev/null
  fi
  read -r PG_VERSION PG_CLUSTER PG_PORT PG_STATUS _ <<<"$(pg_lsclusters -h | head -1)"
  if [ "$PG_STATUS" != online ]; then
    PG_STARTED="$PG_VERSION $PG_CLUSTER"  # set first: a start that fails half-way is stopped
    $SUDO pg_ctlcluster "$PG_VERSION" "$PG_CLUSTER" start
    echo "PostgreSQL $PG_VERSION/$PG_CLUSTER started on port $PG_PORT (stopped at the end)"
  else
    echo "PostgreSQL $PG_VERSION/$PG_CLUSTER already running on port $PG_PORT (left running)"
  fi
  AS_POSTGRES="runuser -u postgres --"
  [ "$(id -u)" -ne 0 ] && AS_POSTGRES="sudo -u postgres"
  (cd / && $AS_POSTGRES psql -q -p "$PG_PORT" -v ON_ERROR_STOP=1 >/dev/null) <<'SQL'
SELECT 'CREATE ROLE tapete LOGIN PASSWORD ''tapete'''
  WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'tapete') \gexec
SELECT 'CREATE DATABASE tapete_test OWNER tapete'
  WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = 'tapete_test') \gexec
SQL
  export TAPETE_TEST_POSTGRES="postgresql+psycopg://tapete:tapete@127.0.0.1:$PG_PORT/tapete_test"
else
  echo "PostgreSQL: the server TAPETE_TEST_POSTGRES names"
fi
# a Redis server for the room on several nodes (tests/server/test_nodes_chaos.py), unless
# TAPETE_TEST_REDIS names one: Debian's redis-server, started on localhost with nothing kept
# on disk (and stopped at the end) unless one already answers there
if [ -z "${TAPETE_TEST_REDIS:-}" ]; then
  if ! command -v redis-server >/dev/null 2>&1; then
    $SUDO apt-get update -qq && $SUDO apt-get install -y -qq redis-server >/dev/null
  fi
  REDIS_PORT="${TAPETE_REDIS_PORT:-6379}"
  if redis-cli -p "$REDIS_PORT" ping >/dev/null 2>&1; then
    echo "Redis already running on port $REDIS_PORT (left running)"
  else
    REDIS_STARTED="$REDIS_PORT"
    redis-server --daemonize yes --bind 127.0.0.1 --port "$REDIS_PORT" --save "" \
      --appendonly no --dir /tmp --logfile "" >/dev/null
    for _ in $(seq 50); do redis-cli -p "$REDIS_PORT" ping >/dev/null 2>&1 && break; sleep 0.1; done
    echo "Redis started on port $REDIS_PORT (stopped at the end)"
  fi
  export TAPETE_TEST_REDIS="redis://127.0.0.1:$REDIS_PORT/15"
else
  echo "Redis: the server TAPETE_TEST_REDIS names"
fi

# the tests run in a virtual environment of their own (.venv-test), never over the user's
# install; the install compiles the rules engine with mypyc where a C compiler is (setup.py)
VENV="${TAPETE_TEST_VENV:-.venv-test}"
case "$VENV" in /*) ;; *) VENV="$PWD/$VENV" ;; esac
if [ -n "${TAPETE_PURE:-}" ]; then
  stage 2 "install into $VENV (TAPETE_PURE: the engine stays pure Python)"
else
  stage 2 "install into $VENV (compiles the engine with mypyc, about a minute;" \
    "TAPETE_PURE=1 skips it)"
fi
if [ ! -x "$VENV/bin/python" ]; then
  # Debian's python3 makes virtual environments only with its python3-venv package
  if ! python3 -c "import ensurepip, venv" >/dev/null 2>&1; then
    $SUDO apt-get update -qq && $SUDO apt-get install -y -qq python3-venv >/dev/null
  fi
  python3 -m venv "$VENV"
fi
export PATH="$VENV/bin:$PATH"
export VIRTUAL_ENV="$VENV"
python -m pip install -q --disable-pip-version-check -e '.[test]'
if [ -z "${TAPETE_PURE:-}" ] && command -v cc >/dev/null 2>&1 && python -c "import os, sysconfig
raise SystemExit(not os.path.exists(sysconfig.get_paths()['include'] + '/Python.h'))"; then
  export TAPETE_EXPECT_COMPILED=1  # tests/test_build.py fails if the build fell back
fi
python -c "import tapete; print('engine:', tapete.build_kind())"

stage 3 "lint (ruff)"
ruff check src tests benchmarks setup.py

stage 4 "types (mypy --strict)"
mypy

# the tests run in parallel, one worker a core (TAPETE_TEST_WORKERS sets how many; 0: none),
# each test file on one worker in its order (pytest-xdist's loadfile): much of the time is
# waiting on servers, browsers and timers
WORKERS=(-n "${TAPETE_TEST_WORKERS:-auto}" --dist loadfile)

stage 5 "tests (pytest)"
python -m pytest -q "${WORKERS[@]}"

stage 6 "the engine's tests on the pure-Python sources (what a machine without a compiler runs)"
TAPETE_PURE=1 python -m pytest -q -p no:cacheprovider "${WORKERS[@]}" tests/core \
  --ignore=tests/core/test_differential_pokerkit.py tests/history/test_phh.py \
  tests/history/test_phh_dataset.py tests/history/test_replay.py tests/history/test_replay_engine.py \
  tests/history/test_pokerstars.py tests/history/test_straddle.py tests/server/test_timeline.py
