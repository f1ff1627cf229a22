// The hand-analysis tables: built from the definition of a set and a pair on first use.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace chuanma {

constexpr int kMaxSets = 4;      // the most sets a hand needs
constexpr int kMaxTiles = 14;    // the most concealed tiles a hand holds
constexpr int kSets = kMaxSets + 1;
constexpr int kCap = 20;         // distances are capped here
constexpr int kSuitKinds = 9;
constexpr int kHonourKinds = 7;
constexpr int kSuited = 27;
constexpr int kKinds = 34;

// What the tables know of one part of a hand (a suit's nine counts, or the seven honours'):
// its distance class, whether it is complete (1: with no pair, 4: with one pair, else 0) and
// the ranks whose addition completes it with no pair (wait0) or with one pair (wait1).
struct Part {
    std::uint32_t cls : 8;
    std::uint32_t win : 3;
    std::uint32_t wait0 : 9;
    std::uint32_t wait1 : 9;
};

// Tiles needed to reach m sets and h pairs (m 0-4, h 0-1), by distance class.
using Distances = std::array<std::int8_t, 2 * kSets>;

struct Tables {
    std::vector<Part> suit;      // by base-5 code of nine counts (rank 1 the most significant digit)
    std::vector<Part> honour;    // by base-5 code of seven counts
    std::vector<std::uint16_t> join2, join3, join4;  // classes of two suits, three, three and the honours
    int n2 = 0, n3 = 0, nz = 0;   // numbers of classes: a suit, two suits, the honours
    std::vector<std::int8_t> final;  // by joined class and m: tiles needed for m sets and one pair
};

// The tables, built on the first call (thread-safe; a fraction of a second).
const Tables& tables();

// Whether tables() has built them (in this process, or in the parent it was forked from).
bool tables_built();

}  // namespace chuanma
