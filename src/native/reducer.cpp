// The reducer's entry points: set-up (the deal, 换三张, 定缺), who acts, the legal actions, apply.
#include "reducer.hpp"

#include <algorithm>
#include <stdexcept>

#include "actions.hpp"
#include "hand.hpp"
#include "reducer_rules.hpp"

namespace chuanma {

Reducer::Reducer(const Rules& rules, std::vector<std::uint8_t> wall, int dealer, int direction, FanFunction fan)
    : fan_(std::move(fan)), tables_(tables()) {
    const int size = rules.wall_size();
    std::array<int, 34> copies{};
    if (static_cast<int>(wall.size()) != size) throw std::invalid_argument("the wall is not the whole set");
    for (std::uint8_t t : wall)
        if (t >= size / 4 || ++copies[t] > 4) throw std::invalid_argument("the wall is not the whole set");
    if (dealer < 0 || dealer >= kSeats) throw std::invalid_argument("dealer must be a seat 0-3");
    if (direction < 1 || direction > 3) throw std::invalid_argument("direction must be 1-3");
    st_.rules = rules;
    st_.events.reserve(256);  // a hand makes about two hundred
    st_.wall = std::move(wall);
    st_.dealer = st_.current = dealer;
    st_.direction = direction;
    st_.live = kDealEnd;
    st_.tail = size - 1;
    emit(EventType::kStart, -1, kNoTile, -1, dealer, size);
    for (int k = 0; k < kSeats; ++k)
        for (int i = 0; i < 13; ++i) st_.seats[(dealer + k) % kSeats].add(st_.wall[13 * k + i], 1);
    st_.seats[dealer].add(st_.wall[kDealEnd - 1], 1);
    for (int s = 0; s < kSeats; ++s) emit(EventType::kDeal, s);
    emit(EventType::kDealDone, -1, kNoTile, -1, st_.remaining());
    if (rules.has_exchange()) st_.phase = Phase::kExchange;
    else if (rules.has_void()) enter_void();
    else first_turn();
    run();
}

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

void Reducer::exchange_options(int seat, std::vector<int>& out) const {
    const auto& h = st_.seats[seat].hand;
    for (int lo = 0; lo < 27; lo += 9) {
        int pool[9], n = 0;
        for (int t = lo; t < lo + 9; ++t)
            if (h[t]) pool[n++] = t;
        for (int i = 0; i < n; ++i)
            for (int j = i; j < n; ++j)
                for (int k = j; k < n; ++k) {
                    const int a = pool[i], b = pool[j], c = pool[k];
                    if ((a != b || h[a] >= 2 + (b == c)) && (b != c || h[b] >= 2)) out.push_back(exchange_index(a, b, c));
                }
    }
}

void Reducer::void_options(int seat, std::vector<int>& out) const {
    const auto& h = st_.seats[seat].hand;
    int held = 0;
    for (int s = 0; s < 3; ++s) held += holds_suit(h, s);
    for (int s = 0; s < 3; ++s)
        if (held != 1 || !holds_suit(h, s)) out.push_back(kVoidAt + s);
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

bool Reducer::apply(int seat, int action) {
    if (seat < 0 || seat >= kSeats) return false;
    const std::vector<int>& now = legal(seat);
    if (std::find(now.begin(), now.end(), action) == now.end()) return false;
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
            discard(st_.current, only[0] - kDiscardAt, true);
        } else {
            return;
        }
    }
}

void Reducer::choose_exchange(int seat, int index) {
    Seat& s = st_.seats[seat];
    const auto& tiles = exchange_tiles()[index - kExchangeAt];
    s.exchange = {tiles[0], tiles[1], tiles[2]};
    st_.exchanged[seat] = true;
    emit(EventType::kExchangeChosen, seat, kNoTile, -1, index);
    for (int x = 0; x < kSeats; ++x)
        if (!st_.exchanged[x]) return;
    const int step = st_.direction;
    for (Seat& x : st_.seats)
        for (int t : x.exchange) x.add(t, -1);
    for (int x = 0; x < kSeats; ++x)
        for (int t : st_.seats[x].exchange) st_.seats[(x + step) % kSeats].add(t, 1);
    emit(EventType::kExchange, -1, kNoTile, -1, step);
    for (int x = 0; x < kSeats; ++x) {
        const int from = (x - step + kSeats) % kSeats;
        const auto& got = st_.seats[from].exchange;
        emit(EventType::kExchangeReceived, x, kNoTile, from, exchange_index(got[0], got[1], got[2]));
    }
    enter_void();
}

void Reducer::enter_void() {
    st_.phase = Phase::kVoid;
    for (int x = 0; x < kSeats; ++x) {
        const auto& h = st_.seats[x].hand;
        int held = 0, missing = -1;
        for (int suit = 0; suit < 3; ++suit) {
            if (holds_suit(h, suit)) ++held;
            else missing = suit;
        }
        if (held == 2) choose_void(x, missing, true);
    }
}

void Reducer::choose_void(int seat, int suit, bool automatic) {
    st_.seats[seat].void_suit = suit;
    if (!automatic) st_.void_chosen[seat] = true;
    emit(EventType::kVoidChosen, seat, kNoTile, -1, suit, automatic);
    int packed = 0;
    for (int x = 0; x < kSeats; ++x) {
        if (st_.seats[x].void_suit < 0) return;
        packed |= st_.seats[x].void_suit << (2 * x);
    }
    st_.void_chosen.fill(true);
    st_.voids_revealed = true;
    emit(EventType::kVoids, -1, kNoTile, -1, packed);
    first_turn();
}

void Reducer::first_turn() {
    st_.phase = Phase::kTurn;
    st_.current = st_.dealer;
    st_.turn.first = true;
    st_.turn.draw_kind = DrawKind::kNone;
}

}  // namespace chuanma
