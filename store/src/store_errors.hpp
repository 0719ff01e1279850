// Error texts that both stores give, so that a caller sees the same words whichever store it runs on.
#pragma once

#include <cstdint>
#include <string>

namespace atout::store {

// A write named a match the store does not hold.
inline std::string no_match(const std::string& uid) { return "no match '" + uid + "' in the store"; }

// A write from run `run` of a match's table, refused because the match was taken over by run
// `fence` or later (Store::take_over). `what` names the write ("action seq 46", "the match's end").
inline std::string fenced(const std::string& uid, std::int64_t run, std::int64_t fence, const std::string& what) {
  return "match '" + uid + "' was taken over by another run of its table (fence " + std::to_string(fence) +
         "): refused " + what + " from run " + std::to_string(run);
}

}  // namespace atout::store
