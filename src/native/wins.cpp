// Wins (self-drawn, on a discard, robbing a kong), waits, and the end of the hand.
#include <algorithm>
#include <stdexcept>

#include "hand.hpp"
#include "tables.hpp"
#include "reducer.hpp"
#include "reducer_facts.hpp"

namespace chuanma {
namespace {

// The waits of `counts` (3n+1) with `melds`: a tile of which a meld and the hand hold all four is none.
// A win the rules offered must score: a refusal throws before the hand changes.
void check_scored(const Score& scored) {
    if (scored.reason != NoWin::kWins) throw std::logic_error("the scoring refused a win the rules offered");
}

TileMask waits_with(const std::array<std::uint8_t, 34>& counts, const std::vector<Meld>& melds, int void_suit) {
    int melded[kKinds] = {};
    for (const Meld& m : melds) {
        if (m.kind == MeldKind::kChow)
            for (int t = m.tile; t < m.tile + 3; ++t) ++melded[t];
        else
            melded[m.tile] += m.kind == MeldKind::kPong ? 3 : 4;
    }
    const std::int64_t found = waits_beside(counts.data(), kKinds, void_suit, melded);
    return found <= 0 ? 0 : static_cast<TileMask>(found);
}

// is_win of the seat's concealed tiles, read from the codes of their parts that the seat keeps.
bool winning(const Tables& t, const Seat& s, int kinds) {
    if (t.suit[s.code[0]].win + t.suit[s.code[1]].win + t.suit[s.code[2]].win + t.honour[s.code[3]].win == 7)
        return true;  // sets and a pair
    // seven pairs (a kind held four times is two), or 十三幺
    constexpr int kEveryHonour = 19531;  // the least code of the honours holding each of the seven
    return s.tiles == 14 &&
           (s.odd == 0 || (kinds == kKinds && s.code[3] >= kEveryHonour && is_thirteen_orphans(s.hand.data(), kKinds)));
}

}  // namespace

bool Reducer::complete(int seat) const {
    const Seat& s = st_.seats[seat];
    return !s.holds_void() && winning(tables_, s, st_.rules.kinds());
}

bool Reducer::completes(int seat, int t) {
    Seat& s = st_.seats[seat];
    if (s.holds_void() || s.hand[t] == 4) return false;
    s.add(t, 1);
    const bool won = winning(tables_, s, st_.rules.kinds());
    s.add(t, -1);
    return won;
}

bool Reducer::forced() const { return st_.rules.forced_win_in_last_four && st_.remaining() <= kLastFour; }

TileMask Reducer::seat_waits(int seat) const {
    return waits_with(st_.seats[seat].hand, st_.melds[seat], st_.seats[seat].void_suit);
}

std::int64_t Reducer::standing_waits(int seat) const {
    const Seat& s = st_.seats[seat];
    int n = 0;
    for (int c : s.hand) n += c;
    if (n % 3 != 1) return -1;
    return static_cast<std::int64_t>(s.waits_locked ? s.locked_waits : seat_waits(seat));
}

bool Reducer::keeps_waits(int seat, int t) const {
    const Seat& s = st_.seats[seat];
    std::array<std::uint8_t, 34> counts = s.hand;
    std::vector<Meld> melds = st_.melds[seat];
    auto pong = std::find_if(melds.begin(), melds.end(),
                             [t](const Meld& m) { return m.kind == MeldKind::kPong && m.tile == t; });
    if (counts[t] == 4) {
        counts[t] = 0;
        melds.push_back(Meld{MeldKind::kKong, static_cast<std::int8_t>(t), KongKind::kConcealed});
    } else if (pong != melds.end()) {
        --counts[t];
        *pong = Meld{MeldKind::kKong, static_cast<std::int8_t>(t), KongKind::kAdded};
    } else {
        return false;
    }
    return waits_with(counts, melds, s.void_suit) == s.locked_waits;
}

int Reducer::score_melds(int seat, ScoreMeld* out) const {
    int n = 0;
    for (const Meld& m : st_.melds[seat]) out[n++] = ScoreMeld{m.kind, m.tile, m.kong == KongKind::kConcealed};
    return n;
}

// The fan of the seat's win on `tile` (already in its hand when `in_hand`): the engine offers only
// wins the scoring takes.
Score Reducer::score_win(int seat, int tile, bool self_drawn, std::uint32_t situations, bool in_hand) const {
    std::array<std::uint8_t, 34> counts = st_.seats[seat].hand;
    if (!in_hand) ++counts[tile];
    ScoreMeld melds[kMaxMelds];
    const int n = score_melds(seat, melds);
    return score(counts.data(), kKinds, melds, n, tile, self_drawn, st_.seats[seat].void_suit, situations,
                 st_.rules.scoring);
}

void Reducer::self_drawn_win(int seat) {
    Seat& s = st_.seats[seat];
    const Turn& turn = st_.turn;
    int t = s.drawn;
    std::uint32_t situations = 0;
    if (turn.first) {  // 天胡: on the dealer's 14th tile if it still holds it
        t = st_.wall[kDealEnd - 1];
        if (!s.hand[t])
            for (int x = 33; x >= 0; --x)
                if (s.hand[x]) {
                    t = x;
                    break;
                }
        situations = kTianhuWin;
    } else {
        if (turn.draw_kind == DrawKind::kReplacement) {
            situations |= kKongReplacement;
            if (turn.kongs >= 2) situations |= kConsecutiveKongs;
        }
        if (turn.drew_last) situations |= kLastTile;
        if (turn.dihu) situations |= kDihuWin;
    }
    std::vector<int> paying;
    self_draw_payers(seat, paying);
    const Score scored = score_win(seat, t, true, situations, true);
    check_scored(scored);  // before anything changes
    s.add(t, -1);
    s.drawn = kNoTile;
    st_.win_piles[seat].push_back(static_cast<std::uint8_t>(t));
    st_.turn.first = false;
    const int seq = record_win(seat, t, -1, false, scored, situations);
    const std::int64_t each = multiplier(scored.total) + !st_.rules.scoring.zimo_fan;
    for (int p : paying) pay(p, seat, each, Reason::kZimo, seq);
}

// Wins on a discard or a robbed kong: each winner is paid by the discarder (declarer); 呼叫转移 of
// the discarder's `kong` (-1: none) follows.
void Reducer::claim_wins(const std::vector<int>& winners, int from, int t, std::uint32_t situations, bool robbed, int kong) {
    if (st_.wins.empty() && winners.size() > 1) st_.first_multi_from = from;
    std::vector<Score> scores;  // every winner scored before anything changes
    for (int w : winners) {
        scores.push_back(score_win(w, t, false, situations, false));
        check_scored(scores.back());
    }
    std::vector<int> seqs;
    for (std::size_t i = 0; i < winners.size(); ++i) {
        const int w = winners[i];
        if (i == 0) st_.win_piles[w].push_back(static_cast<std::uint8_t>(t));
        seqs.push_back(record_win(w, t, from, robbed, scores[i], situations));
        pay(from, w, multiplier(scores[i].total), robbed ? Reason::kQianggang : Reason::kDianpao, seqs.back());
    }
    call_transfer(kong, winners, seqs);
}

int Reducer::record_win(int seat, int t, int from, bool robbed, const Score& scored, std::uint32_t situations) {
    Seat& s = st_.seats[seat];
    const TileMask waited = s.waits_locked ? s.locked_waits : seat_waits(seat);
    const int seq = static_cast<int>(st_.events.size());
    emit(EventType::kHu, seat, t, from, static_cast<int>(situations) | robbed << 16 | forced() << 17, scored.total,
         static_cast<std::int64_t>(waited));
    st_.wins.push_back(WinRecord{seat, t, from, robbed, situations, scored.total,
                                 {scored.fans.begin(), scored.fans.begin() + scored.size}, seq, s.hand});
    st_.won[seat] = true;
    if (!st_.rules.winners_stay()) {
        st_.out[seat] = true;
    } else if (!st_.locked[seat]) {
        st_.locked[seat] = true;
        s.waits_locked = true;
        s.locked_waits = waited;
    }
    return seq;
}

int Reducer::next_dealer() const {
    if (st_.wins.empty()) return st_.dealer;
    const WinRecord& first = st_.wins.front();
    switch (st_.rules.dealer) {
        case DealerRule::kRotate: return st_.won[st_.dealer] ? st_.dealer : (st_.dealer + 1) % kSeats;
        case DealerRule::kDiscarder: return first.from < 0 ? first.seat : first.from;
        default: return st_.first_multi_from >= 0 ? st_.first_multi_from : first.seat;
    }
}

bool Reducer::hand_over() const {
    return std::count(st_.out.begin(), st_.out.end(), true) >= st_.rules.ends_at();
}

void Reducer::end_over() {
    const Variant v = st_.rules.variant;
    end(v == Variant::kXuezhan ? EndReason::kThreeWon : v == Variant::kXueliu ? EndReason::kTooFewPlayers : EndReason::kWon);
}

void Reducer::after_wins(int last) {
    close_window();
    if (hand_over()) end_over();
    else draw_due(next_active(last));
}

void Reducer::end(EndReason reason) {
    close_window();
    st_.phase = Phase::kEnd;
    if (reason == EndReason::kExhausted) settle_exhausted();
    int pig = 0;
    for (int s = 0; s < kSeats; ++s) pig |= holds_suit(st_.seats[s].hand, st_.seats[s].void_suit) << s;
    emit(EventType::kEnd, -1, kNoTile, -1, static_cast<int>(reason), pig);
}

}  // namespace chuanma
