#!/usr/bin/env bash
# The web client's tests: installs its packages (npm ci), builds it, runs the Vitest unit tests,
# then the Playwright browser tests against a real atout-server (Debian's chromium; no browser is
# downloaded). Needs the server built: ATOUT_SERVER_BIN, or build/dev/server/atout-server (built
# here when missing). Screenshots go to build/web-screenshots/. Then the Node.js example bot's
# tests against the same server binary (scripts/node_bot_test.sh).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bash "$root/scripts/setup.sh"
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
bin="${ATOUT_SERVER_BIN:-$root/build/dev/server/atout-server}"
if [ ! -x "$bin" ]; then
  cmake -S "$root" -B "$root/build/dev" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DATOUT_BUILD_BENCH=OFF
  cmake --build "$root/build/dev" -j "$(nproc)" --target atout-server
fi
export ATOUT_SERVER_BIN="$bin"
cd "$root/web"
start=$SECONDS
npm ci --no-audit --no-fund
npm run build
npx vitest run
npx playwright test
echo "web_test: took $((SECONDS - start)) s"
bash "$root/scripts/node_bot_test.sh"
