// Shared option specs.
#include "option_specs.hpp"

namespace atout {

OptionSpec boolean_option(std::string name, bool def, std::string desc, std::string source) {
  OptionSpec s;
  s.name = std::move(name);
  s.type = OptionType::boolean;
  s.default_value = def;
  s.description = std::move(desc);
  s.source = std::move(source);
  return s;
}

OptionSpec integer_option(std::string name, int def, std::vector<int> allowed, std::string desc, std::string source) {
  OptionSpec s;
  s.name = std::move(name);
  s.type = OptionType::integer;
  s.default_value = def;
  s.allowed_integers = std::move(allowed);
  s.description = std::move(desc);
  s.source = std::move(source);
  return s;
}

OptionSpec range_option(std::string name, int def, int min, int max, std::string desc, std::string source) {
  OptionSpec s;
  s.name = std::move(name);
  s.type = OptionType::integer;
  s.default_value = def;
  s.min = min;
  s.max = max;
  s.description = std::move(desc);
  s.source = std::move(source);
  return s;
}

OptionSpec choice_option(std::string name, std::string def, std::vector<std::string> choices, std::string desc,
                         std::string source) {
  OptionSpec s;
  s.name = std::move(name);
  s.type = OptionType::choice;
  s.default_value = std::move(def);
  s.choices = std::move(choices);
  s.description = std::move(desc);
  s.source = std::move(source);
  return s;
}

OptionSpec deal_option() {
  return choice_option(
      "deal", "shuffle", {"shuffle", "cut"},
      "shuffle: a fresh shuffle each deal; cut: the last deal's cards, gathered in order and cut",
      "French rules as commonly published cut the pack and never shuffle; a fresh shuffle suits online play");
}

OptionSpec declare_option() {
  return choice_option("declare", "auto", {"auto", "manual"},
                       "auto: each seat's best combinations are declared for it; manual: announce before your first "
                       "card and show before your second, as actions",
                       "house choice for every variant; docs/rules/README.md");
}

}  // namespace atout
