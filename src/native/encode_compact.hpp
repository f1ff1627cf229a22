// The compact encoder (its layout in chuanma.encoding.layout and docs/rl.md): a seat's
// view as counts per tile kind and scalars, one flat float32 row.
#pragma once

#include "view.hpp"

namespace chuanma {

constexpr int kCompactRows = 21;     // rows of counts, one per tile kind each
constexpr int kCompactScalars = 77;  // scalars after them

// Where things lie in a compact encoding (chuanma.encoding.layout).
namespace compact {
// Rows of counts: HAND, DRAWN, EXCHANGE, CLAIM, UNSEEN, then four per relative seat r from
// kSeatRows + 4 * r: MELDS, RIVER, PILE, SHOWN.
enum Row { kHand, kDrawn, kExchangeRow, kClaimRow, kUnseen, kSeatRows };
enum SeatRow { kMelds, kRiver, kPile, kShown };
// A seat's scalars (HELD…SCORE), relative seat r's from r * kSeatScalars.
enum SeatScalar { kHeld, kHidden, kWins, kOut, kLeft, kLocked, kVoidAt, kVoidChosen = 10, kExchangeChosen, kScore,
                  kSeatScalars };
}  // namespace compact

// The numbers of the compact encoding of a view with `kinds` tile kinds: 644 for 27, 791 for 34.
constexpr int compact_size(int kinds) { return kCompactRows * kinds + kCompactScalars; }

// Writes the compact encoding of `view` into `out` (compact_size(view.kinds) floats).
void encode_compact(const SeatView& view, float* out);

}  // namespace chuanma
