// Incremental shanten: one hand and its one-tile changes (a bot's look-ahead).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "hand.hpp"
#include "tables.hpp"

namespace chuanma {

// A change that is no hand: a tile not of the counts, a discard not held, a fifth copy drawn.
struct TileRefused : std::invalid_argument {
    using std::invalid_argument::invalid_argument;
};
// A hand of more than kMaxTiles tiles.
struct SizeRefused : std::invalid_argument {
    using std::invalid_argument::invalid_argument;
};

class HandEval {
public:
    // `counts` checked by the caller (read_hand); `vi` a suit index or kNoVoid. Throws SizeRefused
    // for more than kMaxTiles tiles; the changes below throw TileRefused or SizeRefused for a
    // change that is no hand.
    HandEval(const Hand& h, int vi);
    int shanten() const;
    int without(int t) const;          // after discarding t
    int swap(int t, int u) const;      // after discarding t and drawing u
    int with(int u) const;             // after drawing u
    // The tiles that, drawn after discarding t, lower `sh` (the shanten without t), ascending.
    std::vector<int> useful_tiles(int t, int sh) const;
    int kinds() const { return len_; }

private:
    int changed(int out, int in, int n) const;  // unchecked
    // Whether t is held, whether u can be drawn after discarding t (-1: none): inline, as every
    // change asks; the check_ functions throw the refusal when not.
    bool held(int t) const { return static_cast<unsigned>(t) < static_cast<unsigned>(len_) && counts_[t]; }
    bool drawable(int u, int t) const {
        return static_cast<unsigned>(u) < static_cast<unsigned>(len_) && counts_[u] - (u == t) < 4 &&
               (t >= 0 || n_ < kMaxTiles);
    }
    void check_held(int t) const;
    void check_drawn(int u, int t) const;
    std::uint8_t counts_[34];
    int len_;
    int code_[4];
    int n_;
    int vi_;
    Hand hand_;
};

}  // namespace chuanma
