// The reducer's entry points: who acts, the legal actions, apply, and what follows a decision.
#include "reducer.hpp"

#include <algorithm>

#include "actions.hpp"
#include "reducer_facts.hpp"

namespace chuanma {

void Reducer::emit(EventType type, int seat, int tile, int from, int a, int b, std::int64_t value) {
    st_.events.push_back(Event{type, static_cast<std::int8_t>(seat), static_cast<std::int8_t>(tile),
                               static_cast<std::int8_t>(from), a, b, value});
}

bool Reducer::owes(int seat) const {
    const Seat& s = st_.seats[seat];
    return s.asked && s.claim < 0;
}

void Reducer::to_act(std::vector<int>& out) const {
    out.clear();
    switch (st_.phase) {
        case Phase::kTurn: out.push_back(st_.current); break;
        case Phase::kExchange:
            for (int s = 0; s < kSeats; ++s)
                if (!st_.exchanged[s]) out.push_back(s);
            break;
        case Phase::kVoid:
            for (int s = 0; s < kSeats; ++s)
                if (st_.seats[s].void_suit < 0) out.push_back(s);
            break;
        case Phase::kClaim:
        case Phase::kRob:
            for (int i = 0; i < 3; ++i)
                if (owes(after(st_.window.from, i))) out.push_back(after(st_.window.from, i));
            break;
        default: break;
    }
}

const std::vector<int>& Reducer::legal(int seat) const {
    if (!(legal_known_ >> seat & 1)) {
        legal_now(seat, legal_[seat]);
        legal_known_ |= 1u << seat;
    }
    return legal_[seat];
}

void Reducer::legal_mask(int seat, std::int8_t* out) const {
    std::fill(out, out + kActionCount, std::int8_t{0});
    for (int a : legal(seat)) out[a] = 1;
}

void Reducer::legal_now(int seat, std::vector<int>& out) const {
    out.clear();
    switch (st_.phase) {
        case Phase::kTurn:
            if (seat == st_.current) turn_actions(seat, out);
            break;
        case Phase::kClaim:
        case Phase::kRob:
            if (owes(seat)) out = st_.seats[seat].claim_options;
            break;
        case Phase::kExchange:
            if (!st_.exchanged[seat]) exchange_options(seat, out);
            break;
        case Phase::kVoid:
            if (st_.seats[seat].void_suit < 0) void_options(seat, out);
            break;
        default: break;
    }
}

void Reducer::turn_actions(int seat, std::vector<int>& out) const {
    const Seat& s = st_.seats[seat];
    const auto& h = s.hand;
    const Turn& turn = st_.turn;
    bool self_win = false;
    if (!turn.after_pong) {
        if (turn.first) self_win = complete(seat);
        else if (s.drawn >= 0) {  // the drawn tile alone (no copy or neighbour besides) completes nothing
            const int t = s.drawn;
            self_win = may_complete(s.hand, t, 1) && !(st_.rules.pass_rule == PassRule::kForever && (s.banned & bit(t))) && complete(seat);
        }
    }
    if (self_win) {
        out.push_back(kHuAt);
        if (forced()) return;
    }
    const bool locked = st_.locked[seat];
    const auto& melds = st_.melds[seat];
    const bool four = std::find(h.begin(), h.end(), 4) != h.end();
    if ((locked || !melds.empty() || four) && !turn.after_pong && kong_allowed()) {
        if (locked) {
            if (st_.rules.winners_kong && s.drawn >= 0 && keeps_waits(seat, s.drawn)) out.push_back(kKongAt + s.drawn);
        } else {
            for (int t = 0, kinds = st_.rules.kinds(); t < kinds && four; ++t)
                if (h[t] == 4 && suit_of(t) != s.void_suit) out.push_back(kKongAt + t);
            for (const Meld& m : melds)
                if (m.kind == MeldKind::kPong && h[m.tile]) out.push_back(kKongAt + m.tile);
        }
    }
    if (locked) {
        if (s.drawn >= 0) out.push_back(kDiscardAt + s.drawn);
        return;
    }
    // the void suit's tiles first while one is held (gathered without a branch a tile: which
    // tiles are held is not predictable)
    const bool void_held = s.holds_void();
    const int lo = void_held ? 9 * s.void_suit : 0, hi = void_held ? lo + 9 : st_.rules.kinds();
    int held[34], n = 0;
    for (int t = lo; t < hi; ++t) {
        held[n] = kDiscardAt + t;
        n += h[t] != 0;
    }
    out.insert(out.end(), held, held + n);
}

int Reducer::asked(int seat) const {
    if (seat < 0 || seat >= kSeats || legal(seat).empty()) return -1;
    return st_.phase == Phase::kTurn ? st_.version : st_.posed;
}

bool Reducer::apply(int seat, int action) {
    if (seat < 0 || seat >= kSeats) return false;
    const std::vector<int>& now = legal(seat);
    if (std::find(now.begin(), now.end(), action) == now.end()) return false;
    st_.decisions.push_back({seat, action});
    ++st_.version;
    decide(seat, action, now.front());
    run();
    return true;
}

void Reducer::decide(int seat, int action, int first_legal) {
    legal_known_ = 0;
    Seat& s = st_.seats[seat];
    if (st_.phase == Phase::kClaim || st_.phase == Phase::kRob) {
        s.claim = action;
        emit(EventType::kClaim, seat, kNoTile, -1, action);
    } else if (action < kPongAt || (action >= kKongAt && action < kChowAt)) {
        // under forever, declining a self-drawn win (not 天胡) bars that tile
        if (st_.rules.pass_rule == PassRule::kForever && s.drawn >= 0 && !st_.turn.first && first_legal == kHuAt)
            s.banned |= bit(s.drawn);
        if (action < kPongAt) discard(seat, action - kDiscardAt, false);
        else own_kong(seat, action - kKongAt);
    } else if (action >= kExchangeAt) {
        choose_exchange(seat, action);
    } else if (action >= kVoidAt) {
        choose_void(seat, action - kVoidAt, false);
    } else {  // hu: legal() offers nothing else
        self_drawn_win(seat);
        after_wins(seat);
    }
}

void Reducer::pass_pending() {
    if (st_.phase != Phase::kClaim && st_.phase != Phase::kRob) return;
    std::vector<int> owing;
    to_act(owing);
    for (int seat : owing) {
        const std::vector<int>& opts = st_.seats[seat].claim_options;
        const int action = opts.size() == 1 && opts[0] == kHuAt ? kHuAt : kPassAt;
        st_.autos.push_back({seat, action});
        decide(seat, action, legal(seat).front());
    }
    run();
}

void Reducer::run() {
    while (true) {
        legal_known_ = 0;
        const Phase phase = st_.phase;
        if (phase == Phase::kClaim || phase == Phase::kRob) {
            for (int i = 0; i < 3; ++i)
                if (owes(after(st_.window.from, i))) return;
            resolve_window();
        } else if (phase == Phase::kDraw) {
            if (!draw()) end(EndReason::kExhausted);
        } else if (phase == Phase::kTurn && st_.locked[st_.current]) {
            const std::vector<int>& only = legal(st_.current);
            if (only.size() != 1 || only[0] >= kPongAt) return;
            st_.autos.push_back({st_.current, only[0]});
            discard(st_.current, only[0] - kDiscardAt, true);
        } else {
            return;
        }
    }
}

}  // namespace chuanma
