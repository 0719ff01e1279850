#!/usr/bin/env python3
"""Measures how far a running server's committed action log trails the clock.

Every --every-ms milliseconds for SECONDS seconds it reads the time (Unix milliseconds) of the newest
committed action from the server's SQLite file, read-only, and records the clock before the read
minus that time: the newest row of `action_log`, or for a server from before the log the newest
action of the 200 newest matches in `match_actions`. Both reads are short, so the sampler hardly
loads the machine it measures. Under a steady load this is how long an accepted action
waits before the store's writer commits it: the window a crash can lose (docs/operations.md).

    python3 bench/commit_lag.py DB SECONDS [--every-ms 50]

It prints the median and the worst lag in milliseconds, then one JSON line. Samples taken before the
first action is stored are skipped. It only reads the file; start it while atout-loadgen plays.
"""
import argparse
import json
import sqlite3
import statistics
import sys
import time


def sample(db, seconds, every_ms=50, stop=None):
    """Lags in ms, one per sample that found a stored action, over `seconds` seconds or until the
    threading.Event `stop` is set."""
    lags = []
    deadline = time.monotonic() + seconds
    con = None
    while time.monotonic() < deadline and not (stop and stop.is_set()):
        try:
            if con is None:
                con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1)
            # The clock is read before the query: its snapshot is of that moment, and a slow read
            # must not count as lag.
            now = time.time() * 1000
            try:
                # The log's newest row by id: no scan under load.
                row = con.execute("SELECT at FROM action_log ORDER BY id DESC LIMIT 1").fetchone()
                newest = row[0] if row else None
            except sqlite3.OperationalError:
                # A server from before the log: the newest action of the 200 newest matches (keyed
                # by match, so a short range, not a scan; at many busy tables it is within a few
                # milliseconds of the newest of all).
                (newest,) = con.execute("SELECT MAX(at) FROM match_actions WHERE match_id > "
                                        "(SELECT MAX(id) FROM matches) - 200").fetchone()
            if newest is not None:
                lags.append(now - newest)
        except sqlite3.Error:
            # The file may not exist yet, or its schema may not be migrated yet: try again later.
            if con is not None:
                con.close()
            con = None
        time.sleep(every_ms / 1000)
    if con is not None:
        con.close()
    return lags


def summary(lags):
    if not lags:
        return {"samples": 0}
    return {"samples": len(lags), "median_ms": statistics.median(lags), "max_ms": max(lags)}


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("db")
    p.add_argument("seconds", type=float)
    p.add_argument("--every-ms", type=int, default=50)
    a = p.parse_args()
    if not 0 < a.seconds <= 600 or not 10 <= a.every_ms <= 10000:
        sys.exit("SECONDS must be in (0, 600] and --every-ms in [10, 10000]")
    s = summary(sample(a.db, a.seconds, a.every_ms))
    if s["samples"]:
        print(f"commit lag over {s['samples']} samples: median {s['median_ms']:.0f} ms, worst {s['max_ms']:.0f} ms")
    else:
        print("no stored action was seen")
    print(json.dumps(s))
    return 0 if s["samples"] else 1


if __name__ == "__main__":
    sys.exit(main())
