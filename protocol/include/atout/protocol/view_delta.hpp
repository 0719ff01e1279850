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
// changed, recursively for objects, `null` for a key that is gone, other values whole — except
// that an array is sent in the shortest of these forms, the key followed by an operation:
//   "key+": [elements]     the array grew: these elements are appended;
//   "key-": [indices]      the array lost these elements (ascending indices into the old array);
//   "key#": [[k1, k2, ...], [v1, v2, ...], ...]
//                          the array whole, as a table of objects: the first row names the keys,
//                          each other row is one object's values in that order, null where the
//                          object has no such key;
// or else whole, under the plain key. `next` must hold no `null` and no key ending in "+", "-" or
// "#" (views never do), or the patch could not say it.
json view_delta(const json& previous, const json& next);

// `view` with `delta` applied. A delta that is not an object, or an array operation that does not
// fit (an append or removal on something that is not an array, an index out of order or out of
// range, a malformed table), is refused (nullopt).
std::optional<json> apply_view_delta(json view, const json& delta);

// A `delta` message: the event `seq` at `table_id`, as the change from the recipient's event
// `base`. The patch's keys sit in the message itself, beside `type` and `table_id` (a view has no
// key of the frame: `type`, `table_id`, `seq`, `base`, `id`). `seq` and `base` are both left out
// when `base` is `seq - 1`, as it always is in live play: the event is then the one after the
// recipient's last. `id` as for an event (hello's `ack: "event"`, the actor's own copy).
struct Delta {
  std::string table_id;
  std::uint64_t seq = 0;
  std::uint64_t base = 0;
  json patch;
  RequestId id;
};
json to_json(const Delta& d);
std::string serialize(const Delta& d);

// The whole `event` a `delta` message stands for, rebuilt on `held`: the last event (whole, or
// itself rebuilt) the connection got at that table. nullopt when the message is for another table
// or builds on another event than `held`, or when its patch does not fit (apply_view_delta).
std::optional<json> rebuild_event(const json& held, const json& delta_message);

}  // namespace atout::protocol
