#!/usr/bin/env bash
# Installs every build, test and run dependency of Atout from Debian packages. Idempotent.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"

packages=(
  build-essential cmake ninja-build pkg-config git ca-certificates
  libboost1.81-dev nlohmann-json3-dev libspdlog-dev libsqlite3-dev
  libcli11-dev prometheus-cpp-dev libssl-dev libpqxx-dev libhiredis-dev
  postgresql-15 redis-server haproxy
  googletest libgtest-dev libgmock-dev libbenchmark-dev
  python3 python3-jsonschema python3-websockets python3-prometheus-client
  clang-format
  clang libclang-rt-14-dev
  chromium fonts-dejavu-core
)
# What the binaries need at run time: the same list the container image installs, so the two
# cannot drift apart.
while read -r p; do
  packages+=("$p")
done < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$root/docker/runtime-packages.txt")
# The web client's Node.js and npm: Debian's, unless a Node.js with its own npm is already there
# (NodeSource's, say, which bundles npm and conflicts with Debian's package of it).
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then packages+=(nodejs npm); fi
# Node's headers, for bench/peers/colyseus's addon (-DATOUT_NODE_ADDON=ON): Debian keeps them in
# libnode-dev; NodeSource's nodejs ships them itself.
if [ ! -f /usr/include/node/node_api.h ]; then packages+=(libnode-dev); fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages already installed"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
