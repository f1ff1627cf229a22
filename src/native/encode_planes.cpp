#include "encode_planes.hpp"

#include <algorithm>
#include <array>

namespace chuanma {
namespace {

using namespace compact;
// The first channel of each part, and a relative seat's channels from kSeatAt + r * kSeatChannels.
constexpr int kUnseenAt = 7, kSeatAt = 11, kSeatChannels = 8 + kRecent, kScalarsAt = kSeatAt + 4 * kSeatChannels;
static_assert(kScalarsAt + kCompactScalars == kPlanesChannels);
// A seat's channels: melds, river at least 1-4, win pile, shown hand, its recent discards, its void.
enum SeatChannel { kMeldsAt, kRiverAt, kPileAt = 5, kShownAt, kDiscardsAt, kVoidChannel = kDiscardsAt + kRecent };

// Channels `at`… hold at least 1, 2, 3, 4 copies of each kind counted in `counts`.
void at_least(const float* counts, int k, float* at) {
    for (int n = 0; n < 4; ++n)
        for (int t = 0; t < k; ++t) at[n * k + t] = counts[t] >= static_cast<float>(n + 1);
}

}  // namespace

void encode_planes(const SeatView& v, float* out) {
    const int k = v.kinds;
    std::array<float, compact_size(34)> flat;
    encode_compact(v, flat.data());
    const float* sc = flat.data() + kCompactRows * k;
    auto row = [&](int r) { return flat.data() + r * k; };
    auto channel = [&](int c) { return out + c * k; };
    std::fill(out, out + kScalarsAt * k, 0.0f);
    at_least(row(kHand), k, channel(0));
    std::copy_n(row(kDrawn), k, channel(4));
    std::copy_n(row(kExchangeRow), k, channel(5));
    std::copy_n(row(kClaimRow), k, channel(6));
    at_least(row(kUnseen), k, channel(kUnseenAt));
    for (int r = 0; r < kSeats; ++r) {
        const int seat_row = kSeatRows + 4 * r;
        float* ch = channel(kSeatAt + r * kSeatChannels);
        for (int t = 0; t < k; ++t) ch[kMeldsAt * k + t] = row(seat_row + kMelds)[t] / 4;
        at_least(row(seat_row + kRiver), k, ch + kRiverAt * k);
        std::copy_n(row(seat_row + kPile), k, ch + kPileAt * k);
        for (int t = 0; t < k; ++t) ch[kShownAt * k + t] = row(seat_row + kShown)[t] / 4;
        const PlayerView& p = v.players[(v.seat + r) % kSeats];
        for (int i = 0; i < kRecent; ++i)
            if (p.recent[i] != kNoTile) ch[(kDiscardsAt + i) * k + p.recent[i]] = 1;
        const float* void_of = sc + r * kSeatScalars + kVoidAt;
        for (int suit = 0; suit < 3; ++suit) std::fill_n(ch + kVoidChannel * k + 9 * suit, 9, void_of[suit]);
    }
    for (int i = 0; i < kCompactScalars; ++i) std::fill_n(channel(kScalarsAt + i), k, sc[i]);
}

}  // namespace chuanma
