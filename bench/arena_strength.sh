#!/usr/bin/env bash
# Bot strength in every variant: one `atout arena` run per pairing, and a table of the results.
#
#   bash bench/arena_strength.sh ATOUT_BINARY PAIRING DEALS [WORLDS] [MATCHES]
#
# PAIRING is rules-random, random-random (the baseline: it should be near 0) or sampling-rules.
# Each run's JSON line goes to stderr as it ends; stdout gets a Markdown table, a row per variant. The seed
# is 1, so the same binary gives the same figures.
set -euo pipefail

atout=${1:?atout binary}
pairing=${2:?rules-random, random-random or sampling-rules}
deals=${3:?deals per variant}
worlds=${4:-20}
matches=${5:-0}
a=${pairing%-*}
b=${pairing#*-}

for variant in french coinche belot bazar duel simple; do
  "$atout" arena --variant "$variant" --a "$a" --b "$b" --deals "$deals" --seed 1 --worlds "$worlds" \
    --matches "$matches" | tail -n 1
done | tee /dev/stderr | /usr/bin/env python3 -c '
import json, sys
print("| variant | A vs B | deals | mean score A-B per deal | deals won by A | hands won by A | matches won by A | Elo A-B (95%) |")
print("|---|---|---|---|---|---|---|---|")
for line in sys.stdin:
    j = json.loads(line)
    matches = "%.1f%% of %d" % (100 * j["match_share"], j["matches"]) if "matches" in j else "not played"
    print("| %s | %s vs %s | %d | %+.1f | %.1f%% | %.1f%% | %s | %+.0f (%+.0f to %+.0f) |" % (
        j["variant"], j["a"], j["b"], j["deals"], j["mean_diff"], 100 * j["deal_share"],
        100 * j["hand_share"], matches, j["elo"], j["elo_low"], j["elo_high"]))
'
