"""The soak's checks after the clean stop: what the store kept (matches, actions, hands, ratings),
the cards in every message, the log, and the server's RSS and file descriptors."""

import json
import os
import re
import sqlite3
import subprocess

from soak_common import (FD_GROWTH_LIMIT, KILL_LOSS_WINDOW_S, PSQL, READ_LAG_S, RSS_GROWTH_FACTOR,
                         RSS_GROWTH_LIMIT_KB)


def same_action(sent, stored):
    return all(stored.get(k) == v or (k == "card" and str(stored.get(k, "")).upper() == str(v).upper())
               for k, v in sent.items())


def store_rows(soak):
    """A function that runs a SELECT on the store the soak used and returns its rows as tuples:
    the SQLite file (read-only), or the cluster's PostgreSQL schema through psql."""
    if not soak.cluster:
        db = sqlite3.connect(f"file:{soak.db}?mode=ro", uri=True)
        return lambda sql: db.execute(sql).fetchall()

    def rows(sql):
        out = subprocess.run([PSQL, soak.db, "-qtAX", "-v", "ON_ERROR_STOP=1", "-c",
                              f"SELECT coalesce(json_agg(t), '[]') FROM ({sql}) t"],
                             capture_output=True, text=True, timeout=120)
        if out.returncode != 0:
            raise SystemExit(f"soak: psql: {out.stderr.strip()}")
        return [tuple(r.values()) for r in json.loads(out.stdout)]
    return rows


def check_store(soak):
    """Reads the stored matches, actions and hands after the clean stop."""
    rows = store_rows(soak)
    matches = {}
    for mid, uid, variant, seed, rated, ended, s0, s1, winner, reason, rated_seq, table_id in rows(
            "SELECT id, uid, variant, match_seed, rated, ended_at, score0, score1, winner, end_reason, rated_seq, "
            "table_id FROM matches"):
        matches[uid] = {"id": mid, "variant": variant, "seed": seed, "rated": rated, "ended_at": ended,
                        "table_id": table_id,
                        "score": [s0, s1], "winner": winner, "reason": reason, "rated_seq": rated_seq,
                        "actions": {}, "hands": []}
    by_id = {m["id"]: m for m in matches.values()}
    # On SQLite a match's actions are in match_actions and, from its log_from on, in the
    # append-ordered log (rows below it were copied out already); PostgreSQL keeps them all in
    # match_actions.
    actions = "SELECT match_id, seq, seat, action FROM match_actions"
    if not soak.cluster:
        actions += (" UNION ALL SELECT l.match_id, l.seq, l.seat, l.action FROM action_log l "
                    "JOIN matches m ON m.id = l.match_id WHERE l.id >= m.log_from")
    for mid, seq, seat, action in rows(actions):
        if seq in by_id[mid]["actions"]:
            soak.fail(f"seq {seq} of the match stored as row {mid} is stored twice")
        by_id[mid]["actions"][seq] = (seat, json.loads(action))
    for mid, number, seed, revealed, first, last in rows(
            "SELECT match_id, number, seed, revealed, first_seq, last_seq FROM hands"):
        by_id[mid]["hands"].append({"number": number, "seed": seed.lower(), "revealed": revealed, "first": first,
                                    "last": last})
    for m in matches.values():
        m["hands"].sort(key=lambda h: h["number"])
    seats = {}
    for mid, seat, team, public_id in rows(
            "SELECT s.match_id, s.seat, s.team, p.public_id FROM match_seats s JOIN players p ON p.id = s.player_id"):
        seats.setdefault(mid, []).append((seat, team, public_id))
    ratings = {}
    for public_id, ladder, mu, sigma, n in rows(
            "SELECT p.public_id, r.ladder, r.mu, r.sigma, r.matches FROM ratings r JOIN players p ON p.id = r.player_id"):
        ratings.setdefault(public_id, []).append({"ladder": ladder, "mu": mu, "sigma": sigma, "matches": n})
    return matches, seats, ratings


def deal_of(match, seq):
    for h in reversed(match["hands"]):
        if seq >= h["first"]:
            return h["number"]
    return 0


FENCED = re.compile(r"match '([^']+)' was taken over by another run of its table \(fence \d+\): refused (.*) from run")


def fenced_writes(soak):
    """What the store refused to a node that had lost a table to another (docs/operations.md,
    Failover): {match uid: the seqs of its refused actions}, read from every node's log."""
    out = {}
    for node in soak.nodes:
        if not os.path.exists(node.log_path):
            continue
        with open(node.log_path, errors="replace") as f:
            for line in f:
                m = FENCED.search(line)
                if m:
                    seqs = out.setdefault(m.group(1), set())
                    if m.group(2).startswith("action seq "):
                        seqs.add(int(m.group(2)[len("action seq "):]))
    return out


