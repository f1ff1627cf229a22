// The planes encoder (its layout in chuanma.encoding.layout and docs/rl.md): a seat's
// view as channels × tile kinds, made from its compact encoding and each seat's recent discards.
#pragma once

#include "encode_compact.hpp"

namespace chuanma {

constexpr int kPlanesChannels = 144;

// The numbers of the planes encoding of a view with `kinds` tile kinds: 144 × kinds.
constexpr int planes_size(int kinds) { return kPlanesChannels * kinds; }

// Writes the planes encoding of `view` into `out` (planes_size(view.kinds) floats, channel by channel).
void encode_planes(const SeatView& view, float* out);

}  // namespace chuanma
