// The distance classes of every way a part of a hand can be held (generated at build time).
#pragma once

#include <cstdint>
#include <vector>

#include "tables.hpp"

namespace chuanma {

struct Classes {
    std::vector<std::uint8_t> of_code;  // by base-5 code (rank 1 the most significant digit)
    std::vector<Distances> rows;        // by class: tiles needed for m sets and h pairs
};

// Every vector of `kinds` counts 0-4 (with sequences: a suit; without: the honours).
Classes build_classes(int kinds, bool sequences);

}  // namespace chuanma
