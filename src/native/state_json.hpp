// The whole state of a compiled hand in the JSON form of chuanma.engine.state.HandState
// ("chuanma-state/1"), both ways: what a server stores to resume a hand.
#pragma once

#include <nanobind/nanobind.h>

#include <string>

#include "reducer.hpp"

namespace chuanma {

// Tiles (a bit by tile) as text, "123m45p".
std::string format_mask(TileMask tiles);
// Event `seq` of the hand as the Python engine logs it: [seq, type, seat, data, private, visibility].
nanobind::list event_json(const Reducer& hand, int seq);
// HandState.to_dict() of the hand: every field, the events' payloads included.
nanobind::dict state_to_dict(const Reducer& hand);
// The hand of a state in that form (ValueError for another format).
HandState state_from_dict(nanobind::handle data);

}  // namespace chuanma
