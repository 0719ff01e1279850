"""What the soak's modules share: its limits and timings, and reading cards in messages."""

import itertools
import socket

REQUEST_IDS = itertools.count(1)
PSQL = "/usr/bin/psql"
REDIS_SERVER = "/usr/bin/redis-server"
RANKS = "789TJQKA"
SUITS = "CDHS"
KILL_LOSS_WINDOW_S = 1.0  # docs/operations.md: an acknowledged action is committed within one second
# An acknowledgement read just after a kill was sent just before it: the client reads what was
# already in its socket when the server died.
READ_LAG_S = 2.0
WARMUP_S = 8.0  # after each (re)start, before RSS and fds count as warm
RSS_GROWTH_LIMIT_KB = 64 * 1024  # SQLite's page cache alone may legitimately grow by 64 MiB
RSS_GROWTH_FACTOR = 1.5
FD_GROWTH_LIMIT = 32  # the soak's connections are bounded; more fds than that is a leak
LEASE_MS = 1500  # a cluster node's table leases: short, so that a killed node's tables move soon
# On a cluster: a killed node's tables are taken over within about two leases (docs/protocol.md),
# plus a restarted node's start; a player still told unknown_table after this long is a failure.
TAKEOVER_LIMIT_S = 30.0
# docs/protocol.md: a connection that closes within 10 s after its match ended keeps its seat (the
# end may not have reached it). A player that let go of its connection later than this after the
# end was there for it, so no seat is held; the margin covers the close reaching the node late on
# a loaded machine.
END_HELD_S = 10.0 - 5.0


def parse_card(s):
    """A card name as the server reads it ("JS", "10H", "th"), or None."""
    s = s.upper()
    if len(s) == 3 and s.startswith("10"):
        s = "T" + s[2]
    if len(s) == 2 and s[0] in RANKS and s[1] in SUITS:
        return s
    return None


def cards_in(text):
    """Every JSON string value of the text that reads as a card; keys are skipped. The same scan
    as tests/server/card_scan.hpp, so the soak applies the hidden-information test's rule."""
    out = set()
    i = 0
    n = len(text)
    while True:
        i = text.find('"', i)
        if i < 0:
            break
        end = i + 1
        while end < n and text[end] != '"':
            end += 2 if text[end] == "\\" else 1
        if end >= n:
            break
        s = text[i + 1:end]
        after = end + 1
        while after < n and text[after] == " ":
            after += 1
        is_key = after < n and text[after] == ":"
        if not is_key and len(s) in (2, 3):
            c = parse_card(s)
            if c:
                out.add(c)
        i = end + 1
    return out


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
