// The bindings of the compiled reducer (chuanma._core.Rules, Hand, play_random).
#pragma once

#include <nanobind/nanobind.h>

namespace chuanma {

void bind_reducer(nanobind::module_& m);

}  // namespace chuanma
