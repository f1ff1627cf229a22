#include "view.hpp"

namespace chuanma {
namespace {

Tiles tiles_of(const std::vector<std::uint8_t>& v) { return {v.data(), static_cast<int>(v.size())}; }

}  // namespace

void redact(const HandState& st, int seat, SeatView& out) {
    const Rules& rules = st.rules;
    const Seat& me = st.seats[seat];
    const bool finished = st.phase == Phase::kEnd;
    const bool window = st.phase == Phase::kClaim || st.phase == Phase::kRob;
    const bool answers = window && me.asked && me.claim < 0;  // it owes an answer
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
    out.drawn = st.phase == Phase::kTurn && st.current == seat ? me.drawn : kNoTile;
    out.exchange_shown = st.exchanged[seat] && !exchanged;
    out.exchange = out.exchange_shown ? me.exchange : std::array<int, 3>{};
    out.totals.fill(0);
    for (const Payment& p : st.ledger) {
        out.totals[p.payer] -= p.amount;
        out.totals[p.payee] += p.amount;
    }
    for (PlayerView& p : out.players) p.wins = 0;
    for (const WinRecord& w : st.wins) ++out.players[w.seat].wins;
    // another seat's concealed kongs stay hidden until the end unless the rules show them
    const bool hide_kongs = !(finished || rules.concealed_kong_shown);
    for (int s = 0; s < kSeats; ++s) {
        const Seat& ss = st.seats[s];
        const bool own = s == seat;
        PlayerView& p = out.players[s];
        p.meld_count = 0;
        for (const Meld& m : st.melds[s]) {
            Meld& shown = p.melds[p.meld_count++];
            shown = m;
            if (hide_kongs && !own && m.kind == MeldKind::kKong && m.kong == KongKind::kConcealed) shown.tile = kNoTile;
        }
        p.river = tiles_of(st.discards[s]);
        p.win_pile = tiles_of(st.win_piles[s]);
        p.recent.fill(kNoTile);
        p.tiles = ss.tiles;
        p.out = st.out[s];
        p.left = st.left[s];
        p.locked = st.locked[s];
        p.exchange_chosen = st.exchanged[s];
        p.void_chosen = st.void_chosen[s] || (own && ss.void_suit >= 0);
        p.void_suit = own || st.voids_revealed ? ss.void_suit : -1;
        p.shown = own || finished || st.won[s];
        if (own || finished) p.hand = ss.hand;
        else if (p.shown) p.hand = st.shown[s];
        else p.hand.fill(0);
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
