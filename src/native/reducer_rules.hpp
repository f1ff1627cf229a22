// Small facts the reducer's parts share: suits, masks, the wall's zones.
#pragma once

#include <array>
#include <cstdint>

#include "state.hpp"

namespace chuanma {

constexpr int kDealEnd = 53;  // index of the first live draw; the dealer's 14th tile is the one before
constexpr int kLastFour = 3;  // the last-four zone: the wall holds this many tiles or fewer
constexpr int kNoKong = 4;    // no_kong_in_last_four: no kong once the wall holds this many or fewer

inline TileMask bit(int t) { return TileMask{1} << t; }
inline int suit_of(int t) { return t / 9; }  // 3: the honours
inline bool holds_suit(const std::array<std::uint8_t, 34>& h, int suit) {
    if (suit < 0) return false;
    for (int t = 9 * suit; t < 9 * suit + 9; ++t)
        if (h[t]) return true;
    return false;
}
// The other seats in play order.
inline int after(int seat, int i) { return (seat + 1 + i) % kSeats; }

}  // namespace chuanma
