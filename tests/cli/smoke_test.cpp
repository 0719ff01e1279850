#include <gtest/gtest.h>
TEST(CliSmoke, Exists) { EXPECT_TRUE(true); }
