// Payments (chuanma.engine.ledger): wins, kongs and 呼叫转移 as they happen, and the exhaustive
// draw's settlement (查花猪, 查大叫, 退税).
#include <algorithm>

#include "reducer.hpp"
#include "reducer_facts.hpp"

namespace chuanma {

int Reducer::pay(int payer, int payee, std::int64_t amount, Reason reason, int seq) {
    if (amount <= 0 || payer == payee) return -1;
    st_.ledger.push_back(Payment{payer, payee, amount, reason, seq});
    emit(EventType::kPayment, -1, kNoTile, payer, payee | static_cast<int>(reason) << 4, seq, amount);
    return static_cast<int>(st_.ledger.size()) - 1;
}

std::array<std::int64_t, kSeats> Reducer::deltas() const {
    std::array<std::int64_t, kSeats> out{};
    for (const Payment& p : st_.ledger) {
        out[p.payer] -= p.amount;
        out[p.payee] += p.amount;
    }
    return out;
}

void Reducer::payers(int seat, std::vector<int>& out) const {
    out.clear();
    for (int i = 0; i < 3; ++i)
        if (!st_.out[after(seat, i)]) out.push_back(after(seat, i));
}

void Reducer::self_draw_payers(int seat, std::vector<int>& out) const {
    // 点杠花 under discarder_pays: a win on the replacement after an exposed kong is the discarder's
    const Turn& turn = st_.turn;
    if (st_.rules.exposed_kong_flower == ExposedKongFlower::kDiscarderPays && turn.draw_kind == DrawKind::kReplacement &&
        turn.kong >= 0) {
        const KongRecord& k = st_.kongs[turn.kong];
        if (k.kind == KongKind::kExposed && !k.payments.empty()) {
            out.assign(1, st_.ledger[k.payments.front()].payer);
            return;
        }
    }
    payers(seat, out);
}

void Reducer::call_transfer(int kong, const std::vector<int>& winners, const std::vector<int>& seqs) {
    const CallTransfer rule = st_.rules.call_transfer;
    if (kong < 0 || rule == CallTransfer::kOff) return;
    KongRecord& k = st_.kongs[kong];
    if (k.transferred) return;
    std::int64_t earned = 0;
    for (int i : k.payments) earned += st_.ledger[i].amount;
    if (!earned) return;
    const std::size_t n = rule == CallTransfer::kEachWinner ? winners.size() : 1;
    for (std::size_t i = 0; i < n; ++i) pay(k.seat, winners[i], earned, Reason::kCallTransfer, seqs[i]);
    k.transferred = true;
}

// 查大叫: the best fan over the seat's waits, won on a discard with no situation; -1 not ready.
int Reducer::static_fan(int seat) const {
    ScoreMeld melds[kMaxMelds];
    const int n = score_melds(seat, melds);
    const int best = max_static_fan(st_.seats[seat].hand.data(), kKinds, melds, n, st_.seats[seat].void_suit,
                                    st_.rules.scoring);
    return best < -1 ? -1 : best;
}

void Reducer::settle_exhausted() {
    const Rules& r = st_.rules;
    std::array<bool, kSeats> pig{}, part{}, paid{}, waiting{};
    std::array<int, kSeats> fan{-1, -1, -1, -1};
    int parts = 0, pigs = 0;
    for (int s = 0; s < kSeats; ++s) {
        pig[s] = holds_suit(st_.seats[s].hand, st_.seats[s].void_suit);
        part[s] = !st_.out[s];
        parts |= part[s] << s;
        pigs |= (pig[s] && part[s]) << s;
    }
    const bool any_pig = std::find(pig.begin(), pig.end(), true) != pig.end();
    if (!(r.chadajiao || r.refund || any_pig)) {  // nothing to settle (大众麻将's 荒庄不荒杠)
        int ready = 0;
        for (int s = 0; s < kSeats; ++s) ready |= (part[s] && !pig[s] && seat_waits(s) != 0) << s;
        emit(EventType::kExhausted, -1, kNoTile, -1, parts | pigs << 4 | ready << 8);
        return;
    }
    // winners no longer playing but at the table are paid by pigs when the rule says so
    std::int64_t fans = 0;
    int ready = 0;
    for (int s = 0; s < kSeats; ++s) {
        paid[s] = part[s] || (r.flower_pig_pays_winners && st_.out[s] && !st_.left[s]);
        if (paid[s] && !pig[s]) fan[s] = static_fan(s);
        // a byte a seat: fan + 1 (0: not paid), below 2^7 as every total is at most kMaxTotal
        if (paid[s]) fans |= static_cast<std::int64_t>(fan[s] + 1) << (8 * s);
        waiting[s] = part[s] && (fan[s] >= 0 || (r.winners_stay() && st_.won[s]));
        ready |= waiting[s] << s;
    }
    const int seq = static_cast<int>(st_.events.size());
    emit(EventType::kExhausted, -1, kNoTile, -1, parts | pigs << 4 | ready << 8, 1, fans);
    const std::int64_t cap = r.scoring.max_fan >= 0 ? multiplier(r.scoring.max_fan) : 16;
    for (int p = 0; p < kSeats; ++p) {
        if (!part[p] || !pig[p]) continue;
        for (int s = 0; s < kSeats; ++s) {
            if (!paid[s] || pig[s]) continue;
            if (r.flower_pig == FlowerPig::kFixed) pay(p, s, cap, Reason::kFlowerPig, seq);
            else if (fan[s] >= 0) pay(p, s, multiplier(fan[s]), Reason::kFlowerPig, seq);
        }
    }
    if (r.chadajiao)  // under ting_max a pig also pays 查大叫, as the non-waiting player it is
        for (int p = 0; p < kSeats; ++p)
            if (part[p] && (!pig[p] || r.flower_pig == FlowerPig::kTingMax) && !waiting[p])
                for (int s = 0; s < kSeats; ++s)
                    if (waiting[s]) pay(p, s, multiplier(std::max(fan[s], 0)), Reason::kChadajiao, seq);
    if (r.refund)
        for (int s = 0; s < kSeats; ++s) {
            if (!part[s] || waiting[s]) continue;
            for (const KongRecord& k : st_.kongs) {
                if (k.seat != s || k.transferred) continue;
                for (int i : k.payments) {
                    const Payment back = st_.ledger[i];
                    if (!(st_.left[back.payer] && st_.out[back.payer])) pay(s, back.payer, back.amount, Reason::kRefund, seq);
                }
            }
        }
}

}  // namespace chuanma
