// Protocol v1, whole: the shared basics (version, request ids, errors), client requests, server
// messages and the replies read from the store. Include the part you need, or this for all of it.
#pragma once

#include "atout/protocol/archive_messages.hpp"
#include "atout/protocol/basics.hpp"
#include "atout/protocol/requests.hpp"
#include "atout/protocol/server_messages.hpp"
