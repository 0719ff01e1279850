// The base of each variant's state: GameBase plus the one override every variant writes the same way.
#pragma once

#include <memory>

#include "game_base.hpp"

namespace atout {

// `Derived` is the variant's final class: clone() copies it whole, so no variant repeats it.
template <class Derived>
class VariantGame : public GameBase {
 public:
  using GameBase::GameBase;
  std::unique_ptr<State> clone() const override {
    return std::make_unique<Derived>(static_cast<const Derived&>(*this));
  }
};

}  // namespace atout
