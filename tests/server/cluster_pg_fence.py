#!/usr/bin/python3
"""Three atout-server nodes on one PostgreSQL database and one Redis: a node frozen with an
acknowledged action still in its writer's queue, whose table another node takes over meanwhile.

Usage: cluster_pg_fence.py ATOUT_SERVER_BINARY WORK_DIR [REDIS_SERVER]
The database is named by ATOUT_TEST_PG_URL; the test works in a schema of its own, dropped at the
end. It FAILS, rather than skips, when PostgreSQL or redis-server cannot be reached.

Two players play a duel on node b, whose writer gathers writes for three seconds before each
commit (--commit-window-ms 3000). Once everything played is committed, one player acts once more;
as soon as that action is acknowledged, node b is frozen (SIGSTOP), its writer still holding the
action. Its leases lapse, and node a or c takes the table over from the log, which lacks the
action. Node b is then let go on (SIGCONT) and its writer commits what it held: the store must
refuse it, since the match was taken over (docs/operations.md, Failover), or the log would hold
two histories of one deal. The checks:
  - node b's log shows the action refused, and node b lets the table go;
  - the players resume on the new owner with the view they had before the lost action;
  - play goes on there, and the database holds exactly the acknowledged actions but the lost one,
    once each;
  - node b still stops cleanly on SIGTERM.
"""
import asyncio
import os
import signal
import sys
import time

import websockets

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cluster_pg_failover import TIMEOUT_S, Player, check_events, psql, run_on_cluster  # noqa: E402

ACTIONS_BEFORE = 8
ACTIONS_AFTER = 8
WINDOW_MS = 3000  # node b's commit window: the frozen action is still queued when it stops
SETTLE_S = WINDOW_MS / 1000 + 1.0


def drop(ws):
    """Drops a connection to a frozen node at once: a close handshake would wait for its answer."""
    ws.transport.abort()


async def wait_for_line(nodes, needle, deadline):
    """The first of `nodes` whose log shows `needle`, or None by the deadline."""
    while time.monotonic() <= deadline:
        for n in nodes:
            if needle in n.log():
                return n
        await asyncio.sleep(0.05)
    return None


