// Error texts that both stores give, so that a caller sees the same words whichever store it runs on.
#pragma once

#include <string>

namespace atout::store {

// A write named a match the store does not hold.
inline std::string no_match(const std::string& uid) { return "no match '" + uid + "' in the store"; }

}  // namespace atout::store
