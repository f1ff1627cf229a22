// Every rule option of a RuleSet (chuanma.rules), as plain values for the compiled reducer.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "score.hpp"

namespace chuanma {

enum class Variant : std::uint8_t { kXuezhan, kXueliu, kNormal, kDazhong };
enum class DealerRule : std::uint8_t { kRandom, kFirstWinner, kDiscarder, kRotate };
enum class PassRule : std::uint8_t { kNone, kSameTurn, kForever };
enum class ExposedKong : std::uint8_t { kDiscarderOnly, kEveryone };
enum class CallTransfer : std::uint8_t { kEachWinner, kFirstWinner, kOff };
enum class ExposedKongFlower : std::uint8_t { kZimo, kDiscarderPays };
enum class FlowerPig : std::uint8_t { kTingMax, kFixed };

// The highest total the core pays (the Rules binding refuses a rule set whose wins could reach more,
// by highest_total). A payment is then at most 2^50 + 1 base (自摸 paid as base adds one), under 2^51;
// a hand makes fewer than 2^10 payments (under 90 draws and discards can be won, each paid by at most
// three payers plus three 呼叫转移; at most 34 kongs, three payers each; the settlement's 查花猪, 查大叫,
// 退税 and 逃跑 at most twelve each or one per kong payment), so a seat's delta stays below 2^61 base:
// int64 holds every delta and sum with two bits to spare. Deltas are in base units; base itself (up to
// 10^9, chuanma.rules.MAX_BASE) is applied outside the core on Python integers, which cannot overflow.
constexpr int kMaxTotal = 50;

struct Rules {
    Variant variant = Variant::kXuezhan;
    std::int64_t base = 1;  // 底分
    DealerRule dealer = DealerRule::kRandom;
    // the hand's flow: 换三张, 一炮多响, 抢杠胡, 血流 winners' kongs, the last four tiles
    bool exchange = true, multiple_winners = true, winners_kong = false;
    bool no_kong_in_last_four = true, forced_win_in_last_four = true;
    PassRule pass_rule = PassRule::kSameTurn;
    int fan_label_offset = 0;
    // payments: 明杠, 过手杠, 呼叫转移, 点杠花, 查花猪, 查大叫, 退税, 逃跑
    ExposedKong exposed_kong = ExposedKong::kDiscarderOnly;
    bool late_added_kong_pays = false;
    CallTransfer call_transfer = CallTransfer::kEachWinner;
    ExposedKongFlower exposed_kong_flower = ExposedKongFlower::kZimo;
    FlowerPig flower_pig = FlowerPig::kFixed;
    bool flower_pig_pays_winners = false, chadajiao = true, refund = true, escape_penalty = true;
    bool concealed_kong_shown = false;  // 暗杠 shown face up
    // the fans, 抢杠胡, 地胡 on the dealer's discard, 封顶 and 自摸's bonus: what the fan scoring reads,
    // with the fan table's values; the one copy of those options (checked against the RuleSet)
    ScoreOptions scoring;
    std::string json = "\"xuezhan\"";  // RuleSet.to_json() as JSON text, made once (only the JSON form reads it)

    // What the variant decides (chuanma.variant).
    bool winners_stay() const { return variant == Variant::kXueliu; }
    bool has_void() const { return variant != Variant::kDazhong; }
    bool has_chow() const { return variant == Variant::kDazhong; }
    bool has_exchange() const { return variant != Variant::kDazhong && exchange; }
    int ends_at() const { return variant == Variant::kXuezhan || variant == Variant::kXueliu ? 3 : 1; }
    int wall_size() const { return variant == Variant::kDazhong ? 136 : 108; }
    int kinds() const { return wall_size() / 4; }  // tile kinds in play: the honours only in 大众麻将
};

}  // namespace chuanma
