#!/usr/bin/env bash
# Builds the operators' image (docker/Dockerfile) and tries it, with no Docker engine and no image
# registry: Debian's podman builds it with chroot isolation from a Debian 12 base that debootstrap
# makes from the Debian mirror, and the image's filesystem is run by chroot (containers need not
# start). Run as root from anywhere in a checkout:
#
#   bash docker/check.sh
#
# It installs podman and debootstrap when missing, makes the base images once (kept in podman's
# storage as debian:12 and debian:12-slim), builds the image as atout:check, then:
#   - checks the image's configuration: a user that is not root, STOPSIGNAL SIGTERM, a
#     HEALTHCHECK, the OCI labels, ATOUT_* settings in its environment;
#   - checks its filesystem: no compiler, no headers (/usr/include), no test framework (gtest,
#     gmock, benchmark), no database baked into /data, and /data writable by the image's user;
#   - runs atout-server from it, as that user, on its /data; runs the image's health check
#     against it; checks that it serves the web client; checks that it logs JSON lines; plays a
#     duel match with two Python bots (examples/python-bot); stops the server with SIGTERM and
#     checks that it drained and exited 0;
#   - starts it again on the same /data, finds the match in the players' histories (/api) and its
#     replay, checks the replay with `atout replay`, and takes a backup with `atout backup`;
#   - prints the image's size, the build's seconds and its own.
#
# Environment: ATOUT_IMAGE_JOBS (compile jobs in the build, default 1: the build machine is
# shared), ATOUT_IMAGE_TAG (default localhost/atout:check), ATOUT_DEBIAN_MIRROR (default
# http://deb.debian.org/debian).
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
tag="${ATOUT_IMAGE_TAG:-localhost/atout:check}"
jobs="${ATOUT_IMAGE_JOBS:-1}"
mirror="${ATOUT_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
started=$SECONDS

say() { echo "== check: $*"; }
fail() {
  echo "== check: FAILED: $*" >&2
  exit 1
}

[ "$(id -u)" -eq 0 ] || fail "run as root (podman's storage, chroot and mounts need it)"

