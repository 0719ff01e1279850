#!/usr/bin/python3
"""Runs examples/python-bot against a live atout-server: one complete match of every variant.

Usage: python_bot_match.py ATOUT_SERVER_BINARY SOURCE_DIR [--tls]
With --tls, the server serves TLS with the test certificate of tests/data/tls, the bots connect over
wss:// trusting only that certificate, and they play one duel match (the TLS path, not the variants).
Starts the server on a free loopback port, asks it for its variants over HTTP, and for each one
starts one bot that creates the table and as many more as the variant has seats; the odd seats ask
for `"ack": "event"` and fail unless each action is answered by its own event, and seat 1 drops its
connection once and resumes. Then one bot plays belot alone against three server bots of each
level (create_table with `bots`). Passes when every
bot saw its match end; stops the server it started in any case.
"""
import json
import re
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

PYTHON = "/usr/bin/python3"
TIMEOUT = 600  # seconds for all matches; sanitizer builds are slow


def start_server(binary, db, extra):
    server = subprocess.Popen([binary, "--port", "0", "--bind", "127.0.0.1", "--threads", "2", "--db", db] + extra,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = server.stdout.readline()
        if not line:
            break
        match = re.search(r"listening on 127\.0\.0\.1:(\d+)", line)
        if match:
            # Keep reading the log so a chatty server never blocks on a full pipe.
            threading.Thread(target=lambda: [None for _ in server.stdout], daemon=True).start()
            return server, int(match.group(1))
    server.kill()
    sys.exit("atout-server did not report its port")


def play(bot, url, variant, players, deadline, extra=()):
    creator = subprocess.Popen([PYTHON, bot, "--url", url, "--create", variant, "--name", f"{variant}-0",
                                "--seat", "0", "--seed", "0", *extra], stdout=subprocess.PIPE, text=True)
    table_id = creator.stdout.readline().strip()
    if not table_id:
        creator.wait()
        return [f"{variant}: the creating bot printed no table id"]
    bots = [creator] + [
        subprocess.Popen([PYTHON, bot, "--url", url, "--table", table_id, "--seat", str(seat),
                          "--name", f"{variant}-{seat}", "--seed", str(seat),
                          "--ack", "event" if seat % 2 else "reply"]
                         # Seat 1 leaves once and resumes: replayed events must not make it act on
                         # a turn that is over (the server would refuse the action, and the bot fail).
                         + (["--drop-after", "12"] if seat == 1 else []) + list(extra))
        for seat in range(1, players)]
    return wait_all(bots, variant, deadline)


def play_against_bots(bot, url, variant, level, deadline):
    """One Python bot alone at a table whose other seats the server's bots of `level` take."""
    player = subprocess.Popen([PYTHON, bot, "--url", url, "--create", variant, "--against", level,
                               "--name", f"{variant}-solo", "--seed", "7"], stdout=subprocess.PIPE, text=True)
    if not player.stdout.readline().strip():
        player.wait()
        return [f"{variant} against {level} bots: the bot printed no table id"]
    return [f + f" (against {level} bots)" for f in wait_all([player], variant, deadline)]


def wait_all(bots, variant, deadline):
    failures = []
    for seat, process in enumerate(bots):
        try:
            code = process.wait(timeout=max(1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
            code = "timeout"
        if code != 0:
            failures.append(f"{variant}: bot in seat {seat} ended with {code}")
    return failures


def main():
    binary, source = sys.argv[1], sys.argv[2]
    tls = sys.argv[3:] == ["--tls"]
    bot = f"{source}/examples/python-bot/bot.py"
    # A database of its own, so runs never see each other's matches.
    data = tempfile.TemporaryDirectory(prefix="atout-bot-")
    cert = f"{source}/tests/data/tls/server-a.crt"
    extra = ["--tls-cert", cert, "--tls-key", f"{source}/tests/data/tls/server-a.key"] if tls else []
    server, port = start_server(binary, f"{data.name}/atout.db", extra)
    http, ws = ("https", "wss") if tls else ("http", "ws")
    # Over TLS, only the test certificate is trusted (it names 127.0.0.1).
    context = ssl.create_default_context(cafile=cert) if tls else None
    failures, played = [], 0
    try:
        with urllib.request.urlopen(f"{http}://127.0.0.1:{port}/api/variants", timeout=30, context=context) as r:
            variants = json.load(r)["variants"]
        deadline = time.monotonic() + TIMEOUT
        url = f"{ws}://127.0.0.1:{port}/ws"
        for v in variants:
            if tls and v["id"] != "duel":
                continue
            failures += play(bot, url, v["id"], v["players"], deadline, ["--cafile", cert] if tls else [])
            played += 1
        # And alone against the server's own bots, at every level.
        for level in () if tls else ("random", "rules", "sampling"):
            failures += play_against_bots(bot, url, "belot", level, deadline)
        with urllib.request.urlopen(f"{http}://127.0.0.1:{port}/healthz", timeout=30, context=context) as r:
            if json.load(r) != {"status": "ok"}:
                failures.append("healthz did not say ok after the matches")
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        data.cleanup()
    for f in failures:
        print(f)
    print(f"python bot: {played} variant(s) played, {len(failures)} failure(s)")
    sys.exit(1 if failures or played == 0 else 0)


if __name__ == "__main__":
    main()
