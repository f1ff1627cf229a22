// Claim windows: who may win, kong, pong or chow a discard (or rob an added kong), the pass rules,
// and how the answers resolve (win > kong > pong > chow; 一炮多响 or the first winner in play order).
#include <algorithm>

#include "actions.hpp"
#include "reducer.hpp"
#include "reducer_facts.hpp"

namespace chuanma {

int Reducer::claim_fan(int seat) {
    int& fan = st_.window.fans[seat];
    if (fan < 0) fan = score_win(seat, st_.window.tile, false, st_.window.situations, false).total;
    return fan;
}

bool Reducer::may_claim_win(int seat, int t) {
    const Seat& s = st_.seats[seat];
    switch (st_.rules.pass_rule) {
        case PassRule::kSameTurn: return s.bar < 0 || claim_fan(seat) > s.bar;
        case PassRule::kForever: return !(s.banned & bit(t));
        default: return true;
    }
}

bool Reducer::options_for(int seat, int t, bool rob, bool chow) {
    Seat& s = st_.seats[seat];
    std::vector<int>& opts = s.claim_options;
    opts.clear();
    if (st_.out[seat]) return false;
    const auto& h = s.hand;
    const bool can_win = completes(seat, t);
    if (can_win && may_claim_win(seat, t)) {
        opts.push_back(kHuAt);
        if (forced()) return true;
    }
    if (!rob && !st_.locked[seat] && suit_of(t) != s.void_suit) {
        if (h[t] == 3 && kong_allowed()) opts.push_back(kKongAt + t);
        if (h[t] >= 2 && !(s.pong_ban & bit(t))) opts.push_back(kPongAt + t);
    }
    if (chow) {  // each sequence t completes with two tiles of the hand
        const int r = t % 9;
        for (int low = t - std::min(r, 2); low <= t - std::max(r - 6, 0); ++low) {
            bool held = true;
            for (int x = low; x < low + 3; ++x)
                if (x != t && !h[x]) held = false;
            if (held) opts.push_back(chow_index(low));
        }
    }
    if (opts.empty()) return false;
    opts.push_back(kPassAt);
    return true;
}

bool Reducer::open_window(int from, int t, std::uint32_t situations, bool rob, int kong) {
    st_.window = Window{t, from, situations, rob, kong, {-1, -1, -1, -1}};
    if (!ask_window() && !rob) return false;  // a robbing window opens even when nobody can rob
    st_.phase = rob ? Phase::kRob : Phase::kClaim;
    st_.posed = st_.version;
    if (!rob) st_.current = from;
    return true;
}

bool Reducer::ask_window() {
    const int from = st_.window.from, t = st_.window.tile;
    const bool rob = st_.window.rob;
    const int chower = rob || t >= 27 || !st_.rules.has_chow() ? -1 : (from + 1) % kSeats;
    bool anyone = false;
    for (int i = 0; i < 3; ++i) {
        const int seat = after(from, i);
        Seat& s = st_.seats[seat];
        s.claim = -1;
        s.asked = may_complete(s.hand, t) && options_for(seat, t, rob, seat == chower);
        anyone = anyone || s.asked;
    }
    return anyone;
}

void Reducer::rederive() {
    for (int seat = 0; seat < kSeats; ++seat) {
        Seat& s = st_.seats[seat];
        int n = 0;
        for (int c : s.hand) n += c;
        if (st_.locked[seat] && !s.waits_locked && n % 3 == 1) {
            s.waits_locked = true;
            s.locked_waits = seat_waits(seat);
        }
    }
    if (st_.phase == Phase::kClaim || st_.phase == Phase::kRob) {
        st_.window.fans = {-1, -1, -1, -1};
        ask_window();
    }
    legal_known_ = 0;
}

void Reducer::close_window() {
    for (Seat& s : st_.seats) {
        s.asked = false;
        s.claim_options.clear();
        s.claim = -1;
    }
    st_.phase = Phase::kTurn;
}

void Reducer::resolve_window() {
    const Window w = st_.window;
    const int t = w.tile, from = w.from;
    std::vector<int> winners;
    int kong = -1, pong = -1, chow = -1;
    for (int i = 0; i < 3; ++i) {
        const int seat = after(from, i);
        Seat& s = st_.seats[seat];
        if (!s.asked) continue;
        const auto& opts = s.claim_options;
        const bool could_win = std::find(opts.begin(), opts.end(), kHuAt) != opts.end();
        const bool could_pong = std::find(opts.begin(), opts.end(), kPongAt + t) != opts.end();
        if (could_win && s.claim != kHuAt) {  // a passed win
            if (st_.rules.pass_rule == PassRule::kSameTurn) s.bar = std::max(s.bar, claim_fan(seat));
            else if (st_.rules.pass_rule == PassRule::kForever) s.banned |= bit(t);
        }
        if (could_pong && s.claim != kPongAt + t && s.claim != kKongAt + t && st_.rules.pass_rule == PassRule::kSameTurn)
            s.pong_ban |= bit(t);
        if (s.claim == kHuAt) winners.push_back(seat);
        else if (s.claim == kKongAt + t && kong < 0) kong = seat;
        else if (s.claim == kPongAt + t && pong < 0) pong = seat;
        else if (s.claim >= kChowAt && s.claim < kHuAt && chow < 0) chow = seat;
    }
    if (!winners.empty()) {
        if (!st_.rules.multiple_winners) winners.resize(1);
        Seat& loser = st_.seats[from];
        if (w.rob) {  // 抢杠胡: the added kong's tile leaves the declarer's hand
            loser.add(t, -1);
            loser.drawn = kNoTile;
            emit(EventType::kKongRobbed, from, t);
        } else {
            st_.discards[from].pop_back();
        }
        claim_wins(winners, from, t, w.situations, w.rob, w.rob ? -1 : w.kong);
        after_wins(winners.back());
    } else if (w.rob) {
        close_window();
        complete_added_kong(from, t);
    } else if (kong >= 0) {
        close_window();
        exposed_kong(kong, from, t);
    } else if (pong >= 0) {
        const int used[2] = {t, t};
        take_discard(pong, from, Meld{MeldKind::kPong, static_cast<std::int8_t>(t)}, used, 2);
        if (st_.seats[pong].hand[t]) st_.seats[pong].late_pongs |= bit(t);
        emit(EventType::kPong, pong, t, from);
    } else if (chow >= 0) {
        const int low = chow_low(st_.seats[chow].claim);
        int used[2], n = 0;
        for (int x = low; x < low + 3; ++x)
            if (x != t) used[n++] = x;
        take_discard(chow, from, Meld{MeldKind::kChow, static_cast<std::int8_t>(low)}, used, 2);
        emit(EventType::kChow, chow, low, from, t);
    } else {
        close_window();
        draw_due(next_active(from));
    }
}

}  // namespace chuanma