async def fenced(nodes, url, failures):
    a, b, c = nodes
    ann, bob = Player("ann", 0, failures), Player("bob", 1, failures)
    await ann.connect(b.url)
    created = await ann.reply_to(await ann.send({"type": "create_table", "variant": "duel"}))
    if created.get("type") != "table_created":
        raise RuntimeError(f"create_table on b answered {created}")
    ann.table_id = bob.table_id = table_id = created["table"]["table_id"]
    await bob.connect(b.url)
    for p in (ann, bob):
        if (await p.reply_to(await p.send({"type": "sit", "table_id": table_id, "seat": p.seat})))["type"] != "seated":
            raise RuntimeError(f"{p.name} could not sit on b")

    deadline = time.monotonic() + TIMEOUT_S
    enough = lambda: len(ann.events) >= ACTIONS_BEFORE or time.monotonic() > deadline
    await asyncio.gather(ann.play(enough), bob.play(enough))
    for p in (ann, bob):
        p.acting = False
    # Everything so far answered and committed (past one commit window).
    quiet = time.monotonic() + SETTLE_S
    await asyncio.gather(ann.play(lambda: time.monotonic() > quiet), bob.play(lambda: time.monotonic() > quiet))
    if ann.waiting_for or bob.waiting_for:
        raise RuntimeError("an action was still unanswered before the last one")
    committed = len(psql(url, "SELECT seq FROM match_actions").splitlines())
    if committed != len(ann.accepted) + len(bob.accepted):
        failures.append(f"{committed} actions committed before the last one, "
                        f"{len(ann.accepted) + len(bob.accepted)} acknowledged")

    # The player to act acts once; b freezes as soon as it is acknowledged.
    mover = next((p for p in (ann, bob) if p.legal), None)
    if mover is None:
        raise RuntimeError("nobody has an action to play")
    views = {p.name: p.view_before for p in (ann, bob)}
    base_index = max(ann.events)
    mover.acting = True
    acked = len(mover.accepted_seqs)
    await mover.play(lambda: len(mover.accepted_seqs) > acked or time.monotonic() > deadline)
    b.process.send_signal(signal.SIGSTOP)
    frozen = time.monotonic()
    lost_seq = max(mover.accepted_seqs)
    mover.acting = False
    for p in (ann, bob):
        drop(p.ws)

    try:
        # Another node takes the table over while b is frozen.
        if not await wait_for_line((a, c), "orphaned table(s): 1 taken over", frozen + TIMEOUT_S):
            raise RuntimeError("no node took the table over while b was frozen")
    finally:
        b.process.send_signal(signal.SIGCONT)
    print(f"fence: b frozen with action seq {lost_seq} queued; taken over after {time.monotonic() - frozen:.2f} s")

    # The lost action is forgotten: the new owner's next action takes its number.
    for p in (ann, bob):
        p.events = {i: e for i, e in p.events.items() if i <= base_index}
        p.accepted = {i: e for i, e in p.accepted.items() if i <= base_index}
        p.accepted_seqs.pop(lost_seq, None)
    deadline = time.monotonic() + TIMEOUT_S
    ann_at, bob_at = await asyncio.gather(ann.resume_at([a.url, c.url], deadline),
                                          bob.resume_at([c.url, a.url], deadline))
    if ann_at != bob_at or ann_at == b.url:
        failures.append(f"the players were seated at {ann_at} and {bob_at}")
    refusal = f"refused action seq {lost_seq} from run 0"
    if not await wait_for_line((b,), refusal, time.monotonic() + TIMEOUT_S):
        failures.append(f"node b's log does not show action seq {lost_seq} refused")
    if not await wait_for_line((b,), "taken over by other nodes while this node's leases had lapsed",
                               time.monotonic() + TIMEOUT_S):
        failures.append("node b did not let the table go")

    for p in (ann, bob):
        # The lost action is not in the rebuilt match: each player is back to the view it had
        # before it.
        if len(p.rebuilds) != 1:
            failures.append(f"{p.name}: {len(p.rebuilds)} snapshots of a rebuilt table, wanted 1")
        elif p.rebuilds[0][1] != views[p.name]:
            failures.append(f"{p.name}: the view after the take-over is not the one before the lost action")
        p.acting = True

    before = len(ann.events)
    goal = before + ACTIONS_AFTER
    deadline = time.monotonic() + TIMEOUT_S
    done = lambda: len(ann.events) >= goal and len(bob.events) >= goal or time.monotonic() > deadline
    await asyncio.gather(ann.play(done), bob.play(done))
    for p in (ann, bob):
        await p.ws.close()
    if len(ann.events) < goal:
        failures.append(f"play stopped at action {len(ann.events)} after the take-over; wanted {goal}")
    return ann, bob, lost_seq


def check_store(url, table_id, ann, bob, lost_seq, failures):
    """The database holds every acknowledged action but the refused one, once each, and no other."""
    rows = psql(url, "SELECT a.seq, a.seat FROM match_actions a JOIN matches m ON m.id = a.match_id "
                     f"WHERE m.table_id = '{table_id}' ORDER BY a.seq")
    stored = {int(line.split("|")[0]): int(line.split("|")[1]) for line in rows.splitlines()}
    acked = {seq: p.seat for p in (ann, bob) for seq in p.accepted_seqs}
    if lost_seq in stored:
        failures.append(f"store: the refused action seq {lost_seq} is stored")
    if stored != acked:
        failures.append(f"store: seqs {sorted(stored)} stored, {sorted(acked)} acknowledged (less the refused one)")
    print(f"store: {len(stored)} actions stored for {table_id}, {len(acked)} acknowledged and kept")


def main():
    def scenario(nodes, url, failures):
        try:
            ann, bob, lost_seq = asyncio.run(fenced(nodes, url, failures))
            check_events(ann, bob, failures)
            check_store(url, ann.table_id, ann, bob, lost_seq, failures)
        except (RuntimeError, OSError, asyncio.TimeoutError, websockets.exceptions.WebSocketException) as e:
            failures.append(f"{type(e).__name__}: {e}")
        b = nodes[1]
        b.process.send_signal(signal.SIGCONT)
        b.process.terminate()
        try:
            if b.process.wait(timeout=30) != 0:
                failures.append(f"node b exited with status {b.process.returncode} after SIGTERM")
        except Exception:
            failures.append("node b did not stop within 30 s of SIGTERM")

    run_on_cluster("cluster fence on PostgreSQL", scenario, extras={"b": ["--commit-window-ms", str(WINDOW_MS)]},
                   log_lines=20)


if __name__ == "__main__":
    main()
