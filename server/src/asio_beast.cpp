// The compiled parts of Asio and Beast, built once for the whole server (separate compilation).
#include <boost/asio/impl/src.hpp>
#include <boost/beast/src.hpp>