def check_actions(soak, matches):
    """Every acknowledged action is stored exactly once, unless a kill came within the promise, or
    the node that acknowledged it lost its table before it could commit it (the store then refused
    it, and said so in that node's log)."""
    found = lost = 0
    fenced = fenced_writes(soak)
    soak.fenced_actions = 0
    for match_id, seq, seat, action, at in soak.acks:
        m = matches.get(match_id)
        stored = m["actions"].get(seq) if m else None
        if stored is None:
            if any(-READ_LAG_S <= k - at <= KILL_LOSS_WINDOW_S for k in soak.kills):
                lost += 1
                continue
            if seq in fenced.get(match_id, ()):
                soak.fenced_actions += 1
                continue
            near = min((k - at for k in soak.kills), key=abs, default=None)
            when = f" (the nearest kill came {near:+.2f} s after it was read)" if near is not None else ""
            soak.fail(f"acknowledged action {action} by seat {seat} at seq {seq} of match {match_id} is not stored"
                      + when)
            continue
        if stored[0] != seat or action is None or not same_action(action, stored[1]):
            soak.fail(f"match {match_id} seq {seq}: acknowledged {action} by seat {seat}, stored {stored}")
            continue
        found += 1
    for uid, m in matches.items():
        plays = {}
        for seq, (seat, a) in sorted(m["actions"].items()):
            if a.get("type") == "play":
                key = (deal_of(m, seq), a["card"].upper())
                if key in plays:
                    soak.fail(f"match {uid}: {key[1]} played twice in deal {key[0]} (seqs {plays[key]} and {seq})")
                plays[key] = seq
    return found, lost


def check_finished(soak, matches, checker):
    """Each match a client saw finish is stored with that score, and `atout replay` agrees."""
    checked = 0
    fenced = fenced_writes(soak)
    for match_id, (score, at) in soak.finished.items():
        m = matches.get(match_id)
        if any(-READ_LAG_S <= k - at <= KILL_LOSS_WINDOW_S for k in soak.kills):
            # The last action may have been lost to the kill (documented): the match resumed one
            # action before its end, and its players, gone, may since have forfeited it.
            continue
        if match_id in fenced:
            # The end its players saw came from a node that had lost the table: the store refused
            # what it wrote after the take-over, and the match went on from the new owner's state.
            continue
        if m is None or m["ended_at"] is None:
            soak.fail(f"match {match_id} finished for its players but is not stored as ended")
            continue
        if m["score"] != score:
            soak.fail(f"match {match_id}: players saw {score}, stored {m['score']}")
        replay = soak.http_get(f"/api/matches/{match_id}/replay", checker.port)
        out = subprocess.run([soak.args.cli, "replay", "-"], input=json.dumps(replay), capture_output=True,
                             text=True)
        if out.returncode != 0:
            soak.fail(f"atout replay of {match_id} failed: {out.stderr.strip()}")
            continue
        result = json.loads(out.stdout)
        if not result["complete"] or result["match_score"] != m["score"] or result["winner"] != m["winner"]:
            soak.fail(f"atout replay of {match_id} gives {result['match_score']} (winner {result['winner']}), "
                      f"stored {m['score']} (winner {m['winner']})")
        if replay.get("match_score") != m["score"]:
            soak.fail(f"the replay of {match_id} says {replay.get('match_score')}, stored {m['score']}")
        checked += 1
    return checked


def openskill_rate(teams, ranks, mu0=25.0, beta=25.0 / 6.0, tau=25.0 / 300.0, epsilon=0.0001):
    """Weng-Lin Plackett-Luce, as store/src/rating.cpp computes it."""
    teams = [[(mu, (sigma * sigma + tau * tau) ** 0.5) for mu, sigma in team] for team in teams]
    n = len(teams)
    mus = [sum(r[0] for r in t) for t in teams]
    sig_sq = [sum(r[1] * r[1] for r in t) for t in teams]
    c_sq = sum(s + beta * beta for s in sig_sq)
    c = c_sq ** 0.5
    import math
    exp_mu = [math.exp(m / c) for m in mus]
    sum_q = [sum(exp_mu[i] for i in range(n) if ranks[i] >= ranks[q]) for q in range(n)]
    a = [sum(1 for i in range(n) if ranks[i] == ranks[q]) for q in range(n)]
    out = []
    for i in range(n):
        omega = delta = 0.0
        for q in range(n):
            if ranks[q] > ranks[i]:
                continue
            quotient = exp_mu[i] / sum_q[q]
            omega += ((1.0 if i == q else 0.0) - quotient) / a[q]
            delta += quotient * (1 - quotient) / a[q]
        gamma = sig_sq[i] ** 0.5 / c
        team_omega = omega * sig_sq[i] / c
        team_delta = gamma * delta * sig_sq[i] / c_sq
        new = []
        for mu, sigma in teams[i]:
            share = sigma * sigma / sig_sq[i]
            new.append((mu + share * team_omega, sigma * max(1 - share * team_delta, epsilon) ** 0.5))
        out.append(new)
    return out


