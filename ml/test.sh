#!/usr/bin/env bash
# Fast tests of the ML pipeline (called by the root test command). Installs the Debian
# packages first when they are missing, then runs ml/tests with /usr/bin/python3 -m unittest.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bash "$HERE/setup.sh"
cd "$HERE"
export OMP_NUM_THREADS="${OMP_NUM_THREADS:-2}"
export OMP_WAIT_POLICY="${OMP_WAIT_POLICY:-PASSIVE}"
exec /usr/bin/python3 -m unittest discover -s tests -t . -v "$@"
