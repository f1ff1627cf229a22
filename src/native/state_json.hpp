// The whole state of a compiled hand in the JSON form of chuanma.engine.state.HandState
// ("chuanma-state/1"), both ways: what a server stores to resume a hand; and a seat's view as
// Python data.
#pragma once

#include <nanobind/nanobind.h>

#include <string>

#include "reducer.hpp"
#include "view.hpp"

namespace chuanma {

// Tiles (a bit by tile) as text, "123m45p".
std::string format_mask(TileMask tiles);
// Event `seq` of the hand as the Python engine logs it: [seq, type, seat, data, private, visibility].
nanobind::list event_json(const Reducer& hand, int seq);
// The events from `since` on as chuanma.engine.events.Event objects (event_json's items).
nanobind::list logged_events(const Reducer& hand, int since);
// HandState.to_dict() of the hand: every field, the events' payloads included.
nanobind::dict state_to_dict(const Reducer& hand);
// The hand of a state in that form: a ValueError naming the field for anything malformed (another
// format, a value out of range or of the wrong type, tiles that are not the whole set).
HandState state_from_dict(nanobind::handle data);
// The view `v` (of a hand under `rules`) as the tuple chuanma.engine.views.seat_view makes a
// SeatView of: tiles as ints, the records it rebuilds in their JSON form.
nanobind::tuple view_parts(const Rules& rules, const SeatView& v);

}  // namespace chuanma
