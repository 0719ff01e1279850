// Percent-decoding by Boost.URL, compiled here once (separate compilation of its sources).
#include "atout/server/percent_decoding.hpp"

#include <boost/url/pct_string_view.hpp>
#include <boost/url/src.hpp>

namespace atout::server {

std::optional<std::string> percent_decoded(std::string_view segment) {
  const auto checked = boost::urls::make_pct_string_view(segment);
  if (checked.has_error()) return std::nullopt;
  return checked->decode();
}

}  // namespace atout::server