def check_ratings(soak, matches, seats, stored_ratings):
    """Recomputes every rating from the stored results, in the order the store wrote them (matches
    can end in the same millisecond, so the end times alone cannot say it)."""
    ratings = {}  # (player, ladder) -> (mu, sigma, matches)
    for uid, m in sorted(matches.items()):
        should = m["ended_at"] is not None and m["rated"] and m["reason"] != "aborted"
        if should != (m["rated_seq"] is not None):
            soak.fail(f"match {uid}: rated_seq {m['rated_seq']} for a match that "
                      f"{'changes' if should else 'changes no'} ratings")
    ended = sorted((m for m in matches.values() if m["rated_seq"] is not None), key=lambda m: m["rated_seq"])
    for m in ended:
        seated = sorted(seats.get(m["id"], []))
        teams = [[], []]
        for seat, team, player in seated:
            teams[team].append(ratings.get((player, m["variant"]), (25.0, 25.0 / 3.0, 0))[:2])
        ranks = [1, 1] if m["winner"] is None else [1 if m["winner"] == 0 else 2, 1 if m["winner"] == 1 else 2]
        new = openskill_rate(teams, ranks)
        nxt = [0, 0]
        # As the store writes them: each player once, from the count read before the match. A bot in
        # several seats is written at its first seat on the side where it holds more seats, and not
        # at all when it holds as many on each side.
        counts = {player: ratings.get((player, m["variant"]), (0, 0, 0))[2] for _, _, player in seated}
        held = {}
        for _, team, player in seated:
            held.setdefault(player, [0, 0])[team] += 1
        written = set()
        for seat, team, player in seated:
            mu, sigma = new[team][nxt[team]]
            nxt[team] += 1
            h = held[player]
            if player in written or h[0] == h[1] or team != (0 if h[0] > h[1] else 1):
                continue
            written.add(player)
            ratings[(player, m["variant"])] = (mu, sigma, counts[player] + 1)
    players = {p for _, _, p in (x for s in seats.values() for x in s)}
    checked = 0
    for player in sorted(players):
        got = {r["ladder"]: r for r in stored_ratings.get(player, [])}
        want = {ladder: v for (p, ladder), v in ratings.items() if p == player}
        if set(got) != set(want):
            soak.fail(f"player {player}: rated on {sorted(got)}, recomputed {sorted(want)}")
            continue
        for ladder, (mu, sigma, n) in want.items():
            r = got[ladder]
            if abs(r["mu"] - mu) > 1e-6 or abs(r["sigma"] - sigma) > 1e-6 or r["matches"] != n:
                soak.fail(f"player {player} on {ladder}: stored mu {r['mu']} sigma {r['sigma']} matches "
                          f"{r['matches']}, recomputed {mu} {sigma} {n}")
        checked += 1
    return checked


