// The turn: draws (live and kong replacements), discards, kongs and their replacement draws.
#include <algorithm>

#include "reducer.hpp"
#include "reducer_facts.hpp"

namespace chuanma {

bool Reducer::kong_allowed() const {
    return st_.remaining() > (st_.rules.no_kong_in_last_four ? kNoKong : 0);
}

int Reducer::next_active(int seat) const {
    for (int i = 0; i < 3; ++i)
        if (!st_.out[after(seat, i)]) return after(seat, i);
    return -1;
}

void Reducer::begin_turn(int seat) {
    st_.seats[st_.current].drawn = kNoTile;
    st_.seats[seat].drawn = kNoTile;
    st_.phase = Phase::kTurn;
    st_.current = seat;
    st_.turn = Turn{};
}

void Reducer::draw_due(int seat) {
    st_.phase = Phase::kDraw;
    st_.current = seat;
    st_.turn.draw_kind = DrawKind::kLive;
}

bool Reducer::draw() {
    if (st_.tail < st_.live) return false;
    const int seat = st_.current;
    Seat& s = st_.seats[seat];
    const bool replacement = st_.turn.draw_kind == DrawKind::kReplacement;
    int t;
    if (replacement) {
        t = st_.wall[st_.tail--];
        st_.turn.dihu = false;
    } else {
        begin_turn(seat);
        t = st_.wall[st_.live++];
        // 地胡: a non-dealer's first live draw, nobody has declared, the seat has not won
        st_.turn.dihu = seat != st_.dealer && s.live_draws == 0 && !st_.declared && !st_.won[seat];
        ++s.live_draws;
        ++st_.live_draws;
        st_.turn.draw_kind = DrawKind::kLive;
    }
    st_.phase = Phase::kTurn;
    s.add(t, 1);
    s.drawn = t;
    const int left = st_.remaining();
    st_.turn.drew_last = left == 0;
    s.bar = -1;
    s.pong_ban = 0;
    emit(EventType::kDraw, seat, t, -1, left, replacement | (left <= kLastFour) << 1);
    return true;
}

void Reducer::discard(int seat, int t, bool automatic) {
    Seat& s = st_.seats[seat];
    Turn& turn = st_.turn;
    s.add(t, -1);
    s.drawn = kNoTile;
    st_.discards[seat].push_back(static_cast<std::uint8_t>(t));
    st_.discard_log.emplace_back(seat, t);
    const int left = st_.remaining();
    // 过手杠: ending a turn holding the fourth tile of a pong while adding it was legal
    if (!st_.melds[seat].empty() && !turn.after_pong && !st_.locked[seat] && kong_allowed())
        for (const Meld& m : st_.melds[seat])
            if (m.kind == MeldKind::kPong && s.hand[m.tile]) s.late_pongs |= bit(m.tile);
    std::uint32_t situations = 0;
    if (seat == st_.dealer) {
        if (st_.dealer_discards == 0 && st_.rules.scoring.dihu_on_dealer_discard && st_.live_draws == 0 && !st_.declared)
            situations = kDihuWin;
        ++st_.dealer_discards;
    }
    turn.first = false;
    emit(EventType::kDiscard, seat, t, -1, left, automatic);
    if (turn.kong >= 0) situations |= kAfterKong;
    if (turn.drew_last) situations |= kLastTile;
    if (!open_window(seat, t, situations, false, turn.kong)) draw_due(next_active(seat));
}

void Reducer::take_discard(int seat, int from, Meld meld, const int* used, int n) {
    close_window();
    st_.discards[from].pop_back();
    for (int i = 0; i < n; ++i) st_.seats[seat].add(used[i], -1);
    st_.melds[seat].push_back(meld);
    st_.claimed_at[seat].push_back(st_.remaining());
    st_.declared = true;
    begin_turn(seat);
    st_.turn.after_pong = true;
}

void Reducer::own_kong(int seat, int t) {
    if (st_.seats[seat].hand[t] == 4) {
        concealed_kong(seat, t);
        return;
    }
    st_.declared = true;
    st_.turn.first = false;
    emit(EventType::kKongDeclared, seat, t);
    if (st_.rules.scoring.robbing_kong) {
        open_window(seat, t, kRobbingKong, true, -1);
        st_.current = seat;
    } else {
        complete_added_kong(seat, t);
    }
}

void Reducer::exposed_kong(int seat, int from, int t) {
    st_.discards[from].pop_back();
    st_.seats[seat].add(t, -3);
    st_.melds[seat].push_back(Meld{MeldKind::kKong, static_cast<std::int8_t>(t), KongKind::kExposed});
    st_.claimed_at[seat].push_back(st_.remaining());
    st_.declared = true;
    begin_turn(seat);
    emit(EventType::kKong, seat, t, from, static_cast<int>(KongKind::kExposed));
    add_kong(seat, t, KongKind::kExposed, from, 0);
}

void Reducer::concealed_kong(int seat, int t) {
    st_.seats[seat].add(t, -4);
    st_.seats[seat].drawn = kNoTile;
    st_.melds[seat].push_back(Meld{MeldKind::kKong, static_cast<std::int8_t>(t), KongKind::kConcealed});
    st_.declared = true;
    st_.turn.first = false;
    emit(EventType::kKong, seat, t, -1, static_cast<int>(KongKind::kConcealed));
    add_kong(seat, t, KongKind::kConcealed, -1, 2);
}

void Reducer::complete_added_kong(int seat, int t) {
    st_.phase = Phase::kTurn;
    st_.current = seat;
    Seat& s = st_.seats[seat];
    s.add(t, -1);
    s.drawn = kNoTile;
    for (Meld& m : st_.melds[seat])
        if (m.kind == MeldKind::kPong && m.tile == t) m = Meld{MeldKind::kKong, m.tile, KongKind::kAdded};
    const bool late = (s.late_pongs & bit(t)) != 0;
    emit(EventType::kKong, seat, t, -1, static_cast<int>(KongKind::kAdded), late);
    add_kong(seat, t, KongKind::kAdded, -1, late && !st_.rules.late_added_kong_pays ? 0 : 1);
}

// Records the kong just announced and its payments (刮风下雨): an exposed kong's discarder pays 2
// (everyone: the other payers 1 each too), else each payer `each`.
void Reducer::add_kong(int seat, int t, KongKind kind, int discarder, int each) {
    const int seq = static_cast<int>(st_.events.size()) - 1;
    const Reason reason = kind == KongKind::kExposed ? Reason::kKongExposed
                          : kind == KongKind::kConcealed ? Reason::kKongConcealed
                                                         : Reason::kKongAdded;
    std::vector<int> paid, others;
    payers(seat, others);
    if (discarder >= 0) {
        paid.push_back(pay(discarder, seat, 2, reason, seq));
        if (st_.rules.exposed_kong == ExposedKong::kEveryone)
            for (int p : others)
                if (p != discarder) paid.push_back(pay(p, seat, 1, reason, seq));
    } else {
        for (int p : others) paid.push_back(pay(p, seat, each, reason, seq));
    }
    paid.erase(std::remove(paid.begin(), paid.end(), -1), paid.end());
    st_.kongs.push_back(KongRecord{seat, t, kind, seq, std::move(paid)});
    st_.turn.kong = static_cast<int>(st_.kongs.size()) - 1;
    ++st_.turn.kongs;
    // the replacement draw from the wall's end
    st_.phase = Phase::kDraw;
    st_.current = seat;
    st_.turn.draw_kind = DrawKind::kReplacement;
}

}  // namespace chuanma
