// Per-seat deltas: what changed in one recipient's view of a table between two of its events, and
// that view rebuilt from the previous one and a delta. Pure functions, no sockets: the server only
// chooses, per connection, whether an event goes out whole or as a delta (docs/protocol.md, Deltas).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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

// A recipient's view kept as the text of its event (serialize(Event)), the server's base for that
// recipient's next delta: smaller to hold than a tree, and compared without being parsed. The text
// is shared, so the frame that carried the event whole can be the same string.
class ViewText {
 public:
  // One member of a JSON object's text, as offsets into text(): its key as written (between the
  // quotes), its value, and when the value is an object, where its own members are in members()
  // (`begin` to `end`). Offsets rather than views: a held view is one per delta connection, and
  // this is 24 bytes where two string_views and the indices take 40.
  struct Member {
    std::uint32_t key_at = 0;
    std::uint32_t key_size = 0;
    std::uint32_t value_at = 0;
    std::uint32_t value_size = 0;
    std::uint32_t begin = 0;
    std::uint32_t end = 0;
  };

  // `event_text` must be an event as serialize(Event) writes it.
  explicit ViewText(std::shared_ptr<const std::string> event_text);

  const std::shared_ptr<const std::string>& text() const { return text_; }
  // The view's members, top level first (the event's less its frame keys, in the text's order:
  // `top()` of them), then the members of each object value, split once when the text is made.
  const std::vector<Member>& members() const { return members_; }
  std::uint32_t top() const { return top_; }
  std::string_view key(const Member& m) const { return std::string_view(*text_).substr(m.key_at, m.key_size); }
  std::string_view value(const Member& m) const { return std::string_view(*text_).substr(m.value_at, m.value_size); }

 private:
  std::shared_ptr<const std::string> text_;
  std::vector<Member> members_;
  std::uint32_t top_ = 0;
};

// The same patch as view_delta(event_view(a), event_view(b)) for the events a and b whose texts
// these are, worked out on the text: a member whose text did not change is skipped unread, an
// object whose text changed is compared member by member, and only the arrays and values that
// changed are parsed. About a fifth of the work of building and comparing trees.
json view_delta(const ViewText& previous, const ViewText& next);

// The `delta` message that turns `previous` into `next`, byte for byte what serialize(Delta) writes
// for their patch (below), written on text: unchanged members are not read, changed values are
// copied as they stand in `next`'s text (one text per value), and only an array sent as a table is
// parsed. What the server sends; about half the work of building the patch as a tree and writing it.
std::string serialize_delta(const ViewText& previous, const ViewText& next, const std::string& table_id,
                            std::uint64_t seq, std::uint64_t base, const RequestId& id);

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
// The same, taking the patch over rather than copying it.
std::string serialize(Delta&& d);

// The whole `event` a `delta` message stands for, rebuilt on `held`: the last event (whole, or
// itself rebuilt) the connection got at that table. nullopt when the message is for another table
// or builds on another event than `held`, or when its patch does not fit (apply_view_delta).
std::optional<json> rebuild_event(const json& held, const json& delta_message);

}  // namespace atout::protocol