def check_hidden(soak, matches):
    """A card named to seat s must be in s's hand or public by then; to a spectator, public."""
    public = {}  # (match, deal) -> {card: seq it became public}
    for uid, m in matches.items():
        for seq, (seat, a) in m["actions"].items():
            if a.get("type") in ("play", "show"):
                cards = [a["card"]] if a["type"] == "play" else a.get("cards", [])
                d = deal_of(m, seq)
                for c in cards:
                    per = public.setdefault((uid, d), {})
                    per[c.upper()] = min(seq, per.get(c.upper(), seq))
    # Plays the clients saw that a kill took from the log were public when they were seen.
    for (uid, seq), (deal, card) in soak.seen_plays.items():
        m = matches.get(uid)
        if m is None or seq not in m["actions"]:
            per = public.setdefault((uid, deal), {})
            per[card] = min(seq, per.get(card, seq))
    # Turn-ups and shown declarations: taken from the events, so each is checked for consistency.
    for (uid, deal), ups in soak.turn_ups.items():
        if len(ups) != 1:
            soak.fail(f"match {uid} deal {deal}: the turn-up was reported as {sorted(ups)}")
        for c in ups:
            public.setdefault((uid, deal), {})[c] = 0
    holders = {}  # (match, deal, run, card) -> seats whose hand it was reported in
    for (uid, deal, run, seat), cards in soak.hands_seen.items():
        for c in cards:
            holders.setdefault((uid, deal, run, c), set()).add(seat)
    for (uid, deal, run, c), who in holders.items():
        if len(who) > 1:
            soak.fail(f"match {uid} deal {deal}: {c} was reported in the hands of seats {sorted(who)}")
    for uid, m in matches.items():
        for seq, (seat, a) in m["actions"].items():
            if a.get("type") == "play":
                who = holders.get((uid, deal_of(m, seq), seq >> 32, a["card"].upper()), set())
                if who - {seat}:
                    soak.fail(f"match {uid}: seat {seat} played {a['card']} at seq {seq}, "
                              f"which was reported in the hand of seat(s) {sorted(who - {seat})}")
    for (uid, deal, run, seat), cards in soak.declared.items():
        for c in cards:
            who = holders.get((uid, deal, run, c), set())
            if who - {seat}:
                soak.fail(f"match {uid} deal {deal}: seat {seat} showed {c}, reported in seats {sorted(who)}' hands")
            public.setdefault((uid, deal), {})[c] = 0
    leaks = 0
    for (uid, deal, recipient), named in soak.named.items():
        now = public.get((uid, deal), {})
        before = public.get((uid, deal - 1), {})
        for c, (seq, text) in named.items():
            if c in before or now.get(c, seq + 1) <= seq:
                continue
            leaks += 1
            if leaks <= 20:
                who = "a spectator" if recipient == "spec" else f"seat {recipient}"
                soak.fail(f"match {uid} deal {deal}: {who} was shown {c} at seq {seq}, neither its own nor public"
                          + (f": {text}" if text else ""))
    for line in soak.non_event_cards[:20]:
        soak.fail(f"a message that should name no card: {line}")


def check_log(soak, matches):
    """The server log holds no player token and no seed. No log line of the server formats a seed
    or a token (server/src, store/src: the only seeds written go to the database and, once
    revealed, to players), so the promise that holds is the stronger one: no seed at all, before
    or after its reveal. The server runs at log level debug, so every line it can write counts."""
    seeds = {}
    for uid, m in matches.items():
        if m["seed"]:
            seeds[m["seed"].lower()] = f"the match seed of {uid}"
        for h in m["hands"]:
            seeds[h["seed"]] = f"the seed of deal {h['number']} of match {uid}"
    # And each seed a player saw revealed is the stored seed of a deal.
    for seed, at in soak.seed_seen_at.items():
        # A deal seen to end just before a kill may be gone with its match (documented loss).
        if seed not in seeds and not any(-READ_LAG_S <= k - at <= KILL_LOSS_WINDOW_S for k in soak.kills):
            soak.fail(f"players were shown the deal seed {seed}, which no stored deal has")
    hex_run = re.compile(r"[0-9a-fA-F]{32,}")
    lines = 0
    for node in soak.nodes:
        with open(node.log_path, errors="replace") as f:
            for line in f:
                lines += 1
                for run in hex_run.findall(line):
                    run = run.lower()
                    if any(t in run for t in soak.tokens) if len(run) >= 64 else False:
                        soak.fail(f"the server log holds a player token: {line.strip()[:200]}")
                    for i in range(0, len(run) - 31):
                        if run[i:i + 32] in seeds:
                            soak.fail(f"the server log holds {seeds[run[i:i + 32]]}: {line.strip()[:200]}")
                            break
    return lines


def check_samples(soak):
    """RSS and fds stay flat once warm, in each server run long enough to tell."""
    for i, run in enumerate(soak.samples):
        rss, fds = run["rss"], run["fds"]
        if len(rss) < 30:
            continue
        i = f"{i + 1}" if not soak.cluster else f"{i + 1} (node {run['node']})"
        third = len(rss) // 3
        first_rss, last_rss = sorted(rss[:third])[third // 2], sorted(rss[-third:])[third // 2]
        first_fds, last_fds = sorted(fds[:third])[third // 2], sorted(fds[-third:])[third // 2]
        if last_rss > first_rss * RSS_GROWTH_FACTOR and last_rss - first_rss > RSS_GROWTH_LIMIT_KB:
            soak.fail(f"server run {i}: RSS grew from {first_rss} KiB to {last_rss} KiB once warm")
        # On a cluster the soak's connections move between nodes (redirects, kills), so one node may
        # gain up to all of them once: a leak grows past that.
        limit = FD_GROWTH_LIMIT + (5 * soak.args.tables + 2 * soak.args.bot_tables if soak.cluster else 0)
        if last_fds - first_fds > limit:
            soak.fail(f"server run {i}: open fds grew from {first_fds} to {last_fds} once warm")
