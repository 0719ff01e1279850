// The compiled parts of Asio (its OpenSSL layer too) and Beast, built once for the whole server
// (separate compilation). GCC 12 at -O2 reports a maybe-uninitialized boost::optional inside
// Beast's HTTP parser, a known false positive that -Werror would turn into a failed build; it is
// silenced for Boost alone.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <boost/asio/impl/src.hpp>
#include <boost/asio/ssl/impl/src.hpp>
#include <boost/beast/src.hpp>
#pragma GCC diagnostic pop
