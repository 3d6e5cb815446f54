#!/usr/bin/env bash
# CPU time of each kind of training view (ml/diagrodl_ml/viewbench.py), on one core: prints ms a view and the CPU
# seconds one epoch of the default recipe costs. Needs ../shared/data (the decode cache is built on first use).
#   bash bench/training-views/run.sh [--views N]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
OMP_NUM_THREADS=1 exec bash ml/run.sh bench-views "$@"
