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
enum class Yaojiu : std::uint8_t { kDaiyaojiu, kLiteral };
enum class ZimoBonus : std::uint8_t { kFan, kBase };
enum class ExposedKong : std::uint8_t { kDiscarderOnly, kEveryone };
enum class CallTransfer : std::uint8_t { kEachWinner, kFirstWinner, kOff };
enum class ExposedKongFlower : std::uint8_t { kZimo, kDiscarderPays };
enum class FlowerPig : std::uint8_t { kTingMax, kFixed };

// The house fans, in the order of chuanma.rules.HOUSE_FAN_DEFAULTS.
enum HouseFan : std::uint8_t { kJiangdui, kMenqing, kZhongzhang, kJiaxinwu, kShibaluohan, kHouseFans };

struct Rules {
    Variant variant = Variant::kXuezhan;
    std::int64_t base = 1;  // 底分
    DealerRule dealer = DealerRule::kRandom;
    // the hand's flow: 换三张, 一炮多响, 抢杠胡, 血流 winners' kongs, the last four tiles
    bool exchange = true, multiple_winners = true, robbing_kong = true, winners_kong = false;
    bool no_kong_in_last_four = true, forced_win_in_last_four = true;
    PassRule pass_rule = PassRule::kSameTurn;
    // fans: 龙七对, 幺九, 杠上炮, 海底捞月, 海底炮, 杠上双花, 地胡 on the dealer's discard, 封顶 (0: none)
    bool longqidui = false;
    Yaojiu yaojiu = Yaojiu::kDaiyaojiu;
    bool gangshangpao = true, haidilaoyue = true, haidipao = true, gangshang_shuanghua = false;
    bool dihu_on_dealer_discard = true;
    int max_fan = 0, fan_label_offset = 0;
    ZimoBonus zimo_bonus = ZimoBonus::kFan;
    std::array<int, kHouseFans> house_fans{};  // 0: off
    // payments: 明杠, 过手杠, 呼叫转移, 点杠花, 查花猪, 查大叫, 退税, 逃跑
    ExposedKong exposed_kong = ExposedKong::kDiscarderOnly;
    bool late_added_kong_pays = false;
    CallTransfer call_transfer = CallTransfer::kEachWinner;
    ExposedKongFlower exposed_kong_flower = ExposedKongFlower::kZimo;
    FlowerPig flower_pig = FlowerPig::kFixed;
    bool flower_pig_pays_winners = false, chadajiao = true, refund = true, escape_penalty = true;
    bool concealed_kong_shown = false;  // 暗杠 shown face up
    ScoreOptions scoring;  // what the fan scoring reads of them, with the fan table's values
    std::string preset = "xuezhan";  // the preset the options were taken from (only the JSON form reads it)

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
