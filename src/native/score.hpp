// Fan (番) scoring of a winning hand: the Sichuan table and 大众麻将's (docs/rules.md §3).
#pragma once

#include <array>
#include <cstdint>

#include "decompose.hpp"

namespace chuanma {

// Every fan, in the order results list them (the Python table chuanma.scoring.FANS, whose order a
// test checks against kFanIds).
enum class Fan : std::uint8_t {
    kTianhu, kDihu, kShisanyao, kDasixi, kDasanyuan, kZiyise, kPinghu, kQingyise, kHunyise,
    kLongqidui, kQidui, kDuiduihu, kDuanyaojiu, kZhongzhang, kDaiyaojiu, kYaojiu, kJingoudiao,
    kJiangdui, kMenqing, kXiaosixi, kXiaosanyuan, kJianke, kJiaxinwu, kShibaluohan, kZimo,
    kGangshanghua, kGangshangpao, kQiangganghu, kHaidilaoyue, kHaidipao, kGen,
};
constexpr int kFans = static_cast<int>(Fan::kGen) + 1;

// The fans' ids (as chuanma.scoring.FANS names them), by Fan.
extern const char* const kFanIds[kFans];

// Facts about how the hand was won that the tiles alone cannot show: bits of a situation set, in
// the order of chuanma.scoring.SITUATIONS (kSituationIds).
enum Situation : std::uint32_t {
    kKongReplacement = 1u << 0,   // self-drawn on a kong's replacement tile
    kConsecutiveKongs = 1u << 1,  // ... after consecutive kongs
    kAfterKong = 1u << 2,         // on the discard made right after its discarder's kong
    kRobbingKong = 1u << 3,       // on the tile another player adds to a pong
    kLastTile = 1u << 4,          // on the last tile of the wall, or the discard after it
    kTianhuWin = 1u << 5,         // 天胡
    kDihuWin = 1u << 6,           // 地胡
};
constexpr int kSituations = 7;
extern const char* const kSituationIds[kSituations];

enum class FanStyle : std::uint8_t { kSichuan, kDazhong };
enum class YaojiuRule : std::uint8_t { kDaiyaojiu, kLiteral };  // 带幺九 (every set a 1 or 9), or every tile

// The rule options scoring reads, and the fans' values: the core holds none of its own (the Python
// fan table, chuanma.scoring.FANS, is their one source).
struct ScoreOptions {
    FanStyle style = FanStyle::kSichuan;  // 大众麻将: no 根 or 金钩钓, 门清 standard, 平胡
    bool void_suit = true;                // the variant plays 定缺: a hand of three suits cannot win
    bool longqidui = false;               // 龙七对 replaces 七对 and absorbs one 根
    YaojiuRule yaojiu = YaojiuRule::kDaiyaojiu;
    int max_fan = -1;                     // 封顶, -1 for none
    bool zimo_fan = true;                 // 自摸 is a fan (else paid as base, not scored here)
    bool gangshangpao = true;
    bool haidilaoyue = true;
    bool haidipao = true;
    bool gangshang_shuanghua = false;     // 杠上花 is worth double after consecutive kongs
    bool dihu_on_dealer_discard = true;   // 地胡 also on the dealer's first discard
    bool robbing_kong = true;             // 抢杠胡 allowed
    std::uint32_t house = 0;              // the house fans enabled, bit 1 << Fan
    std::array<int, kFans> value{};       // each fan's value, from the fan table (根, 箭刻: each; 杠上花: single)
};

// The most fan a value or 封顶 takes (chuanma.rules.MAX_FAN): sums of them stay far within int.
constexpr int kMaxFanValue = 64;

// Why `o` is refused (nullptr: taken): 封顶 below -1 or above kMaxFanValue, a fan's value negative or
// above it, a house bit on a fan that is no house fan. Scoring reads no other options.
const char* refusal(const ScoreOptions& o);

// The highest total a win can reach under `o` (an upper bound): 封顶 when set, else the larger of the
// limit hands' values (each scores alone) and the sum of every other fan at its most (four 根,
// three 箭刻, 杠上花 doubled).
int highest_total(const ScoreOptions& o);

enum class MeldKind : std::uint8_t { kPong, kKong, kChow };

// A declared set: its kind, its tile (a chow's lowest) and whether it is a concealed kong.
struct ScoreMeld {
    MeldKind kind;
    int tile;
    bool concealed;
};
constexpr int kMaxMelds = 4;

// Why a hand does not win (kWins: it does); kRefused for input the facade never gives (a meld
// tile that is no tile, more than four melds, a void that is no suit).
enum class NoWin : std::uint8_t { kWins, kVoidHeld, kThreeSuits, kRobbingKong, kIncomplete, kRefused };

struct FanValue {
    Fan fan;
    int value;
};

// The value of a hand: its fans in table order, the total capped by max_fan, and the reading
// scored (the first of the best; for 天胡 and 地胡 the first).
struct Score {
    NoWin reason = NoWin::kWins;
    int size = 0;
    std::array<FanValue, kFans> fans{};
    int total = 0;
    Reading reading{};
};

// Scores a win: `hand` the 27 or 34 counts of the concealed tiles, `win_tile` included; `vi` the
// void suit's index or kNoVoid; `situations` bits of Situation. Checks of the facade (hand size,
// copies, situations that go together) are not repeated.
Score score(const std::uint8_t* hand, int len, const ScoreMeld* melds, int melds_size, int win_tile,
            bool self_drawn, int vi, std::uint32_t situations, const ScoreOptions& options);

// 查大叫: the best total over every wait of a 3n+1 hand (`hand` its concealed counts), won on a
// discard with no situation; -1 when it has none. A tile the hand and its melds hold all four of
// is no wait; refusals of waits() (below -1) are returned as they are.
int max_static_fan(const std::uint8_t* hand, int len, const ScoreMeld* melds, int melds_size, int vi,
                   const ScoreOptions& options);

}  // namespace chuanma
