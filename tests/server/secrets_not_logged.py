#!/usr/bin/python3
"""Checks that no log of a test run contains a secret that the run's messages carried.

Usage: secrets_not_logged.py RECORD_DIR
RECORD_DIR holds the run's messages (atout-messages-*.txt, lines "S <json>" or "C <json>") and
its logs (*.log: the in-process servers' debug logs and the child servers' output). The secrets
are the values of every "token", "invite", "seed" and "match_seed" field of any message, in
either direction: resume tokens, invite codes of private tables, and deal and match seeds. A
seed is public once its hand is over, but the server never has a reason to log one, so none may
appear in any log, whenever it was written. Exits 0 when no log holds any secret, 1 otherwise
(also when the run left no secrets or no logs, since then nothing was checked).
"""
import json
import pathlib
import re
import sys

kSecretKeys = {"token", "invite", "seed", "match_seed"}
# Secrets are long random hex strings; a shorter value is a test's deliberate bad input ("", "x").
kSecretShape = re.compile(r"^[0-9a-f]{32,}$")


def secrets_in(value, found):
    if isinstance(value, dict):
        for key, v in value.items():
            if key in kSecretKeys and isinstance(v, str) and kSecretShape.match(v):
                found.setdefault(key, set()).add(v)
            secrets_in(v, found)
    elif isinstance(value, list):
        for v in value:
            secrets_in(v, found)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    record = pathlib.Path(sys.argv[1])
    found = {}
    for path in sorted(record.glob("atout-messages-*.txt")):
        for line in path.read_text(errors="replace").splitlines():
            try:
                secrets_in(json.loads(line[2:]), found)
            except ValueError:
                continue  # the schema check reports a line that is not JSON
    logs = sorted(record.glob("*.log"))
    secrets = {v: key for key, values in found.items() for v in values}
    leaks = []
    log_bytes = 0
    for path in logs:
        text = path.read_text(errors="replace")
        log_bytes += len(text)
        for match in re.finditer(r"[0-9a-f]{32,}", text):
            if match.group(0) in secrets:
                line = text.count("\n", 0, match.start()) + 1
                leaks.append(f"{path.name}:{line}: a {secrets[match.group(0)]} ({match.group(0)[:8]}...)")
    counts = ", ".join(f"{len(v)} {k}" for k, v in sorted(found.items()))
    print(f"secrets check: {counts or 'no secrets'} looked for in {len(logs)} log(s), {log_bytes} bytes; "
          f"{len(leaks)} found")
    for leak in leaks[:20]:
        print("  leaked:", leak)
    sys.exit(1 if leaks or not found or not logs else 0)


if __name__ == "__main__":
    main()
