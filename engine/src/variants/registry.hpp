// One entry per variant file; variants.cpp lists them in the registry.
#pragma once

#include "atout/state.hpp"

namespace atout {

VariantInfo french_variant();
VariantInfo duel_variant();
VariantInfo coinche_variant();
VariantInfo belot_variant();
VariantInfo bazar_variant();
VariantInfo simple_variant();

}  // namespace atout
