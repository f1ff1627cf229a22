// The compact encoder (chuanma.encoding.compact, its layout in that module's docstring): a seat's
// view as counts per tile kind and scalars, one flat float32 row.
#pragma once

#include "view.hpp"

namespace chuanma {

constexpr int kCompactRows = 21;     // rows of counts, one per tile kind each
constexpr int kCompactScalars = 77;  // scalars after them

// The numbers of the compact encoding of a view with `kinds` tile kinds: 644 for 27, 791 for 34.
constexpr int compact_size(int kinds) { return kCompactRows * kinds + kCompactScalars; }

// Writes the compact encoding of `view` into `out` (compact_size(view.kinds) floats).
void encode_compact(const SeatView& view, float* out);

}  // namespace chuanma
