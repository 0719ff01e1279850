#!/usr/bin/env python3
"""Compares two SQLite layouts for live matches' actions, at the SQL level (no Atout code).

per_match: today's match_actions, PRIMARY KEY (match_id, seq) WITHOUT ROWID. A batch holding one
  action of each of 1,000 live matches writes into about 1,000 different leaf pages.
log: an append-ordered action_log (INTEGER PRIMARY KEY, no other index): a batch fills a few new
  pages at the end of the table.

Both tables start with HISTORY finished matches of 100 actions each in match_actions. Then 1,000
live matches each append one action per round, five rounds per transaction (about the writer's
batch under load), 100,000 actions in all, in WAL with synchronous=NORMAL, as the store opens its
file. It prints actions per second for each layout, three repetitions interleaved, and their
medians. For the log it also times what ending a match would cost: moving one match's actions
from the log to match_actions and deleting them from the log, when the log holds the 100,000
interleaved actions and nothing but the table's own key to find them (the match's first log id
bounds the scan below; nothing bounds it above), alone and in one pass that moves 100 matches.

    python3 bench/action_log_layout.py [--history N] [--repetitions 3]
"""
import argparse
import os
import statistics
import sqlite3
import tempfile
import time

ACTION = '{"seat":2,"type":"play","card":"JH"}'
LIVE = 1000
ROUNDS_PER_BATCH = 5
BATCHES = 20


def open_db(path):
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)
    c = sqlite3.connect(path, isolation_level=None)
    c.execute("PRAGMA journal_mode=WAL")
    c.execute("PRAGMA synchronous=NORMAL")
    c.execute(
        "CREATE TABLE match_actions (match_id INTEGER NOT NULL, seq INTEGER NOT NULL, seat INTEGER NOT NULL, "
        "action TEXT NOT NULL, at INTEGER NOT NULL, PRIMARY KEY (match_id, seq)) STRICT, WITHOUT ROWID")
    c.execute(
        "CREATE TABLE action_log (id INTEGER PRIMARY KEY, match_id INTEGER NOT NULL, seq INTEGER NOT NULL, "
        "seat INTEGER NOT NULL, action TEXT NOT NULL, at INTEGER NOT NULL) STRICT")
    return c


def run(kind, history, directory):
    c = open_db(os.path.join(directory, kind + ".db"))
    c.execute("BEGIN")
    c.executemany("INSERT INTO match_actions VALUES (?, ?, ?, ?, ?)",
                  ((m, s, s % 4, ACTION, 0) for m in range(history) for s in range(100)))
    c.execute("COMMIT")
    c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    live = range(history, history + LIVE)
    table = "match_actions" if kind == "per_match" else "action_log"
    sql = f"INSERT INTO {table} (match_id, seq, seat, action, at) VALUES (?, ?, ?, ?, ?)"
    seq = 0
    began = time.perf_counter()
    for _ in range(BATCHES):
        c.execute("BEGIN")
        for _ in range(ROUNDS_PER_BATCH):
            for m in live:
                c.execute(sql, (m, seq, m % 4, ACTION, seq))
            seq += 1
        c.execute("COMMIT")
    rate = LIVE * ROUNDS_PER_BATCH * BATCHES / (time.perf_counter() - began)
    move_ms = gathered_ms = None
    if kind == "log":
        moves, gathered = [], []
        for m in list(live)[:20]:
            first = c.execute("SELECT MIN(id) FROM action_log").fetchone()[0]
            t = time.perf_counter()
            c.execute("BEGIN")
            c.execute("INSERT INTO match_actions SELECT match_id, seq, seat, action, at FROM action_log "
                      "WHERE id >= ? AND match_id = ?", (first, m))
            c.execute("DELETE FROM action_log WHERE id >= ? AND match_id = ?", (first, m))
            c.execute("COMMIT")
            moves.append((time.perf_counter() - t) * 1000)
        move_ms = statistics.median(moves)
        # The same moves gathered: 100 ended matches in one pass over the log.
        ended = list(live)[20:120]
        marks = ",".join("?" * len(ended))
        first = c.execute("SELECT MIN(id) FROM action_log").fetchone()[0]
        t = time.perf_counter()
        c.execute("BEGIN")
        c.execute("INSERT INTO match_actions SELECT match_id, seq, seat, action, at FROM action_log "
                  f"WHERE id >= ? AND match_id IN ({marks}) ORDER BY match_id, seq", (first, *ended))
        c.execute(f"DELETE FROM action_log WHERE id >= ? AND match_id IN ({marks})", (first, *ended))
        c.execute("COMMIT")
        gathered_ms = (time.perf_counter() - t) * 1000 / len(ended)
    c.close()
    return rate, move_ms, gathered_ms


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--history", type=int, default=0, help="finished matches already stored")
    parser.add_argument("--repetitions", type=int, default=3)
    args = parser.parse_args()
    rates = {"per_match": [], "log": []}
    moves, gathered = [], []
    with tempfile.TemporaryDirectory(prefix="atout_log_layout_") as directory:
        for rep in range(args.repetitions):
            for kind in ("per_match", "log"):
                rate, move_ms, gathered_ms = run(kind, args.history, directory)
                rates[kind].append(rate)
                note = ""
                if move_ms is not None:
                    moves.append(move_ms)
                    gathered.append(gathered_ms)
                    note = f", moving one match out of the log {move_ms:.1f} ms, {gathered_ms:.2f} ms in a pass of 100"
                print(f"{kind:9} history={args.history} rep={rep} {rate:,.0f} actions/s{note}", flush=True)
    for kind, r in rates.items():
        print(f"median {kind:9} {statistics.median(r):,.0f} actions/s")
    print(f"median move of one ended match out of a 100,000-row log: {statistics.median(moves):.1f} ms alone, "
          f"{statistics.median(gathered):.2f} ms per match in a pass of 100")


if __name__ == "__main__":
    main()
