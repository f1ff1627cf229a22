#include "encode_compact.hpp"

#include <algorithm>

namespace chuanma {
namespace {

using namespace compact;
// Where the scalars after the seats' lie among the scalars.
constexpr int kPhaseAt = 4 * kSeatScalars, kFromAt = kPhaseAt + 7, kRobAt = kFromAt + 4, kDealerAt = kRobAt + 1,
              kCurrentAt = kDealerAt + 4, kWallAt = kCurrentAt + 4, kDirectionAt = kWallAt + 1,
              kXueliuAt = kDirectionAt + 3;
static_assert(kXueliuAt + 1 == kCompactScalars);
// The scales the layout gives (docs/rl.md), applied in double as the reference encoder in Python
// does, then stored as float.
constexpr double kHeldScale = 1.0 / 14, kScoreScale = 1.0 / 32, kWallScale = 1.0 / 108;
constexpr int kCopies = 4;

}  // namespace

void encode_compact(const SeatView& v, float* out) {
    const int k = v.kinds, me = v.seat;
    std::fill(out, out + compact_size(k), 0.0f);
    auto row = [&](int r) { return out + r * k; };
    float* sc = out + kCompactRows * k;
    float* hand = row(kHand);
    const PlayerView& mine = v.players[me];
    for (int t = 0; t < k; ++t) hand[t] = mine.hand[t];
    if (v.drawn != kNoTile) row(kDrawn)[v.drawn] = 1;
    if (v.exchange_shown)
        for (int t : v.exchange) row(kExchangeRow)[t] += 1;
    if (v.claim) {
        row(kClaimRow)[v.claim_tile] = 1;
        sc[kFromAt + relative(v.claim_from, me)] = 1;
        sc[kRobAt] = v.claim_rob;
    }
    for (int s = 0; s < kSeats; ++s) {
        const PlayerView& p = v.players[s];
        const int r = relative(s, me);
        float* melds = row(kSeatRows + 4 * r + kMelds);
        int hidden = 0;
        for (int i = 0; i < p.meld_count; ++i) {
            const Meld& m = p.melds[i];
            if (m.tile == kNoTile) {
                ++hidden;
            } else if (m.kind == MeldKind::kChow) {
                for (int j = 0; j < 3; ++j) melds[m.tile + j] += 1;
            } else {
                melds[m.tile] += m.kind == MeldKind::kKong ? 4 : 3;
            }
        }
        float* river = row(kSeatRows + 4 * r + kRiver);
        for (int t : p.river) river[t] += 1;
        float* pile = row(kSeatRows + 4 * r + kPile);
        for (int t : p.win_pile) pile[t] += 1;
        if (s != me && p.shown) {
            float* shown = row(kSeatRows + 4 * r + kShown);
            for (int t = 0; t < k; ++t) shown[t] = p.hand[t];
        }
        float* x = sc + r * kSeatScalars;
        x[kHeld] = static_cast<float>(p.tiles * kHeldScale);
        x[kHidden] = static_cast<float>(hidden);
        x[kWins] = static_cast<float>(p.wins);
        x[kOut] = p.out;
        x[kLeft] = p.left;
        x[kLocked] = p.locked;
        x[kVoidAt + (p.void_suit >= 0 ? p.void_suit : 3)] = 1;
        x[kVoidChosen] = p.void_chosen || p.void_suit >= 0;
        x[kExchangeChosen] = p.exchange_chosen || (s == me && v.exchange_shown);
        x[kScore] = static_cast<float>(static_cast<double>(v.totals[s]) * kScoreScale);
    }
    // unseen: every copy not in one's hand, any meld, river, win pile or shown hand
    float* unseen = row(kUnseen);
    for (int t = 0; t < k; ++t) {
        float seen = hand[t];
        for (int r = kSeatRows; r < kCompactRows; ++r) seen += out[r * k + t];
        unseen[t] = std::max(kCopies - seen, 0.0f);
    }
    sc[kPhaseAt + static_cast<int>(v.phase)] = 1;
    sc[kDealerAt + relative(v.dealer, me)] = 1;
    if (v.current >= 0) sc[kCurrentAt + relative(v.current, me)] = 1;
    sc[kWallAt] = static_cast<float>(v.wall * kWallScale);
    if (v.direction) sc[kDirectionAt + v.direction - 1] = 1;
    sc[kXueliuAt] = v.xueliu;
}

}  // namespace chuanma
