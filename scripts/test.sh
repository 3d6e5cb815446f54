#!/usr/bin/env bash
# `npm test`: installs what is missing, builds, and runs every test suite.
# Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)
# each heading says how long the run has taken so far, so a slow phase shows in the log
say() { printf '\n\033[1;32m== %s (at %d s) ==\033[0m\n' "$*" "$(( $(date +%s) - started ))"; }

apt_install() {
  # Debian packages the tests need, installed as root when missing.
  if [ "$(id -u)" != 0 ]; then
    echo "missing Debian packages ($*) and not root: install them with apt-get" >&2
    exit 1
  fi
  apt-get -o DPkg::Lock::Timeout=600 update -qq
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "$@"
}

say "system packages"
need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
command -v pdftoppm >/dev/null || need+=(poppler-utils)
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || need+=(fonts-dejavu-core)
# the scale-out test (bench/scale-out/run.ts --short): a load balancer and a load generator
command -v haproxy >/dev/null || need+=(haproxy)
command -v wrk >/dev/null || need+=(wrk)
if [ ${#need[@]} -gt 0 ]; then apt_install "${need[@]}"; else echo "chromium, poppler-utils, fonts-dejavu-core, haproxy and wrk present"; fi

say "npm packages and build"
node scripts/build.mjs

say "lint and types"
npx eslint .
npx prettier --check . >/dev/null || { npx prettier --check .; exit 1; }
npm run -s typecheck

if [ -f ml/test.sh ]; then
  say "model pipeline (Python)"
  bash ml/test.sh
fi

say "unit and API tests (SQLite and PostgreSQL)"
npx vitest run

say "end-to-end tests (Debian Chromium)"
npx playwright test -c e2e/playwright.config.ts

say "all test suites passed"
