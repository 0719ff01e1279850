// The one way an error becomes a message for a client: counted in the metrics by its code as it
// is made, so /metrics counts every error sent once, wherever it was found.
#pragma once

#include <memory>
#include <string>

#include "atout/protocol/messages.hpp"
#include "atout/server/metrics.hpp"

namespace atout::server {

// `counts` may be null (a table built without metrics, in tests).
inline std::shared_ptr<const std::string> error_wire(const protocol::Error& e, const protocol::RequestId& id,
                                                     Metrics* counts) {
  if (counts) counts->count_error(e.code);
  return std::make_shared<const std::string>(protocol::serialize(e, id));
}

}  // namespace atout::server
