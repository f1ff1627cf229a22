#include "batch_module.hpp"

#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "actions.hpp"
#include "batch.hpp"
#include "encode_planes.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace chuanma {
namespace {

template <typename T, typename... Shape>
using Array = nb::ndarray<T, nb::c_contig, nb::device::cpu, Shape...>;
using Row = Array<float, nb::ndim<1>>;
using Planes = Array<float, nb::ndim<2>>;
using Encoding = Array<float>;  // a compact encoding (one dimension) or a planes one (two)

// Refuses a call on `b` while another thread steps it.
void check_idle(const BatchHands& b) {
    if (b.stepping) throw std::runtime_error("the batch is stepping in another thread");
}

// Marks a batch as stepping for its lifetime (made and ended with the GIL held).
struct Stepping {
    BatchHands& batch;
    explicit Stepping(BatchHands& b) : batch(b) { batch.stepping = true; }
    ~Stepping() { batch.stepping = false; }
    Stepping(const Stepping&) = delete;
    Stepping& operator=(const Stepping&) = delete;
};

void check_seat(int seat) {
    if (seat < 0 || seat >= kSeats) throw nb::value_error("seats are 0-3");
}

// The encoding of what `seat` may see of `st` into `out`: the compact one into a row, the planes
// one into channels × kinds.
void encode_into(const HandState& st, int seat, Encoding& out) {
    check_seat(seat);
    const int k = st.rules.kinds();
    const bool planes = out.ndim() == 2;
    if (planes ? out.shape(0) != kPlanesChannels || static_cast<int>(out.shape(1)) != k
               : out.ndim() != 1 || static_cast<int>(out.shape(0)) != compact_size(k)) {
        const std::string want = "(" + std::to_string(compact_size(k)) + ",) or (" +
                                 std::to_string(kPlanesChannels) + ", " + std::to_string(k) + ")";
        throw nb::value_error(("out must have shape " + want).c_str());
    }
    SeatView view;
    redact(st, seat, view);
    if (planes) encode_planes(view, out.data());
    else encode_compact(view, out.data());
}

// Binds the method Hand.`name`(seat, out): the encoding of what `seat` may see of the hand into
// `out`, an `Out`.
template <typename Out>
void def_encode(nb::handle hand_class, const char* name, const char* doc) {
    nb::setattr(hand_class, name,
                nb::cpp_function(
                    [](const Reducer& hand, int seat, Out out) {
                        Encoding any(out);
                        encode_into(hand.state(), seat, any);
                    },
                    nb::scope(hand_class), nb::name(name), nb::is_method(), "seat"_a, "out"_a.noconvert(), doc));
}

// One seat's read-only window on a live hand (Hand.observer): the hand's encodings for that seat
// and nothing else, so that a bot handed it can neither read past the seat's view nor change the
// hand. Python keeps the hand alive while an observer of it lives.
struct SeatObserver {
    const Reducer* hand;
    int seat;
};

// Binds the method SeatObserver.`name`(out): as Hand.`name`(seat, out) for the observer's seat.
template <typename Out>
void def_observe(nb::class_<SeatObserver>& observer_class, const char* name, const char* doc) {
    observer_class.def(
        name,
        [](const SeatObserver& o, Out out) {
            Encoding any(out);
            encode_into(o.hand->state(), o.seat, any);
        },
        "out"_a.noconvert(), doc);
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

using Observations = Array<float>;
using Masks = Array<std::int8_t, nb::ndim<2>>;
using Seats = Array<std::int64_t, nb::ndim<1>>;

// Where the batch writes, once the arrays are checked to fit it.
BatchOut outputs(const BatchHands& b, Observations& observations, Masks& masks, Seats& seats,
                 float* rewards = nullptr, bool* done = nullptr) {
    const std::size_t n = b.size();
    const int k = b.observation_size() / (b.planes() ? kPlanesChannels : 1);
    const bool fits = b.planes() ? observations.ndim() == 3 && observations.shape(0) == n &&
                                       observations.shape(1) == kPlanesChannels &&
                                       static_cast<int>(observations.shape(2)) == k
                                 : observations.ndim() == 2 && observations.shape(0) == n &&
                                       static_cast<int>(observations.shape(1)) == k;
    if (!fits) throw nb::value_error("observations must have shape (n, *observation_shape)");
    check_shape(masks, n, kActionCount, "masks");
    check_shape(seats, n, 0, "seats");
    return {observations.data(), masks.data(), seats.data(), rewards, done};
}

}  // namespace

void bind_batch(nb::module_& m) {
    const nb::handle hand_class = nb::type<Reducer>();
    def_encode<Row>(hand_class, "encode_compact",
                    "Write the compact encoding of what `seat` may see of the hand into `out` (644 or 791 "
                    "floats; chuanma.encoding.encoder gives the shape).");
    def_encode<Planes>(hand_class, "encode_planes",
                       "Write the planes encoding of what `seat` may see of the hand into `out` (144 × 27 or "
                       "144 × 34 floats).");
    nb::class_<SeatObserver> observer_class(
        m, "SeatObserver",
        "What one seat may know of a live hand, read-only (Hand.observer): its encodings for that seat, "
        "through the seat view. The hand cannot be reached through it, and it cannot be pickled.");
    observer_class
        .def_prop_ro("seat", [](const SeatObserver& o) { return o.seat; }, "The seat observed.")
        .def_prop_ro("kinds", [](const SeatObserver& o) { return o.hand->state().rules.kinds(); },
                     "Tile kinds in play (27; 34 under 大众麻将): the encodings' shapes depend on it.")
        .def("__getstate__", [](const SeatObserver&) -> nb::object {
            throw nb::type_error("a SeatObserver is a window on a live hand: it cannot be pickled");
        });
    def_observe<Row>(observer_class, "encode_compact",
                     "As Hand.encode_compact for the observed seat: the compact encoding into `out`.");
    def_observe<Planes>(observer_class, "encode_planes",
                        "As Hand.encode_planes for the observed seat: the planes encoding into `out`.");
    nb::setattr(hand_class, "observer",
                nb::cpp_function(
                    [](const Reducer& hand, int seat) {
                        check_seat(seat);
                        return SeatObserver{&hand, seat};
                    },
                    nb::scope(hand_class), nb::name("observer"), nb::is_method(), "seat"_a, nb::keep_alive<0, 1>(),
                    "A read-only SeatObserver of what `seat` may know of this hand, live as the hand plays on "
                    "(what a bot deciding for `seat` is handed)."));
    m.def("encode_swapped",
          [](const Reducer& hand, int seat, int other, int tile, int at, Encoding out) {
              HandState swapped = copy_for(hand, seat, other);
              if (at < swapped.live || at > swapped.tail) throw nb::value_error("not a tile of the live wall");
              if (tile < 0 || tile > 33 ||
                  swapped.seats[other].hand[tile] <= (swapped.won[other] ? (*swapped.shown(other))[tile] : 0))
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
          "As Hand.encode_compact (`out` one-dimensional) or Hand.encode_planes (two), of a copy of `hand` in which "
          "`other`'s concealed `tile` (not laid open at a win) and the live wall's tile at index `at` have "
          "changed places: what `seat` may not know.");

    m.def("encode_void_swapped",
          [](const Reducer& hand, int seat, int other, int suit, Encoding out) {
              HandState swapped = copy_for(hand, seat, other);
              if (swapped.phase != Phase::kVoid || swapped.void_chosen[other])
                  throw nb::value_error("the other seat's void is no secret now");
              if (suit < -1 || suit > 2) throw nb::value_error("suit must be 0-2, or -1 for none chosen");
              swapped.seats[other].void_suit = suit;
              encode_into(swapped, seat, out);
          },
          "hand"_a, "seat"_a, "other"_a, "suit"_a, "out"_a,
          "As encode_swapped, of a copy of `hand` in 定缺 in which `other`'s secret void (undecided, or "
          "chosen for a hand of two suits) is `suit` (-1: undecided): what `seat` may not know.");

    nb::class_<BatchHands>(m, "BatchHands",
                           "Hands at `n` tables stepped together; a finished hand is dealt again at once. "
                           "Observations are encodings (compact or planes) of the seat asked at each table.")
        .def("__init__",
             [](BatchHands* b, const Rules& rules, int n, bool event, float scale, const std::string& encoder) {
                 if (encoder != "compact" && encoder != "planes")
                     throw nb::value_error(("encoder must be compact or planes, got " + encoder).c_str());
                 new (b) BatchHands(rules, n, event, scale, encoder == "planes");
             },
             "rules"_a, "n"_a, "event"_a, "scale"_a, "encoder"_a = "compact",
             "`event`: reward each step's change of the results (else the hand's result when it ends); "
             "`scale` multiplies rewards; `encoder`: compact or planes.")
        .def_prop_ro("n", &BatchHands::size, "Tables.")
        .def_prop_ro("observation_size", &BatchHands::observation_size, "Floats in an observation.")
        .def_prop_ro("hands", &BatchHands::hands, "Hands finished since the last reset.")
        .def("reset",
             [](BatchHands& b, std::uint64_t seed, Observations observations, Masks masks, Seats seats) {
                 check_idle(b);
                 b.reset(seed, outputs(b, observations, masks, seats));
             },
             "seed"_a, "observations"_a, "masks"_a, "seats"_a,
             "Deal at every table (table i's generator seeded seed + i) and observe every table.")
        .def("step",
             [](BatchHands& b, Array<const std::int64_t, nb::ndim<1>> actions, Observations observations, Masks masks,
                Seats seats, Array<float, nb::ndim<2>> rewards,
                Array<bool, nb::ndim<1>> done) -> std::optional<std::string> {
                 check_idle(b);
                 const std::size_t n = b.size();
                 check_shape(actions, n, 0, "actions");
                 check_shape(rewards, n, kSeats, "rewards");
                 check_shape(done, n, 0, "done");
                 const BatchOut out = outputs(b, observations, masks, seats, rewards.data(), done.data());
                 if (auto why = b.refused(actions.data())) return why;
                 const Stepping stepping(b);
                 nb::gil_scoped_release release;  // ends before `stepping`: the flag is cleared with the GIL
                 b.step(actions.data(), out);
                 return std::nullopt;
             },
             "actions"_a, "observations"_a, "masks"_a, "seats"_a, "rewards"_a, "done"_a,
             "Apply actions[i] at table i and observe every table; when an action is not legal for its "
             "table's seat asked, nothing is done and the reason is returned.")
        .def("hand",
             [](const BatchHands& b, int i) {
                 check_idle(b);
                 if (i < 0 || i >= b.size()) throw nb::index_error("no such table");
                 return Reducer(b.hand(i));
             },
             "table"_a, "A copy of the hand in play at table `table`.");
}

}  // namespace chuanma
