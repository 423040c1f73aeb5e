// The doctest runner for the native suite (tests/cpp/test_*.cpp).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
