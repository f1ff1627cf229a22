// The hand's set-up: the deal, 换三张 (exchange three) and 定缺 (the void suit), the dealer's first turn.
#include <array>
#include <stdexcept>
#include <utility>

#include "actions.hpp"
#include "reducer.hpp"
#include "reducer_facts.hpp"

namespace chuanma {

Reducer::Reducer(const Rules& rules, std::vector<std::uint8_t> wall, int dealer, int direction)
    : tables_(tables()) {
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
    for (int s = 0; s < kSeats; ++s) {
        st_.dealt[s] = st_.seats[s].hand;
        emit(EventType::kDeal, s);
    }
    emit(EventType::kDealDone, -1, kNoTile, -1, st_.remaining());
    if (rules.has_exchange()) st_.phase = Phase::kExchange;
    else if (rules.has_void()) enter_void();
    else first_turn();
    run();
}

Reducer::Reducer(HandState state) : st_(std::move(state)), tables_(tables()) {}

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
    st_.posed = st_.version;
    for (int x = 0; x < kSeats; ++x) {
        const auto& h = st_.seats[x].hand;
        int held = 0, missing = -1;
        for (int suit = 0; suit < 3; ++suit) {
            if (holds_suit(h, suit)) ++held;
            else missing = suit;
        }
        if (held == 2) {
            st_.autos.push_back({x, kVoidAt + missing});
            choose_void(x, missing, true);
        }
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
