// Random-policy hands played inside the core (a benchmark of the reducer).
#pragma once

#include <cstdint>

#include "rules.hpp"

namespace chuanma {

// Plays `hands` hands from `seed`: each on a shuffled wall with a random dealer and exchange
// direction, every decision a uniform choice among the legal actions of a seat to act. Returns the
// decisions made.
std::int64_t play_random(const Rules& rules, std::uint64_t seed, int hands);

}  // namespace chuanma
