// Single-hand analysis: win check, shanten, waits, 十三幺, over counts of 27 or 34 tile kinds.
#pragma once

#include <cstdint>

namespace chuanma {

// Results below -1 are refusals, for the facade to explain.
constexpr int kBadCounts = -100;  // not 27 or 34 counts of 0-4, or a part of more than 14 tiles
constexpr int kBadSize = -101;    // a hand size the function does not take
constexpr int kBadVoid = -102;    // a void that is not a suit index
constexpr int kNoVoid = -1;

// The counts of a hand, checked, split into its four parts (the honours' empty for 27 kinds).
struct Hand {
    const std::uint8_t* k;
    int len;
    int code[4];
    int n;        // tiles
    int honours;  // honour tiles
};

// Fills `h` from `len` counts; false when they are not 27 or 34 counts of 0-4, or a part of more
// than 14 tiles.
bool read_hand(const std::uint8_t* k, int len, Hand& h);

bool is_win(const std::uint8_t* k, int len);
bool is_thirteen_orphans(const std::uint8_t* k, int len);
int thirteen_orphans_distance(const std::uint8_t* k, int len);

// Shanten of the best form with `void` (a suit index, or kNoVoid); the codes of the parts given.
int shanten_of(const Hand& h, const int code[4], int n, int vi);
int shanten(const std::uint8_t* k, int len, int vi);
int shanten_standard(const std::uint8_t* k, int len, int vi);
int shanten_seven_pairs(const std::uint8_t* k, int len, int vi);
int shanten_thirteen_orphans(const std::uint8_t* k, int len);

// The tiles completing a 3n+1 hand as a bit mask; a refusal code (negative) on bad input.
std::int64_t waits(const std::uint8_t* k, int len, int vi);
// waits() less the tiles of which the hand and its melds (`melded`: the copies of each of the `len`
// tiles the melds hold) already hold all four.
std::int64_t waits_beside(const std::uint8_t* k, int len, int vi, const int* melded);

}  // namespace chuanma
