// The state of one hand (chuanma.engine.state.HandState) as plain data for the compiled reducer.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "events.hpp"
#include "rules.hpp"
#include "score.hpp"

namespace chuanma {

constexpr int kSeats = 4;
constexpr int kNoTile = -1;
using TileMask = std::uint64_t;  // a bit by tile kind

enum class Phase : std::uint8_t { kExchange, kVoid, kTurn, kClaim, kRob, kDraw, kEnd };
enum class KongKind : std::uint8_t { kExposed, kAdded, kConcealed };  // in the order of chuanma.melds.KONG_KINDS
enum class DrawKind : std::uint8_t { kNone, kLive, kReplacement };

struct Meld {
    MeldKind kind;
    std::int8_t tile;  // a chow's lowest tile
    KongKind kong = KongKind::kExposed;
};

struct Seat {
    std::array<std::uint8_t, 34> hand{};  // changed only by add(), which keeps the three below
    std::array<int, 4> code{};  // each part of the hand (three suits, the honours) as base-5 digits, rank 1 first
    int odd = 0;                // kinds held an odd number of times
    int tiles = 0;
    int drawn = kNoTile;
    std::array<int, 3> exchange{};
    int void_suit = -1;  // 0-2, -1 none
    bool asked = false;  // claim_options is set (an open window asks the seat)
    std::vector<int> claim_options;
    int claim = -1;  // the action claimed, -1 not yet
    TileMask banned = 0, pong_ban = 0, late_pongs = 0;
    int bar = -1;  // same_turn: the fan a win on a discard must beat (-1 none)
    bool waits_locked = false;
    TileMask locked_waits = 0;
    int live_draws = 0;

    bool holds_void() const { return void_suit >= 0 && code[void_suit] != 0; }

    // Adds `k` (negative: takes) copies of tile `t` to the concealed tiles.
    void add(int t, int k) {
        static constexpr int kWeight[9] = {390625, 78125, 15625, 3125, 625, 125, 25, 5, 1};
        const int before = hand[t];
        hand[t] = static_cast<std::uint8_t>(before + k);
        odd += (hand[t] & 1) - (before & 1);
        code[t < 27 ? t / 9 : 3] += k * (t < 27 ? kWeight[t % 9] : kWeight[t - 25]);
        tiles += k;
    }
};

struct Turn {
    DrawKind draw_kind = DrawKind::kNone;
    bool after_pong = false;
    int kong = -1;  // index of the last kong declared this turn
    int kongs = 0;
    bool drew_last = false;
    bool first = false;
    bool dihu = false;
};

struct Window {
    int tile = kNoTile, from = -1;
    std::uint32_t situations = 0;
    bool rob = false;
    int kong = -1;
    std::array<int, kSeats> fans{-1, -1, -1, -1};  // cache: each claimant's fan on the tile
};

struct KongRecord {
    int seat, tile;
    KongKind kind;
    int seq;                    // its kong event
    std::vector<int> payments;  // its payments, by index in the ledger
    bool transferred = false;   // its money went on by 呼叫转移
};

struct WinRecord {
    int seat, tile, from;  // from -1: self-drawn
    bool robbed;
    std::uint32_t situations;
    int total;
    std::vector<FanValue> fans;  // in the fan table's order
    int seq;                     // its hu event
    std::array<std::uint8_t, 34> hand;  // the winner's concealed tiles as the win was recorded
};

// A decision made by a seat or for it: an action index, or kLeaveAction.
struct Decision {
    int seat, action;
};
constexpr int kLeaveAction = -1;  // 逃跑 (no index in the action space)

struct Payment {
    int payer, payee;
    std::int64_t amount;  // units of base
    Reason reason;
    int seq;  // the event paid for
};

struct HandState {
    Rules rules;
    std::vector<std::uint8_t> wall;
    int direction = 1;  // seats the exchanged tiles travel
    int dealer = 0;
    Phase phase = Phase::kExchange;
    int current = 0;
    int live = 0, tail = 0;
    std::array<std::vector<Meld>, kSeats> melds;
    std::array<std::vector<std::uint8_t>, kSeats> discards;
    std::array<bool, kSeats> exchanged{}, void_chosen{}, out{}, left{}, locked{}, won{};
    bool voids_revealed = false;
    std::vector<KongRecord> kongs;
    std::vector<Payment> ledger;
    std::vector<WinRecord> wins;
    // the tiles each seat's wins laid open (a discard won by several lies in the first winner's pile)
    std::array<std::vector<std::uint8_t>, kSeats> win_piles;
    Turn turn;
    Window window;
    bool declared = false;
    int live_draws = 0;
    int dealer_discards = 0;
    int first_multi_from = -1;  // the discarder of the hand's first 一炮多响
    int version = 0;  // decisions applied (every seat's)
    int posed = 0;    // the version at which the question asked of several seats at once was posed
    std::array<Seat, kSeats> seats;
    std::vector<Event> events;
    // logs: every discard (seat, tile), claimed or not; the wall's remaining tiles at each pong or
    // exposed kong a seat made; the hands as dealt
    std::vector<std::pair<int, int>> discard_log;
    std::array<std::vector<int>, kSeats> claimed_at;
    std::array<std::array<std::uint8_t, 34>, kSeats> dealt{};
    std::vector<Decision> decisions;  // every decision made, in order
    std::vector<Decision> autos;      // those the machine made for a seat (forced voids, locked discards, omitted passes)
    std::string seeds;                // what the wall was shuffled from, as JSON text (empty: none); never read here

    int remaining() const { return tail - live + 1; }
    // The seat's concealed tiles as shown at its latest win (nullptr: it has not won).
    const std::array<std::uint8_t, 34>* shown(int seat) const {
        for (auto w = wins.rbegin(); w != wins.rend(); ++w)
            if (w->seat == seat) return &w->hand;
        return nullptr;
    }
};

}  // namespace chuanma
