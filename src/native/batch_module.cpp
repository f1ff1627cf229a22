#include "batch_module.hpp"

#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>

#include <cstdint>
#include <string>

#include "actions.hpp"
#include "batch.hpp"
#include "encode_compact.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace chuanma {
namespace {

template <typename T, typename... Shape>
using Array = nb::ndarray<T, nb::c_contig, nb::device::cpu, Shape...>;
using Row = Array<float, nb::ndim<1>>;

void check_seat(int seat) {
    if (seat < 0 || seat >= kSeats) throw nb::value_error("seats are 0-3");
}

// The compact encoding of what `seat` may see of `st` into `out`.
void encode_into(const HandState& st, int seat, Row& out) {
    check_seat(seat);
    if (static_cast<int>(out.shape(0)) != compact_size(st.rules.kinds()))
        throw nb::value_error(("out must hold " + std::to_string(compact_size(st.rules.kinds())) + " floats").c_str());
    SeatView view;
    redact(st, seat, view);
    encode_compact(view, out.data());
}

// A copy of `hand`'s state to change what `seat` may not know of `other`.
HandState copy_for(const Reducer& hand, int seat, int other) {
    check_seat(other);
    if (other == seat) throw nb::value_error("the other seat is the viewer");
    return hand.state();
}

// Checks that array `a` has `rows` rows of `cols` items (cols 0: one dimension).
template <typename A>
void check_shape(const A& a, std::size_t rows, std::size_t cols, const char* what) {
    const bool ok = a.shape(0) == rows && (cols == 0 ? a.ndim() == 1 : a.ndim() == 2 && a.shape(1) == cols);
    if (!ok) {
        std::string want = "(" + std::to_string(rows) + (cols ? ", " + std::to_string(cols) : std::string(",")) + ")";
        throw nb::value_error((std::string(what) + " must have shape " + want).c_str());
    }
}

using Observations = Array<float, nb::ndim<2>>;
using Masks = Array<std::int8_t, nb::ndim<2>>;
using Seats = Array<std::int64_t, nb::ndim<1>>;

// Where the batch writes, once the arrays are checked to fit it.
BatchOut outputs(const BatchHands& b, Observations& observations, Masks& masks, Seats& seats,
                 float* rewards = nullptr, bool* done = nullptr) {
    const std::size_t n = b.size();
    check_shape(observations, n, b.observation_size(), "observations");
    check_shape(masks, n, kActionCount, "masks");
    check_shape(seats, n, 0, "seats");
    return {observations.data(), masks.data(), seats.data(), rewards, done};
}

}  // namespace

void bind_batch(nb::module_& m) {
    m.def("encode_compact",
          [](const Reducer& hand, int seat, Row out) {
              encode_into(hand.state(), seat, out);
          },
          "hand"_a, "seat"_a, "out"_a,
          "Write the compact encoding of what `seat` may see of `hand` into `out` (644 or 791 floats).");
    m.def("encode_compact_swapped",
          [](const Reducer& hand, int seat, int other, int tile, int at, Row out) {
              HandState swapped = copy_for(hand, seat, other);
              if (at < swapped.live || at > swapped.tail) throw nb::value_error("not a tile of the live wall");
              if (tile < 0 || tile > 33 ||
                  swapped.seats[other].hand[tile] <= (swapped.won[other] ? swapped.shown[other][tile] : 0))
                  throw nb::value_error("not a concealed tile of the other seat that no win laid open");
              const int u = swapped.wall[at];
              Seat& s = swapped.seats[other];
              s.add(tile, -1);
              s.add(u, 1);
              if (s.drawn == tile) s.drawn = u;
              swapped.wall[at] = static_cast<std::uint8_t>(tile);
              encode_into(swapped, seat, out);
          },
          "hand"_a, "seat"_a, "other"_a, "tile"_a, "at"_a, "out"_a,
          "As encode_compact, of a copy of `hand` in which `other`'s concealed `tile` (not laid open at a "
          "win) and the live wall's tile at index `at` have changed places: what `seat` may not know.");

    m.def("encode_compact_void_swapped",
          [](const Reducer& hand, int seat, int other, int suit, Row out) {
              HandState swapped = copy_for(hand, seat, other);
              if (swapped.phase != Phase::kVoid || swapped.void_chosen[other])
                  throw nb::value_error("the other seat's void is no secret now");
              if (suit < -1 || suit > 2) throw nb::value_error("suit must be 0-2, or -1 for none chosen");
              swapped.seats[other].void_suit = suit;
              encode_into(swapped, seat, out);
          },
          "hand"_a, "seat"_a, "other"_a, "suit"_a, "out"_a,
          "As encode_compact, of a copy of `hand` in 定缺 in which `other`'s secret void (undecided, or "
          "chosen for a hand of two suits) is `suit` (-1: undecided): what `seat` may not know.");

    nb::class_<BatchHands>(m, "BatchHands",
                           "Hands at `n` tables stepped together; a finished hand is dealt again at once. "
                           "Observations are compact encodings of the seat asked at each table.")
        .def(nb::init<const Rules&, int, bool, float>(), "rules"_a, "n"_a, "event"_a, "scale"_a,
             "`event`: reward each step's change of the results (else the hand's result when it ends); "
             "`scale` multiplies rewards.")
        .def_prop_ro("n", &BatchHands::size, "Tables.")
        .def_prop_ro("observation_size", &BatchHands::observation_size, "Floats in an observation.")
        .def_prop_ro("hands", &BatchHands::hands, "Hands finished since the last reset.")
        .def("reset",
             [](BatchHands& b, std::uint64_t seed, Observations observations, Masks masks, Seats seats) {
                 b.reset(seed, outputs(b, observations, masks, seats));
             },
             "seed"_a, "observations"_a, "masks"_a, "seats"_a,
             "Deal at every table (table i's generator seeded seed + i) and observe every table.")
        .def("step",
             [](BatchHands& b, Array<const std::int64_t, nb::ndim<1>> actions, Observations observations, Masks masks,
                Seats seats, Array<float, nb::ndim<2>> rewards,
                Array<bool, nb::ndim<1>> done) -> std::optional<std::string> {
                 const std::size_t n = b.size();
                 check_shape(actions, n, 0, "actions");
                 check_shape(rewards, n, kSeats, "rewards");
                 check_shape(done, n, 0, "done");
                 const BatchOut out = outputs(b, observations, masks, seats, rewards.data(), done.data());
                 if (auto why = b.refused(actions.data())) return why;
                 nb::gil_scoped_release release;
                 b.step(actions.data(), out);
                 return std::nullopt;
             },
             "actions"_a, "observations"_a, "masks"_a, "seats"_a, "rewards"_a, "done"_a,
             "Apply actions[i] at table i and observe every table; when an action is not legal for its "
             "table's seat asked, nothing is done and the reason is returned.")
        .def("hand",
             [](const BatchHands& b, int i) {
                 if (i < 0 || i >= b.size()) throw nb::index_error("no such table");
                 return Reducer(b.hand(i));
             },
             "table"_a, "A copy of the hand in play at table `table`.");
}

}  // namespace chuanma
