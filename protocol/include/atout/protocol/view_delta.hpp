// Per-seat deltas: what changed in one recipient's view of a table between two of its events, and
// that view rebuilt from the previous one and a delta. Pure functions, no sockets: the server only
// chooses, per connection, whether an event goes out whole or as a delta (docs/protocol.md, Deltas).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "atout/protocol/basics.hpp"
#include "atout/protocol/server_messages.hpp"

namespace atout::protocol {

// The view an event carries: its JSON form without the fields that frame it (`type`, `table_id`,
// `seq` and `id`). A delta turns one such view into the next.
json event_view(const Event& e);

// The patch that turns `previous` into `next`: a JSON merge patch (RFC 7396) — the keys whose value
// changed, recursively for objects on both sides, `null` for a key that is gone, other values
// whole — except that an array that only grew at its end is sent as its new elements, under its
// key with "+" after it (`"tricks+": [...]`). `next` must hold no `null` and no key ending in "+"
// (views never do), or the patch could not say it.
json view_delta(const json& previous, const json& next);

// `view` with `delta` applied. A delta that is not an object, or that appends to something that is
// not an array, is refused (nullopt).
std::optional<json> apply_view_delta(json view, const json& delta);

// A `delta` message: the event `seq` at `table_id`, as the change from the recipient's event
// `base`. `id` as for an event (hello's `ack: "event"`, the actor's own copy).
struct Delta {
  std::string table_id;
  std::uint64_t seq = 0;
  std::uint64_t base = 0;
  json patch;
  RequestId id;
};
json to_json(const Delta& d);
std::string serialize(const Delta& d);

}  // namespace atout::protocol
