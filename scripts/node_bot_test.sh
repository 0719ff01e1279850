#!/usr/bin/env bash
# The Node.js example bot's tests: installs its one package (npm ci in examples/node-bot), then
# has bot.mjs play a complete match of every variant against a real atout-server's bots, a duel
# between two bot processes and a french table of four (examples/node-bot/test/match.test.mjs).
# Needs Node.js 18 or newer and the server built: ATOUT_SERVER_BIN, or
# build/dev/server/atout-server.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bin="${ATOUT_SERVER_BIN:-$root/build/dev/server/atout-server}"
if [ ! -x "$bin" ]; then
  echo "node_bot_test: no server binary at $bin (build atout-server or set ATOUT_SERVER_BIN)" >&2
  exit 1
fi
export ATOUT_SERVER_BIN="$bin"
cd "$root/examples/node-bot"
start=$SECONDS
npm ci --no-audit --no-fund
npm test
echo "node_bot_test: took $((SECONDS - start)) s"
