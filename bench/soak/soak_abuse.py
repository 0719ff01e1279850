"""The soak's probes: frames that break the WebSocket protocol or the server's limits, sent by hand,
each with the answer docs/protocol.md promises."""

import asyncio
import base64
import json
import os
import socket
import struct
import time
import urllib.error
import urllib.request

import websockets

from soak_players import Conn, close_quietly


def raw_frame(opcode, payload, rsv=0):
    mask = os.urandom(4)
    head = bytes([0x80 | rsv | opcode])
    n = len(payload)
    if n < 126:
        head += bytes([0x80 | n])
    elif n < 65536:
        head += bytes([0x80 | 126]) + struct.pack("!H", n)
    else:
        head += bytes([0x80 | 127]) + struct.pack("!Q", n)
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def raw_close_code(port, frames):
    """Opens a WebSocket by hand, sends the frames, and returns the server's close code."""
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    try:
        key = base64.b64encode(os.urandom(16)).decode()
        s.sendall((f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                   f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        buf = b""
        while b"\r\n\r\n" not in buf:
            chunk = s.recv(4096)
            if not chunk:
                return "end of stream during the handshake"
            buf += chunk
        if b" 101 " not in buf.split(b"\r\n", 1)[0]:
            return "no upgrade: " + buf.split(b"\r\n", 1)[0].decode(errors="replace")
        buf = buf.split(b"\r\n\r\n", 1)[1]
        for f in frames:
            s.sendall(f)
        while True:
            while len(buf) < 2:
                chunk = s.recv(4096)
                if not chunk:
                    return "end of stream before a close frame"
                buf += chunk
            opcode = buf[0] & 0x0F
            n = buf[1] & 0x7F
            at = 2
            if n == 126:
                n, at = struct.unpack("!H", buf[2:4])[0], 4
            elif n == 127:
                n, at = struct.unpack("!Q", buf[2:10])[0], 10
            while len(buf) < at + n:
                chunk = s.recv(65536)
                if not chunk:
                    return "end of stream before a close frame"
                buf += chunk
            payload, buf = buf[at:at + n], buf[at + n:]
            if opcode == 8:
                return struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else 1005
    except OSError as e:
        return f"socket error {e!r}"
    finally:
        s.close()


async def abuse(soak, rng):
    """Floods, slow readers, oversized and malformed frames, each checked against the docs."""
    loop = asyncio.get_event_loop()
    while time.monotonic() < soak.deadline:
        await asyncio.sleep(rng.uniform(0.5, 2.0))
        gen = soak.mark()
        if gen is None:
            continue  # the server is down: nothing to probe
        what = rng.choice(["oversized", "utf8", "rsv", "flood_pings", "flood_lists", "bad_json", "slow", "http"])
        opened = []  # closed whatever happens: a probe cut short must not leave its connection open
        try:
            if what in ("oversized", "utf8", "rsv"):
                frame = {"oversized": raw_frame(1, b'{"type":"ping","pad":"' + b"x" * 17000 + b'"}'),
                         "utf8": raw_frame(1, b'{"type":"ping","x":"\xff\xfe"}'),
                         "rsv": raw_frame(1, b'{"type":"ping"}', rsv=0x40)}[what]
                want = {"oversized": 1009, "utf8": 1007, "rsv": 1002}[what]
                code = await loop.run_in_executor(None, raw_close_code, soak.port, [frame])
                ok = None if gen != soak.mark() else code == want
                soak.probe(what, ok, f"close code {code}, expected {want}")
            elif what == "flood_pings":
                c = Conn(soak, _ignore, None)
                opened.append(c)
                await c.open()
                try:
                    for _ in range(600):
                        await c.ws.send('{"type":"ping"}')
                except websockets.ConnectionClosed:
                    pass  # closed while still flooding: the expected end
                await asyncio.wait_for(c.closed.wait(), 15)
                ok = None if gen != soak.mark() else c.close_code == 1008
                soak.probe(what, ok, f"close code {c.close_code}, expected 1008")
            elif what == "flood_lists":
                seen = []

                async def keep(conn, text, msg):
                    seen.append(msg)

                c = Conn(soak, keep, None)
                opened.append(c)
                await c.open()
                await c.request({"type": "hello", "protocol": 1, "name": "flood"})
                # After hello, 18 pages of 100 (11 credits each) leave one of the 200 credits a
                # connection starts with: the 19th page gets too_fast, and the connection stays open
                # (docs/protocol.md). A 20th message at once would find no credit: a flood, closed.
                for i in range(19):
                    await c.ws.send(json.dumps({"type": "list_tables", "limit": 100, "id": 100 + i}))
                await asyncio.sleep(1)
                too_fast = sum(1 for m in seen if m.get("code") == "too_fast")
                pong = await c.request({"type": "ping"}) if not c.closed.is_set() else None
                ok = None if gen != soak.mark() else too_fast > 0 and (pong or {}).get("type") == "pong"
                soak.probe(what, ok, f"{too_fast} too_fast errors, then {pong}")
                await c.close()
            elif what == "bad_json":
                errors = []

                async def keep_errors(conn, text, msg):
                    if msg.get("type") == "error":
                        errors.append(msg.get("code"))

                c = Conn(soak, keep_errors, None)
                opened.append(c)
                await c.open()
                await c.request({"type": "hello", "protocol": 1, "name": "junk"})
                for frame in ['{"type": "ping", ', b"\x00\x01binary", "[1,2]", '{"type":"nope"}']:
                    await c.ws.send(frame)
                fut = await c.send({"type": "ping"})
                await asyncio.wait_for(fut, 10)
                pong = fut.result()
                want = ["bad_json", "bad_json", "bad_message", "unknown_type"]
                ok = None if gen != soak.mark() else pong.get("type") == "pong" and errors == want
                soak.probe(what, ok, f"after bad frames: errors {errors} (expected {want}), then {pong}")
                await c.close()
            elif what == "slow":
                # Watches the busiest tables and the lobby, then stops reading for a while.
                ws = await websockets.connect(soak.url, max_size=None, max_queue=1, read_limit=1024,
                                              ping_interval=None, open_timeout=5, close_timeout=2)
                opened.append(ws)
                await ws.send(json.dumps({"type": "hello", "protocol": 1, "name": "slow", "id": 1}))
                await ws.send(json.dumps({"type": "subscribe_lobby", "id": 2}))
                for t in list(soak.live_tables)[-5:]:
                    await ws.send(json.dumps({"type": "spectate", "table_id": t}))
                await asyncio.sleep(rng.uniform(5, 20))
                try:
                    while True:
                        await asyncio.wait_for(ws.recv(), 0.5)
                except (asyncio.TimeoutError, websockets.ConnectionClosed):
                    pass
                await close_quietly(ws)
                soak.probe(what, None if gen != soak.mark() else True)
            elif what == "http":
                codes = await loop.run_in_executor(None, http_flood, soak.port)
                ok = None if gen != soak.mark() else 429 in codes and set(codes) <= {200, 429}
                soak.probe(what, ok, f"HTTP codes {sorted(set(codes))}, expected 200s then 429")
        except (OSError, asyncio.TimeoutError, websockets.WebSocketException, ConnectionError) as e:
            soak.probe(what, None if gen != soak.mark() else False,
                       f"the connection failed: {e!r}")
        finally:
            for c in opened:
                await (c.close() if isinstance(c, Conn) else close_quietly(c))


async def _ignore(conn, text, msg):
    pass


def http_flood(port):
    codes = []
    for _ in range(40):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/variants", timeout=5) as r:
                codes.append(r.status)
        except urllib.error.HTTPError as e:
            codes.append(e.code)
        except OSError:
            codes.append(0)
    return codes
