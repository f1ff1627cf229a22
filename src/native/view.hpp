// What one seat (or a spectator) may see of a hand: the anti-cheat boundary of the compiled core.
// The encoders and chuanma.engine.views.seat_view read a SeatView, never the HandState.
#pragma once

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "state.hpp"

namespace chuanma {

// A tile list the view shows as it lies in the state (a river, a win pile).
struct Tiles {
    const std::uint8_t* data = nullptr;
    int size = 0;
    const std::uint8_t* begin() const { return data; }
    const std::uint8_t* end() const { return data + size; }
};

// The view's phases, in the order of chuanma.encoding.common.PHASES: a claim window the viewer has
// no part in is kWaiting.
enum class ViewPhase : std::uint8_t { kExchange, kVoid, kTurn, kClaim, kRob, kWaiting, kEnd };

constexpr int kMostMelds = 4;  // 4 melds and a pair make a whole hand
constexpr int kRecent = 6;     // discards of each seat the view keeps in order (chuanma.encoding.common.RECENT)

// One seat as the viewer sees it (chuanma.engine.views.PlayerView).
struct PlayerView {
    std::array<Meld, kMostMelds> melds{};  // in order; a concealed kong the viewer may not see has tile kNoTile
    int meld_count = 0;
    Tiles river, win_pile;
    int tiles = 0;  // concealed tiles held
    int wins = 0;
    bool out = false, left = false, locked = false, exchange_chosen = false, void_chosen = false;
    int void_suit = -1;  // 0-2 once revealed (one's own at once), else -1
    bool kongs_hidden = false;  // the tiles of its concealed kongs (melds and kongs) are hidden from the viewer
    bool shown = false;  // `hand` holds its concealed tiles: one's own, a winner's at its latest win, all at the end
    std::array<std::uint8_t, 34> hand{};
    const std::vector<int>* claimed_at = nullptr;  // tiles left in the wall at each of its pongs and exposed kongs
    // its last kRecent discards, claimed ones included, most recent first (kNoTile: none): the
    // public discard log (chuanma.engine.views.SeatView.discard_log)
    std::array<int, kRecent> recent{};
};

// Everything the seat `seat` (-1: a spectator) may know now (chuanma.engine.views.SeatView). The
// public records it shows as they are (wins, payments, kongs, the discard log, the turn's facts)
// are pointers into the state.
struct SeatView {
    int seat = 0;
    bool xueliu = false;  // winners keep playing
    int kinds = 27;       // tile kinds in play
    ViewPhase phase = ViewPhase::kExchange;
    int dealer = 0;
    int current = -1;  // the seat on turn in a turn or claim window, else -1
    int wall = 0;      // tiles left in the wall
    int direction = 0;  // the seats exchanged tiles travel once revealed (1-3), else 0
    bool claim = false;  // a tile on offer the viewer may answer: claim_tile from claim_from
    int claim_tile = kNoTile, claim_from = -1;
    bool claim_rob = false;
    std::uint32_t claim_situations = 0;  // what a win on the tile would count (bits of chuanma.scoring.SITUATIONS)
    int claim_kong = -1;                 // the kong the discarder declared this turn (index in `kongs`), -1 none
    std::array<int, kSeats> acting{};    // the seats owing a decision as far as the viewer may know
    int acting_count = 0;
    int drawn = kNoTile;  // one's own tile drawn this turn
    bool exchange_shown = false;  // one's own exchange choice, until the exchange happens
    std::array<int, 3> exchange{};
    std::array<std::int64_t, kSeats> totals{};  // each seat's net result so far, units of base
    std::array<PlayerView, kSeats> players;
    bool finished = false, voids_revealed = false, declared = false;
    int version = 0, live_draws = 0, dealer_discards = 0, first_multi_from = -1;
    const std::vector<WinRecord>* wins = nullptr;
    const std::vector<Payment>* payments = nullptr;
    const std::vector<KongRecord>* kongs = nullptr;  // a kong's tile is hidden when its seat's kongs_hidden
    const std::vector<std::pair<int, int>>* discard_log = nullptr;
    const Turn* turn = nullptr;
    const Seat* own = nullptr;  // the viewer's own private part (nullptr: a spectator)
};

// `seat` relative to the viewer `me`: 0 itself, 1 the next seat, 2 the one opposite, 3 the previous one.
inline int relative(int seat, int me) { return (seat - me + kSeats) % kSeats; }

// Writes into `out` what `seat` (-1: a spectator) may see of `st`.
void redact(const HandState& st, int seat, SeatView& out);

}  // namespace chuanma