# ---- tools -------------------------------------------------------------------------------------
need=()
command -v podman >/dev/null || need+=(podman)
command -v debootstrap >/dev/null || need+=(debootstrap)
[ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import websockets' 2>/dev/null || need+=(python3 python3-websockets)
if [ ${#need[@]} -gt 0 ]; then
  say "installing ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q --no-install-recommends "${need[@]}"
fi

# ---- base images -------------------------------------------------------------------------------
# debian:12 (build stage) and debian:12-slim (runtime stage) are made the way Debian's official
# images are: a minbase debootstrap of bookworm; the slim one also drops documentation, manual
# pages and translations, and tells dpkg to leave them out of every package installed later.
make_bases() {
  local dir
  dir="$(mktemp -d /var/tmp/atout-base.XXXXXX)"
  say "making the Debian 12 base images with debootstrap (a few minutes, once)"
  debootstrap --variant=minbase bookworm "$dir/root" "$mirror" >"$dir/debootstrap.log" 2>&1 ||
    {
      tail -n 20 "$dir/debootstrap.log" >&2
      fail "debootstrap failed (log in $dir)"
    }
  cat >"$dir/root/etc/apt/sources.list" <<EOF
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb ${mirror%/debian}/debian-security bookworm-security main
EOF
  chroot "$dir/root" apt-get clean
  rm -rf "$dir/root/var/lib/apt/lists/"* "$dir/root/var/log/"*.log "$dir/root/var/cache/debconf/"*-old
  tar --numeric-owner -C "$dir/root" -c . |
    podman import --change 'CMD ["bash"]' - docker.io/library/debian:12 >/dev/null

  mkdir -p "$dir/root/etc/dpkg/dpkg.cfg.d"
  cat >"$dir/root/etc/dpkg/dpkg.cfg.d/docker-slim" <<'EOF'
# As in Debian's slim images: no documentation, manual pages or translations.
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/groff/*
path-exclude /usr/share/info/*
path-exclude /usr/share/lintian/*
path-exclude /usr/share/linda/*
path-exclude /usr/share/locale/*
EOF
  find "$dir/root/usr/share/doc" -mindepth 1 -not -name copyright -not -type d -delete
  find "$dir/root/usr/share/doc" -mindepth 1 -type d -empty -delete
  rm -rf "$dir/root/usr/share/"{man,groff,info,lintian,linda,locale}/*
  tar --numeric-owner -C "$dir/root" -c . |
    podman import --change 'CMD ["bash"]' - docker.io/library/debian:12-slim >/dev/null
  rm -rf "$dir"
}
if ! podman image exists docker.io/library/debian:12 || ! podman image exists docker.io/library/debian:12-slim; then
  make_bases
fi

# ---- build -------------------------------------------------------------------------------------
revision="$(git -C "$root" rev-parse HEAD 2>/dev/null || echo unknown)"
say "building $tag from $root (${jobs} compile job(s))"
build_start=$SECONDS
iidfile="$(mktemp /tmp/atout-check-iid.XXXXXX)"
# A host behind an HTTPS-inspecting proxy (NODE_EXTRA_CA_CERTS set) lends its CA bundle to the web
# client's npm install, read-only, for the build only.
ca=()
if [ -n "${NODE_EXTRA_CA_CERTS:-}" ] && [ -f "$NODE_EXTRA_CA_CERTS" ]; then
  ca=(--volume "$NODE_EXTRA_CA_CERTS:/run/atout-build-ca.crt:ro" --build-arg NODE_EXTRA_CA_CERTS=/run/atout-build-ca.crt)
fi
podman build --isolation chroot --format docker --pull=never --layers --iidfile "$iidfile" "${ca[@]}" \
  --build-arg ATOUT_BUILD_JOBS="$jobs" --build-arg ATOUT_REVISION="$revision" \
  -f "$root/docker/Dockerfile" -t "$tag" "$root"
build_seconds=$((SECONDS - build_start))
# Everything below looks at the image this build made, never at an older one under the same tag.
image="$(cat "$iidfile")"
rm -f "$iidfile"
[ -n "$image" ] || fail "podman build made no image"
[ "$(podman image inspect --format '{{.Id}}' "$tag")" = "${image#sha256:}" ] ||
  fail "$tag is not the image just built ($image)"

# ---- the image's configuration -----------------------------------------------------------------
ctr=""
mnt=""
server_pid=""
mounted=()
cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then kill -KILL "$server_pid" || true; fi
  local m
  for m in "${mounted[@]}"; do umount -l "$m" 2>/dev/null || true; done
  if [ -n "$ctr" ]; then
    podman umount "$ctr" >/dev/null 2>&1 || true
    podman rm -f "$ctr" >/dev/null 2>&1 || true
  fi
  [ -z "${work:-}" ] || rm -rf "$work"
}
trap cleanup EXIT
work="$(mktemp -d /tmp/atout-check.XXXXXX)"
podman image inspect "$tag" >"$work/inspect.json"
# One value of the image's configuration (podman's inspect JSON), each item of a list on a line.
# The health check is at the top level: podman keeps it beside the OCI configuration.
inspect() {
  /usr/bin/python3 - "$work/inspect.json" "$1" <<'EOF'
import json, sys
value = json.load(open(sys.argv[1]))[0]
path = sys.argv[2]
if path.startswith("Labels."):
    value = (value.get("Labels") or {}).get(path[len("Labels."):])
else:
    for key in path.split("."):
        value = value.get(key) if isinstance(value, dict) else None
for item in value if isinstance(value, list) else [] if value is None else [value]:
    print(item)
EOF
}
user="$(inspect Config.User)"
case "$user" in
  "" | root | 0 | 0:* | root:*) fail "the image runs as root (User: '$user')" ;;
esac
[ "$(inspect Config.StopSignal)" = SIGTERM ] || fail "STOPSIGNAL is not SIGTERM"
health="$(inspect Healthcheck.Test)"
[ "${health%%$'\n'*}" = CMD ] || fail "the image has no HEALTHCHECK in exec form"
for label in source version licenses revision; do
  [ -n "$(inspect "Labels.org.opencontainers.image.$label")" ] ||
    fail "label org.opencontainers.image.$label is missing"
done
grep -q '^ATOUT_DB=/data/' <<<"$(inspect Config.Env)" || fail "ATOUT_DB does not point into /data"
say "image config: user $user, stop signal SIGTERM, health check, OCI labels, ATOUT_* environment: ok"

# ---- the image's filesystem --------------------------------------------------------------------

ctr="$(podman create "$tag")"
mnt="$(podman mount "$ctr")"

bad=()
for tool in gcc g++ cc c++ cpp clang clang++ ld as make cmake ninja node npm chromium; do
  for d in usr/bin usr/local/bin; do
    if [ -e "$mnt/$d/$tool" ]; then bad+=("/$d/$tool"); fi
  done
done
for d in usr/include usr/local/include; do
  if [ -d "$mnt/$d" ] && [ -n "$(ls -A "$mnt/$d")" ]; then bad+=("/$d (headers)"); fi
done
while IFS= read -r f; do bad+=("${f#"$mnt"}"); done < <(
  find "$mnt/usr" "$mnt/opt" \( -name 'libgtest*' -o -name 'libgmock*' -o -name 'libbenchmark*' \
    -o -name 'gtest' -o -name 'gmock' -o -name 'benchmark' \) -print 2>/dev/null)
while IFS= read -r p; do bad+=("package $p"); done < <(
  chroot "$mnt" dpkg-query -W -f '${db:Status-Abbrev} ${Package}\n' |
    awk '$1 == "ii" {print $2}' |
    grep -E -- '(-dev$|^gcc|^g\+\+|^cpp|^clang|^binutils|^googletest|^libgtest|^libgmock|^libbenchmark|^cmake|^ninja|^nodejs|^npm|^chromium)' |
    grep -v -- '^gcc-[0-9]*-base$' || true)
if [ ${#bad[@]} -gt 0 ]; then
  printf '   %s\n' "${bad[@]}" >&2
  fail "the image holds build or test tools (listed above)"
fi
say "image filesystem: no compiler, no headers, no test framework, no Node.js or browser: ok"

[ -z "$(ls -A "$mnt/data")" ] || fail "the image's /data is not empty: $(ls -A "$mnt/data")"
uid="$(chroot "$mnt" id -u "$user")"
gid="$(chroot "$mnt" id -g "$user")"
[ "$uid" -ne 0 ] || fail "the image's user $user has uid 0"
chroot --userspec="$uid:$gid" "$mnt" sh -c 'touch /data/.probe && rm /data/.probe' ||
  fail "/data is not writable by $user"
say "/data empty and writable by $user ($uid:$gid): ok"

# The server needs /proc and /dev (random numbers); the network is the host's.
for m in proc dev; do
  mount --bind "/$m" "$mnt/$m"
  mounted+=("$mnt/$m")
done

# Runs a command in the image as its user, with the image's environment and working directory.
mapfile -t image_env < <(inspect Config.Env)
workdir="$(inspect Config.WorkingDir)"
mapfile -t entrypoint < <(inspect Config.Entrypoint)
[ "${entrypoint[*]}" = atout-server ] || fail "the entry point is '${entrypoint[*]}', not atout-server"
in_image() {
  chroot --userspec="$uid:$gid" "$mnt" /usr/bin/env -i "${image_env[@]}" HOME="$workdir" \
    sh -c 'cd "$0" && exec "$@"' "$workdir" "$@"
}

port=""
start_server() {
  local log="$1"
  : >"$log"
  # The image's entry point with the image's settings; only the address is overridden (a flag wins
  # over the image's ATOUT_BIND and ATOUT_PORT), so that the check never takes a port in use.
  # chroot, env and sh each exec the next, so $! is the server's own process: the SIGTERM below
  # reaches it, not a shell around it.
  chroot --userspec="$uid:$gid" "$mnt" /usr/bin/env -i "${image_env[@]}" HOME="$workdir" \
    sh -c 'cd "$0" && exec "$@"' "$workdir" "${entrypoint[@]}" --bind 127.0.0.1 --port 0 >"$log" 2>&1 &
  server_pid=$!
  local i
  for i in $(seq 1 300); do
    port="$(sed -n 's/.*listening on 127\.0\.0\.1:\([0-9]*\).*/\1/p' "$log" | head -n 1)"
    [ -n "$port" ] && return 0
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.1
  done
  cat "$log" >&2
  fail "atout-server did not start from the image"
}
stop_server() {
  local log="$1" code=0
  kill -TERM "$server_pid"
  wait "$server_pid" || code=$?
  server_pid=""
  [ "$code" -eq 0 ] || {
    cat "$log" >&2
    fail "atout-server exited $code after SIGTERM"
  }
  grep -q "shutting down" "$log" || fail "atout-server did not log its graceful shutdown"
}
health_check() {
  # The image's own HEALTHCHECK command, run inside it with the port the server took.
  local cmd
  mapfile -t cmd < <(inspect Healthcheck.Test)
  [ "${cmd[0]}" = CMD ] || fail "unexpected HEALTHCHECK form: ${cmd[*]}"
  chroot --userspec="$uid:$gid" "$mnt" /usr/bin/env -i "${image_env[@]}" ATOUT_PORT="$port" "${cmd[@]:1}" ||
    fail "the image's health check failed against a running server"
}
http_get() {
  /usr/bin/python3 -c 'import sys, urllib.request; sys.stdout.write(urllib.request.urlopen(sys.argv[1], timeout=30).read().decode())' \
    "http://127.0.0.1:$port$1"
}

# ---- first run: a match ------------------------------------------------------------------------
start_server "$work/server1.log"
say "atout-server runs from the image as $user on port $port"
health_check
say "health check: ok"

# The web client: the page at / and at a client route, with its security policy, and its script.
/usr/bin/python3 - "http://127.0.0.1:$port" <<'EOF' || fail "the image does not serve the web client"
import re, sys, urllib.request
base = sys.argv[1]
for path in ("/", "/leaderboard"):
    r = urllib.request.urlopen(base + path, timeout=30)
    page = r.read().decode()
    assert '<div id="app">' in page, path + ": not the client's page"
    assert "script-src 'self'" in r.headers.get("Content-Security-Policy", ""), path + ": no CSP"
script = re.search(r'src="(/assets/[^"]+\.js)"', page)
assert script, "the page names no script"
assert urllib.request.urlopen(base + script.group(1), timeout=30).status == 200
EOF
say "web client: / and /leaderboard serve the page with its security policy, and its script loads"

bot="$root/examples/python-bot/bot.py"
url="ws://127.0.0.1:$port/ws"
/usr/bin/python3 "$bot" --url "$url" --create duel --seat 0 --seed 1 --name check-0 \
  >"$work/bot0.out" 2>"$work/bot0.err" &
bot0=$!
table=""
for i in $(seq 1 100); do
  table="$(head -n 1 "$work/bot0.out")"
  [ -n "$table" ] && break
  sleep 0.1
done
[ -n "$table" ] || fail "the first bot created no table: $(cat "$work/bot0.err")"
/usr/bin/python3 "$bot" --url "$url" --table "$table" --seat 1 --seed 2 --name check-1 \
  >"$work/bot1.out" 2>"$work/bot1.err" &
bot1=$!
code0=0
code1=0
wait "$bot0" || code0=$?
wait "$bot1" || code1=$?
[ "$code0" -eq 0 ] && [ "$code1" -eq 0 ] ||
  fail "the bots did not finish their match ($code0, $code1): $(cat "$work/bot0.err" "$work/bot1.err")"
grep -q "match over" "$work/bot0.err" || fail "the first bot saw no match end"
player="$(sed -n 's/^check-0 is \(p[0-9a-f]*\)$/\1/p' "$work/bot0.err")"
[ -n "$player" ] || fail "the first bot did not say its player id"
say "a duel match played at table $table ($(grep "match over" "$work/bot0.err"))"

stop_server "$work/server1.log"
say "SIGTERM: drained and exited 0"
/usr/bin/python3 - "$work/server1.log" <<'EOF' || fail "the server's log is not JSON lines: $(head -n 3 "$work/server1.log")"
import json, sys
lines = open(sys.argv[1]).read().splitlines()
records = [json.loads(line) for line in lines]
assert len(records) >= 3 and all({"time", "level", "message"} <= r.keys() for r in records)
EOF
say "the log: $(wc -l <"$work/server1.log") JSON lines on standard output"

# ---- second run on the same /data: the history -------------------------------------------------
[ -f "$mnt/data/atout.db" ] || fail "no database in the image's /data after the first run"
start_server "$work/server2.log"
history="$(http_get "/api/players/$player/matches")"
match="$(/usr/bin/python3 -c '
import json, sys
h = json.loads(sys.argv[1])
ended = [m for m in h["matches"] if m["variant"] == "duel" and m["end_reason"] == "finished" and m["winner"] is not None]
print(ended[0]["match_id"] if len(ended) == 1 and len(h["matches"]) == 1 else "")' "$history")"
[ -n "$match" ] || fail "the match is not in the player's history after the restart: $history"
http_get "/api/matches/$match/replay" >"$work/replay.json"
in_image atout replay - <"$work/replay.json" >"$work/replay.out" 2>&1 ||
  fail "atout replay refused the stored match: $(cat "$work/replay.out")"
in_image atout backup --db /data/atout.db --to /data/backup.db >"$work/backup.out" 2>&1 ||
  fail "atout backup failed: $(cat "$work/backup.out")"
[ -s "$mnt/data/backup.db" ] || fail "atout backup wrote nothing"
say "after the restart: match $match in the history, its replay checked, a backup taken"
stop_server "$work/server2.log"

size="$(inspect Size)"
say "image $tag: $((size / 1000000)) MB ($size bytes)"
say "build: ${build_seconds} s; whole check: $((SECONDS - started)) s"
say "passed"
