#include <gtest/gtest.h>
#include "atout/state.hpp"
TEST(Smoke, Creates) {
  atout::Record r; r.variant = "french"; r.deal.seed = atout::Seed{1, 2};
  auto c = atout::create_state(r);
  ASSERT_TRUE(c.state);
}
