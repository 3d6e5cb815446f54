#!/usr/bin/env bash
# Installs Debian's PyTorch stack for the ML pipeline when it is missing (needs root; ~3 minutes).
set -euo pipefail
PY=/usr/bin/python3
if "$PY" -c 'import torch, torchvision, onnx, PIL, numpy' >/dev/null 2>&1 && [ -e /usr/lib/x86_64-linux-gnu/openblas-pthread ] ; then
  exit 0
fi
echo "ml/setup.sh: installing python3-torch python3-torchvision python3-onnx python3-pil python3-numpy libopenblas0-pthread" >&2
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends \
  python3-torch python3-torchvision python3-onnx python3-pil python3-numpy libopenblas0-pthread
