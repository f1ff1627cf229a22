// The bindings of the seat view, its encodings and the batch of hands (chuanma._core.Hand.encode_compact,
// Hand.encode_planes, encode_swapped, encode_void_swapped, BatchHands); bound after Hand.
#pragma once

#include <nanobind/nanobind.h>

namespace chuanma {

void bind_batch(nanobind::module_& m);

}  // namespace chuanma
