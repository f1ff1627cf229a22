// The bindings of the compiled reducer (chuanma._core.Rules, Hand, play_random).
#pragma once

#include <nanobind/nanobind.h>

#include "rules.hpp"

namespace chuanma {

void bind_reducer(nanobind::module_& m);
// Every option of a chuanma.rules.RuleSet, with `scoring` what the fan scoring reads of them
// (chuanma.scoring.score_options; RulesRefused unless it agrees with the RuleSet).
Rules rules_from(nanobind::handle rules, const ScoreOptions& scoring);
// The options as RuleSet.options() gives them (what the core took from the RuleSet).
nanobind::dict options_of(const Rules& rules);

}  // namespace chuanma
