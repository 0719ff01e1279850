#!/usr/bin/env python3
"""Pools `atout arena` runs of one pairing over several seeds into one figure per variant.

    python3 bench/arena_pool.py < runs.jsonl

Each input line is the JSON summary line of one `atout arena` run. Runs of the same variant and
pairing are pooled: the share of deals won is weighed by each run's deal count, and the Elo and
its 95% interval are computed from the pooled share exactly as `atout arena` computes them from
its own (a normal interval on the share of deals won, turned into Elo).
"""
import collections
import json
import math
import sys


def elo(share, n):
    p = min(max(share, 0.5 / n), 1 - 0.5 / n)
    return -400.0 * math.log10(1.0 / p - 1.0)


def main():
    runs = collections.OrderedDict()
    for line in sys.stdin:
        line = line.strip()
        if not line.startswith("{"):
            continue
        j = json.loads(line)
        key = (j["variant"], j["a"], j["b"], j.get("worlds"), j.get("budget_ms"))
        runs.setdefault(key, []).append(j)
    print("| variant | A vs B | worlds | seeds | deals | deals won by A | mean score A-B | Elo A-B (95%) |")
    print("|---|---|---|---|---|---|---|---|")
    for (variant, a, b, worlds, budget), js in runs.items():
        n = sum(j["deals"] for j in js)
        share = sum(j["deal_share"] * j["deals"] for j in js) / n
        mean = sum(j["mean_diff"] * j["deals"] for j in js) / n
        se = math.sqrt(max(share * (1 - share), 0.25 / n) / n)
        budget_text = "%d ms" % budget if budget else str(worlds)
        seeds = ", ".join(str(j["seed"]) for j in js)
        print("| %s | %s vs %s | %s | %s | %d | %.1f%% | %+.1f | %+.0f (%+.0f to %+.0f) |" % (
            variant, a, b, budget_text, seeds, n, 100 * share, mean, elo(share, n),
            elo(share - 1.96 * se, n), elo(share + 1.96 * se, n)))


if __name__ == "__main__":
    main()
