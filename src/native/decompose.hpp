// Every reading of a complete hand: sets and a pair, seven pairs, or 十三幺.
#pragma once

#include <cstdint>
#include <vector>

namespace chuanma {

// The most sets of counts read_hand takes (four parts of at most 14 tiles).
constexpr int kReadingItems = 18;

enum class Form : std::uint8_t { kStandard, kSevenPairs, kThirteenOrphans };

// One reading. Standard: `pair` and the sets as codes 2*tile (a triplet) or 2*tile+1 (a sequence,
// `tile` its lowest), lowest tile first, a triplet before the sequences of its tile. Seven pairs: the
// pairs' tiles ascending (a tile held four times twice), `pair` -1. 十三幺: `pair` the kind held twice.
struct Reading {
    Form form;
    int pair;
    int size;
    std::int8_t items[kReadingItems];
};

// Every reading of `len` counts (3n+2 tiles): the standard ones by pair ascending, each multiset of
// sets once, then seven pairs (14 tiles, all counts even); a 十三幺 hand has only its own. Empty for
// an incomplete hand or counts that read_hand refuses.
std::vector<Reading> decompositions(const std::uint8_t* k, int len);

}  // namespace chuanma
