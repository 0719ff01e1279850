// Building blocks for variants' option tables, shared so that common options read the same.
#pragma once

#include <string>
#include <vector>

#include "atout/state.hpp"

namespace atout {

OptionSpec boolean_option(std::string name, bool def, std::string desc, std::string source);
OptionSpec integer_option(std::string name, int def, std::vector<int> allowed, std::string desc, std::string source);
OptionSpec range_option(std::string name, int def, int min, int max, std::string desc, std::string source);
OptionSpec choice_option(std::string name, std::string def, std::vector<std::string> choices, std::string desc,
                         std::string source);

// `deal`: shuffle (default) or cut, as French rules deal from the gathered pack.
OptionSpec deal_option();
// `declare`: auto (the engine declares each seat's best combinations) or manual (announce and
// show are actions). Variants whose rules require announcing do not offer it: they are manual.
OptionSpec declare_option();

}  // namespace atout
