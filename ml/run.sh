#!/usr/bin/env bash
# Entry point of the ML pipeline (root npm scripts "train" and "ml:evaluate" call it).
#   bash ml/run.sh train --arch mobilenet|resnet50|vgg16 [--epochs N] [--resume]
#   bash ml/run.sh finish --arch mobilenet        # calibrate + export + card from the last checkpoint
#   bash ml/run.sh finish --from-onnx F.onnx      # the same from an earlier export's network
#   bash ml/run.sh evaluate --model models/mobilenet.onnx [--update-card]
# Uses Debian's /usr/bin/python3 (python3-torch 1.13), not another python3 on PATH.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(dirname "$HERE")"
bash "$HERE/setup.sh"
cd "$ROOT"
export PYTHONPATH="$HERE${PYTHONPATH:+:$PYTHONPATH}"
export OMP_NUM_THREADS="${OMP_NUM_THREADS:-2}"
# threads sleep instead of spinning while waiting: much faster when the cores are oversubscribed
export OMP_WAIT_POLICY="${OMP_WAIT_POLICY:-PASSIVE}"
exec /usr/bin/python3 -u -m diagrodl_ml.cli "$@"
