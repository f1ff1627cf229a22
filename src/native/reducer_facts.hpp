// Small facts the reducer's parts share: suits, masks, the wall's zones.
#pragma once

#include <algorithm>
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
// Whether `t` might complete `h` (3n+1; with `drawn` 1, `h` holds `t` as its 3n+2nd tile): `h`
// holds a copy or a neighbour (two ranks; an honour has none) of it, or `t` is an orphan and `h`
// holds 東 or 南 (a ready 十三幺 holds one). Else `t` completes nothing: no win check need run.
inline bool may_complete(const std::array<std::uint8_t, 34>& h, int t, int drawn = 0) {
    const int lo = t < 27 ? t - std::min(t % 9, 2) : t, hi = t < 27 ? t + std::min(8 - t % 9, 2) : t;
    for (int x = lo; x <= hi; ++x)
        if (h[x] > (x == t ? drawn : 0)) return true;
    const bool orphan = t >= 27 || t % 9 == 0 || t % 9 == 8;
    return orphan && h[27] + h[28] > 0;
}
// What a win of `fan` fan is paid: 2 ** fan base (each payer of a self-drawn win). The rules the
// core takes keep every total within kMaxTotal (score.hpp), so the shift cannot overflow.
inline std::int64_t multiplier(int fan) { return std::int64_t{1} << fan; }
// The other seats in play order.
inline int after(int seat, int i) { return (seat + 1 + i) % kSeats; }

}  // namespace chuanma
