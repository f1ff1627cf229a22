// The hand as a state machine (chuanma.engine.game.Game): apply a seat's decision (an action
// index), then everything that follows without one (draws, claim windows' resolution, a locked
// 血流 hand's discards); the legal actions of every seat; the events so far.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "refusals.hpp"
#include "state.hpp"
#include "tables.hpp"

namespace chuanma {

class Reducer {
public:
    // `wall` in draw order (the whole set once), `direction` the seats exchanged tiles travel (1-3).
    // Throws std::invalid_argument for a wall, dealer or direction that is none.
    Reducer(const Rules& rules, std::vector<std::uint8_t> wall, int dealer, int direction);
    // A hand resumed from a whole state (read back from its JSON form).
    explicit Reducer(HandState state);

    const HandState& state() const { return st_; }
    void set_seeds(std::string seeds) { st_.seeds = std::move(seeds); }
    bool finished() const { return st_.phase == Phase::kEnd; }
    // The seats that owe a decision, in the order chuanma.engine.legal.to_act gives them.
    void to_act(std::vector<int>& out) const;
    // The seat's legal actions as indices (empty when it owes none), kept until the state changes.
    const std::vector<int>& legal(int seat) const;
    // The seat's legal actions as kActionCount bytes into `out`: 1 at each legal index, 0 elsewhere.
    void legal_mask(int seat, std::int8_t* out) const;
    // The version at which the seat's open question was posed (-1: it owes no decision): on its
    // turn the current version; in the exchange, the void and a claim window the one they opened at.
    int asked(int seat) const;
    // Why the seat may not take `action` (an index) now: the rule that refuses it and its facts
    // (meaningful only for an action that is not legal).
    Refusal refusal(int seat, int action) const;
    // Applies a legal action; false (state untouched) for anything else.
    bool apply(int seat, int action);
    // Every seat that still owes an answer in a claim window passes (or, if it must win, wins):
    // how a record's omitted answers are read (nothing done outside a window).
    void pass_pending();
    // 逃跑: the seat leaves the table; false (nothing done) when the hand is over or it has left.
    bool leave(int seat);
    // What a state read back from its JSON form may leave out and the reducer derives from the
    // tiles: the waits of each locked seat holding 3n+1 tiles (where none are given) and, in an
    // open claim window, the options of every seat it asks, their answers not given yet.
    void rederive();
    // The waits of the seat's concealed tiles (3n+1; none while it holds its void suit).
    TileMask seat_waits(int seat) const;
    // The seat's waits at the end, or -1 when its hand is in the middle of a turn.
    std::int64_t standing_waits(int seat) const;
    // Who deals the next hand under the rules' dealer rule (chuanma.engine.dealer).
    int next_dealer() const;
    // Net result per seat so far, in units of base.
    std::array<std::int64_t, kSeats> deltas() const;

private:
    void emit(EventType type, int seat, int tile = kNoTile, int from = -1, int a = 0, int b = 0, std::int64_t value = 0);
    bool owes(int seat) const;
    bool complete(int seat) const;
    bool completes(int seat, int t);
    bool forced() const;
    bool kong_allowed() const;
    bool keeps_waits(int seat, int t) const;
    Score score_win(int seat, int tile, bool self_drawn, std::uint32_t situations, bool in_hand) const;
    int claim_fan(int seat);
    bool may_claim_win(int seat, int t);
    void turn_actions(int seat, std::vector<int>& out) const;
    void exchange_options(int seat, std::vector<int>& out) const;
    void void_options(int seat, std::vector<int>& out) const;
    bool options_for(int seat, int t, bool rob, bool chow);
    int next_active(int seat) const;

    void run();
    void decide(int seat, int action, int first_legal);
    void choose_exchange(int seat, int index);
    void enter_void();
    void choose_void(int seat, int suit, bool automatic);
    void first_turn();
    void begin_turn(int seat);
    void draw_due(int seat);
    bool draw();
    void discard(int seat, int t, bool automatic);
    bool open_window(int from, int t, std::uint32_t situations, bool rob, int kong);
    // Asks the seats after the window's discarder what they may claim; whether any may.
    bool ask_window();
    void close_window();
    void resolve_window();
    void take_discard(int seat, int from, Meld meld, const int* used, int n);
    void own_kong(int seat, int t);
    void exposed_kong(int seat, int from, int t);
    void concealed_kong(int seat, int t);
    void complete_added_kong(int seat, int t);
    void add_kong(int seat, int t, KongKind kind, int discarder, int each);
    void self_drawn_win(int seat);
    void claim_wins(const std::vector<int>& winners, int from, int t, std::uint32_t situations, bool robbed, int kong);
    int record_win(int seat, int t, int from, bool robbed, const Score& score, std::uint32_t situations);
    int pay(int payer, int payee, std::int64_t amount, Reason reason, int seq);
    void payers(int seat, std::vector<int>& out) const;
    void self_draw_payers(int seat, std::vector<int>& out) const;
    void call_transfer(int kong, const std::vector<int>& winners, const std::vector<int>& seqs);
    int static_fan(int seat) const;
    int score_melds(int seat, ScoreMeld* out) const;
    int best_static_fan(int seat);
    void winner_leaves(int seat);
    void escape_payments(int seat, int seq);
    void settle_exhausted();
    bool hand_over() const;  // too few seats play on: the variant's end (end_over)
    void end_over();
    void after_wins(int last);
    void end(EndReason reason);

    void legal_now(int seat, std::vector<int>& out) const;

    HandState st_;
    const Tables& tables_;  // the win check's (built before the first hand)
    mutable std::array<std::vector<int>, kSeats> legal_;
    mutable unsigned legal_known_ = 0;  // a bit by seat: legal_[seat] is up to date
};

}  // namespace chuanma
