// The bindings of the compiled reducer (chuanma._core.Rules, Hand, play_random).
#pragma once

#include <nanobind/nanobind.h>

#include "rules.hpp"

namespace chuanma {

void bind_reducer(nanobind::module_& m);
// Every option of a chuanma.rules.RuleSet (its fan scoring's options not included).
Rules rules_from(nanobind::handle rules);
// The options as RuleSet.options() gives them (what the core took from the RuleSet).
nanobind::dict options_of(const Rules& rules);

}  // namespace chuanma
