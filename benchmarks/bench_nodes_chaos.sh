#!/usr/bin/env bash
# The nodes' chaos test at full size (tests/server/test_nodes_chaos.py): three nodes, 30 tables
# of six scripted players, kill -9 at ten random moments, a zombie, a drain; the default 6 s
# lease. Needs TAPETE_TEST_POSTGRES and a Redis (TAPETE_TEST_REDIS, default localhost:6379/15),
# as scripts/test.sh sets up, and the test environment (.venv-test/bin first in PATH). The
# report (recovery median and max, reconnects, ...) is printed.
set -euo pipefail
cd "$(dirname "$0")/.."
export TAPETE_NODES_TABLES="${TAPETE_NODES_TABLES:-30}"
export TAPETE_NODES_KILLS="${TAPETE_NODES_KILLS:-10}"
export TAPETE_NODES_LEASE="${TAPETE_NODES_LEASE:-6}"
# the players' longest think, seconds: 0.02 plays as fast as the nodes go (two cores saturated);
# TAPETE_NODES_PACE=1 is about the room benchmark's pace, an action a second or two a table
export TAPETE_NODES_PACE="${TAPETE_NODES_PACE:-0.02}"
export TAPETE_NODES_CHECK_RECOVERY=1  # the target: every table acting again within 10 s
export PYTHONPATH="$PWD/src${PYTHONPATH:+:$PYTHONPATH}"
exec python -m pytest -q -s -p no:cacheprovider tests/server/test_nodes_chaos.py "$@"
