#include "view.hpp"

namespace chuanma {
namespace {

Tiles tiles_of(const std::vector<std::uint8_t>& v) { return {v.data(), static_cast<int>(v.size())}; }

}  // namespace

void redact(const HandState& st, int seat, SeatView& out) {
    const Rules& rules = st.rules;
    const bool spectator = seat < 0;
    const Seat* me = spectator ? nullptr : &st.seats[seat];
    const bool finished = st.phase == Phase::kEnd;
    const bool window = st.phase == Phase::kClaim || st.phase == Phase::kRob;
    const bool answers = window && me && me->asked && me->claim < 0;  // it owes an answer
    out.seat = seat;
    out.xueliu = rules.winners_stay();
    out.kinds = rules.kinds();
    out.phase = window && !answers ? ViewPhase::kWaiting : static_cast<ViewPhase>(st.phase);
    out.dealer = st.dealer;
    out.current = st.phase == Phase::kTurn || window ? st.current : -1;
    out.wall = st.remaining();
    bool exchanged = rules.has_exchange();
    for (bool e : st.exchanged) exchanged = exchanged && e;
    out.direction = exchanged ? st.direction : 0;
    out.claim = answers;
    out.claim_tile = answers ? st.window.tile : kNoTile;
    out.claim_from = answers ? st.window.from : -1;
    out.claim_rob = answers && st.window.rob;
    out.claim_situations = answers ? st.window.situations : 0;
    out.claim_kong = answers ? st.window.kong : -1;
    out.drawn = st.phase == Phase::kTurn && st.current == seat ? me->drawn : kNoTile;
    out.exchange_shown = !spectator && st.exchanged[seat] && !exchanged;
    out.exchange = out.exchange_shown ? me->exchange : std::array<int, 3>{};
    out.totals.fill(0);
    for (const Payment& p : st.ledger) {
        out.totals[p.payer] -= p.amount;
        out.totals[p.payee] += p.amount;
    }
    for (PlayerView& p : out.players) p.wins = 0;
    for (const WinRecord& w : st.wins) ++out.players[w.seat].wins;
    out.finished = finished;
    out.voids_revealed = st.voids_revealed;
    out.declared = st.declared;
    out.version = st.version;
    out.live_draws = st.live_draws;
    out.dealer_discards = st.dealer_discards;
    out.first_multi_from = st.first_multi_from;
    out.wins = &st.wins;
    out.payments = &st.ledger;
    out.kongs = &st.kongs;
    out.discard_log = &st.discard_log;
    out.turn = &st.turn;
    out.own = me;
    // another seat's concealed kongs stay hidden until the end unless the rules show them
    const bool hide_kongs = !(finished || rules.concealed_kong_shown);
    for (int s = 0; s < kSeats; ++s) {
        const Seat& ss = st.seats[s];
        const bool own = s == seat;
        PlayerView& p = out.players[s];
        p.kongs_hidden = hide_kongs && !own;
        p.meld_count = 0;
        for (const Meld& m : st.melds[s]) {
            Meld& shown = p.melds[p.meld_count++];
            shown = m;
            if (p.kongs_hidden && m.kind == MeldKind::kKong && m.kong == KongKind::kConcealed) shown.tile = kNoTile;
        }
        p.river = tiles_of(st.discards[s]);
        p.win_pile = tiles_of(st.win_piles[s]);
        p.claimed_at = &st.claimed_at[s];
        p.recent.fill(kNoTile);
        p.tiles = ss.tiles;
        p.out = st.out[s];
        p.left = st.left[s];
        p.locked = st.locked[s];
        p.exchange_chosen = st.exchanged[s];
        p.void_chosen = st.void_chosen[s] || (own && ss.void_suit >= 0);
        p.void_suit = own || st.voids_revealed ? ss.void_suit : -1;
        const std::array<std::uint8_t, 34>* laid = st.shown(s);
        p.shown = own || finished || laid;
        if (own || finished) p.hand = ss.hand;
        else if (laid) p.hand = *laid;
        else p.hand.fill(0);
    }
    // who owes a decision: in a claim window only the viewer itself, if it does (whether anybody
    // else may claim is nobody else's business); in 定缺 every seat whose choice it has not seen
    out.acting_count = 0;
    const auto act = [&out](int s) { out.acting[out.acting_count++] = s; };
    switch (st.phase) {
        case Phase::kTurn: act(st.current); break;
        case Phase::kExchange:
            for (int s = 0; s < kSeats; ++s)
                if (!st.exchanged[s]) act(s);
            break;
        case Phase::kVoid:
            for (int s = 0; s < kSeats; ++s)
                if (!out.players[s].void_chosen) act(s);
            break;
        case Phase::kClaim:
        case Phase::kRob:
            if (answers) act(seat);
            break;
        default: break;
    }
    // each seat's last discards, from the hand's one log of them, newest first
    std::array<int, kSeats> found{};
    int full = 0;
    for (auto it = st.discard_log.rbegin(); it != st.discard_log.rend() && full < kSeats; ++it) {
        const auto [s, t] = *it;
        if (found[s] == kRecent) continue;
        out.players[s].recent[found[s]++] = t;
        full += found[s] == kRecent;
    }
}

}  // namespace chuanma
