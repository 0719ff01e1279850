// Which web pages may open a WebSocket to the server: the browser names the page's origin in the
// upgrade request, and a page from another site must not play with its visitor's identity.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace atout::server {

class OriginPolicy {
 public:
  // `allowed`: the --allowed-origins list ("https://example.org", ...); "*" accepts any origin.
  // Always accepted: a request without an Origin (not a browser), and the server's own origin.
  explicit OriginPolicy(std::vector<std::string> allowed = {});
  // Splits "a,b,..." (spaces around the commas ignored); an entry that is not "*" nor
  // scheme://host[:port] gives `error`.
  static std::vector<std::string> parse_list(std::string_view text, std::string& error);

  // `origin`: the Origin header (empty: none). `scheme` and `host`: the request's own origin, its
  // scheme ("http" or "https", or what a proxy in front says in X-Forwarded-Proto) and Host header.
  bool allows(std::string_view origin, std::string_view scheme, std::string_view host) const;

 private:
  std::vector<std::string> allowed_;  // lower case, no trailing slash
  bool any_ = false;
};

}  // namespace atout::server
