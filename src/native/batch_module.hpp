// The bindings of the seat view, its compact encoding and the batch of hands
// (chuanma._core.encode_compact, encode_compact_swapped, encode_compact_void_swapped, BatchHands).
#pragma once

#include <nanobind/nanobind.h>

namespace chuanma {

void bind_batch(nanobind::module_& m);

}  // namespace chuanma
