// Chinese and English strings. The choice is remembered in localStorage ("chuanma.lang").
// t("key", {name: value}) fills {name} placeholders; applyI18n(root) fills elements marked
// data-i18n (text), data-i18n-title, data-i18n-aria and data-i18n-placeholder.

const STORE = "chuanma.lang";

export const STRINGS = {
  zh: {
    "app.title": "川麻", "app.tagline": "四川麻将 · 血战到底 · 血流成河",
    "lang.switch": "English", "lang.label": "切换语言",
    "sound.on": "音效：开", "sound.off": "音效：关", "hints.on": "提示：开", "hints.off": "提示：关",
    "auth.username": "用户名", "auth.password": "密码", "auth.login": "登录",
    "auth.register": "注册", "auth.guest": "游客试玩", "auth.logout": "退出",
    "auth.rules": "用户名 3–20 个字母、数字或下划线，以字母开头；密码至少 8 个字符。",
    "lobby.title": "大厅", "lobby.balance": "余额", "lobby.chips": "{n} 筹码",
    "lobby.rooms": "房间", "lobby.base": "底分 {base}", "lobby.range": "入场 {range}", "lobby.plays": "规则 {preset}",
    "lobby.join": "快速加入", "lobby.too_poor": "筹码不足：需要至少 {low}",
    "lobby.too_rich": "筹码超出上限 {high}", "lobby.private": "私人牌桌", "lobby.create": "创建牌桌",
    "lobby.invite": "邀请码", "lobby.join_invite": "加入", "lobby.watch": "观战",
    "lobby.table_id": "牌桌编号", "lobby.history": "我的牌局", "lobby.no_history": "还没有打完的牌局。",
    "lobby.preset": "规则", "lobby.hands": "局数", "lobby.bots": "机器人座位", "lobby.bot_level": "机器人水平",
    "lobby.bot_level.easy": "简单", "lobby.bot_level.normal": "普通", "lobby.bot_level.hard": "困难", "lobby.max_fan": "封顶（番）", "lobby.options": "规则选项",
    "lobby.invite_link": "邀请链接", "lobby.copy": "复制", "lobby.copied": "已复制",
    "lobby.waiting": "等待玩家… {waiting} 人在等", "lobby.bots_in": "{s} 秒后机器人入座",
    "lobby.resume": "回到牌桌", "lobby.bots_allowed": "允许机器人", "lobby.on": "开", "lobby.off": "关",
    "lobby.private_room": "私人牌桌",
    "lobby.when": "时间", "lobby.result": "输赢", "lobby.record": "记录",
    "lobby.sit": "入座", "lobby.no_tables": "现在没有可以观战的牌桌。", "lobby.hand_id": "牌局", "lobby.download": "下载",
    "lobby.replay": "回放", "lobby.share": "分享", "lobby.share_tip": "私人牌桌的牌局：凭此链接，登录的人都能回放",
    "nav.calc": "算番器", "nav.rules": "番型与规则",
    "nav.label": "算番与规则", "nav.guide": "规则讲解", "nav.replay": "牌局回放",
    "seat.you": "你", "seat.bot": "机器人",
    "report.button": "举报", "report.title": "举报 {name}", "report.reason": "原因", "report.text": "说明（可不填，{n} 字以内）",
    "report.hand": "牌局 {hand}", "report.send": "提交举报", "report.cancel": "取消", "report.sent": "举报已提交：管理员会查看",
    "report.r.cheating": "作弊", "report.r.collusion": "串通", "report.r.abuse": "辱骂", "report.r.bot": "外挂脚本", "report.r.other": "其他",
    "table.wall": "牌墙 {n}", "table.hand": "第 {n} 局", "table.dealer": "庄", "table.to_act": "出牌中",
    "table.your_turn": "轮到你出牌", "table.waiting": "等待其他玩家", "table.leave": "离开",
    "table.leave_confirm": "牌局进行中离开算逃跑，要付逃跑罚分。确定离开？",
    "table.auto": "托管", "table.auto_on": "托管中：机器人替你出牌", "table.auto_off": "取消托管",
    "table.exchange": "换三张：选同一花色的三张牌", "table.exchange_go": "换出", "table.exchange_dir": "换牌方向：{dir}",
    "table.info": "牌桌信息", "table.discards": "弃牌", "table.concealed": "手牌 {n} 张", "table.tiles": "{n}张",
    "table.before_deal": "本局已承诺服务器种子，等待四家准备后发牌。", "table.seated": "等待玩家入座：已坐 {n}/4", "table.ready_sent": "已准备，等待发牌…",
    "hint.waits_label": "听", "hint.useful_label": "进张",
    "table.void": "定缺：选择缺哪一门", "table.void_suggest": "推荐",
    "table.void_badge": "缺{suit}", "table.claim": "{who} 打出 {tile}",
    "table.won": "已胡", "table.left": "已离开", "table.locked": "锁牌", "table.timer": "剩余 {s} 秒",
    "table.spectating": "观战中", "table.ticker": "牌局动态",
    "act.hu": "胡 {tile}", "act.zimo": "自摸 {tile}", "act.kong": "杠 {tile}", "act.pong": "碰 {tile}", "act.chow": "吃 {tiles}",
    "act.pass": "过", "act.void": "缺{suit}",
    "suit.m": "万", "suit.p": "筒", "suit.s": "条",
    "hint.title": "听牌提示", "hint.shanten": "向听数 {n}", "hint.ready": "听牌",
    "hint.best": "最佳出牌", "hint.left": "剩 {n} 张",
    "settle.title": "结算", "settle.win": "{who} 胡 {tile}", "settle.win_you": "你 胡 {tile}", "settle.zimo": "自摸", "settle.from": "{who} 点炮",
    "settle.from_you": "你 点炮",
    "settle.fan_total": "共 {n} 番", "settle.multiplier": "× {n}",
    "settle.payments": "收支明细", "settle.chips": "输赢", "settle.balance": "新余额",
    "settle.jipin": "极品", "settle.next": "下一局", "settle.again": "再来一场",
    "settle.download": "下载记录", "settle.verify": "验证公平", "settle.lobby": "回大厅",
    "sit.kong_replacement": "杠上花", "sit.consecutive_kongs": "连杠（杠上双花）", "sit.after_kong": "杠上炮",
    "sit.robbing_kong": "抢杠胡", "sit.last_tile": "海底（最后一张）", "sit.tianhu": "天胡", "sit.dihu": "地胡",
    "settle.fan_unit": "番", "settle.plain": "平胡", "settle.base": "底分 {n}",
    "settle.no_win": "本局无人胡牌。", "settle.reason": "原因", "settle.who_pays": "付 → 收", "settle.amount": "筹码",
    "settle.hand_total": "本局", "settle.capped": "筹码不会低于零：不够付的部分按比例分摊（所以实际输赢可能小于本局计分）。",
    "fair.explain": "牌墙由庄家密钥的 VRF（可验证随机函数）从桌号、局号和四家种子算出，发牌前公布庄家公钥；结束后公开 VRF 证明，记录带庄家签名，任何人都能重算并验证这一局。",
    "fair.after_deal": "发牌后显示",
    "fair.title": "公平性", "fair.commitment": "承诺（服务器种子的 SHA-256）", "fair.public_key": "庄家 VRF 公钥",
    "fair.proof": "VRF 证明", "fair.client_seed": "你的种子",
    "fair.seed_help": "发牌前可以修改：1–64 个可打印字符，不含 | 和 :", "fair.seeds": "四家种子",
    "fair.reveal": "公开的服务器种子", "fair.verify": "一键验证", "fair.download": "下载记录",
    "fair.pending": "本局结束后公开", "fair.ready": "准备并发牌",
    "err.lost": "连接已断开，正在重连…", "err.moving": "牌桌正在转到另一台服务器，请稍候…", "err.back": "已重新连接", "err.refused": "操作被拒绝：{msg}",
    "err.login": "请先登录", "err.network": "网络错误：{msg}", "err.closed": "牌桌已关闭：{reason}",
    "common.close": "关闭", "common.loading": "加载中…",
    "table.ready_in": "{s} 秒内准备", "table.ready_expired": "准备时间已过：你的座位已由机器人接替",
    "table.back_confirm": "返回大厅？",
    "closed.no players left": "牌桌上没有玩家了", "closed.all hands played": "局数已打完", "closed.not ready in time": "没有按时准备",
    "closed.the hand was voided": "这一局作废了", "closed.you left the table (逃跑)": "你离开了牌桌（逃跑）",
    "closed.the table failed and was closed": "牌桌出错，已关闭", "lobby.leave_queue": "取消排队",
    "err.code.already_left": "你已经离开了这一局", "err.code.already_queued": "你已经在排队了",
    "err.code.already_seated": "你已经坐在一张牌桌上：先回到那张牌桌或离开它", "err.code.bad_action": "这个操作现在不合规则",
    "err.code.bad_frame": "消息格式不对", "err.code.bad_json": "消息格式不对", "err.code.bad_message": "消息格式不对",
    "err.code.too_deep": "消息格式不对", "err.code.too_large": "消息太大", "err.code.unknown_type": "服务器不认识这个消息",
    "err.code.bad_version": "客户端版本过旧：请刷新页面", "err.code.bad_seed": "种子不合要求：1–64 个可打印字符，不含 | 和 :",
    "err.code.no_hand": "这张牌桌现在没有在打的牌局", "err.code.no_room": "没有这个房间", "err.code.no_table": "没有这张牌桌（或它已关闭）",
    "err.code.not_now": "现在不能这样做", "err.code.not_seated": "你不在这张牌桌上", "err.code.not_your_turn": "现在不轮到你",
    "err.code.out_of_range": "你的筹码不在这个房间的范围内", "err.code.stale_version": "这个决定已经过时了",
    "err.code.table_full": "牌桌已满", "err.code.wrong_table": "你坐在另一张牌桌上", "err.code.rate_limited": "操作太频繁，请稍等",
    "err.code.login_failed": "用户名或密码不对", "err.code.bad_username": "用户名无效：3–20 个字母、数字或下划线，以字母开头",
    "err.code.username_taken": "这个用户名已被使用，请换一个",
    "err.code.bad_password": "密码至少 8 个字符", "err.code.not_logged_in": "请先登录",
    "err.code.too_many_tables": "你开的私人牌桌太多了", "err.code.bad_rules": "规则选项不合要求", "err.code.busy": "服务器忙，请稍后再试",
    "err.code.network": "网络错误",
    "err.code.room_closed": "这个房间暂停开放：请选另一个房间", "err.code.maintenance": "服务器维护中：暂不开新牌桌",
    "notice.maintenance_in": "维护倒计时 {time}：之后不开新牌桌", "notice.maintenance_now": "维护中：暂不开新牌桌",
    "notice.dismiss": "关闭",
  },
  en: {
    "app.title": "Chuanma", "app.tagline": "Sichuan mahjong · Bloody battle · Bloody river",
    "lang.switch": "中文", "lang.label": "Switch language",
    "sound.on": "Sound: on", "sound.off": "Sound: off", "hints.on": "Hints: on", "hints.off": "Hints: off",
    "auth.username": "Username", "auth.password": "Password", "auth.login": "Log in",
    "auth.register": "Register", "auth.guest": "Play as guest", "auth.logout": "Log out",
    "auth.rules": "Usernames: 3–20 letters, digits or _, starting with a letter; passwords at least 8 characters.",
    "lobby.title": "Lobby", "lobby.balance": "Balance", "lobby.chips": "{n} chips",
    "lobby.rooms": "Rooms", "lobby.base": "base {base}", "lobby.range": "entry {range}", "lobby.plays": "rules {preset}",
    "lobby.join": "Quick-join", "lobby.too_poor": "Not enough chips: needs {low}",
    "lobby.too_rich": "Too many chips: the limit is {high}", "lobby.private": "Private table", "lobby.create": "Create table",
    "lobby.invite": "Invite code", "lobby.join_invite": "Join", "lobby.watch": "Watch",
    "lobby.table_id": "Table id", "lobby.history": "My hands", "lobby.no_history": "No finished hands yet.",
    "lobby.preset": "Rules", "lobby.hands": "Hands", "lobby.bots": "Bot seats", "lobby.bot_level": "Bots' level",
    "lobby.bot_level.easy": "Easy", "lobby.bot_level.normal": "Normal", "lobby.bot_level.hard": "Hard", "lobby.max_fan": "Fan cap (封顶)",
    "lobby.options": "Rule options",
    "lobby.invite_link": "Invite link", "lobby.copy": "Copy", "lobby.copied": "Copied",
    "lobby.waiting": "Waiting for players… {waiting} waiting", "lobby.bots_in": "bots sit down in {s} s",
    "lobby.resume": "Back to my table", "lobby.bots_allowed": "Allow bots", "lobby.on": "on", "lobby.off": "off",
    "lobby.private_room": "Private table",
    "lobby.when": "When", "lobby.result": "Result", "lobby.record": "Record",
    "lobby.sit": "Sit down", "lobby.no_tables": "No table to watch now.", "lobby.hand_id": "Hand", "lobby.download": "Download",
    "lobby.replay": "Replay", "lobby.share": "Share",
    "lobby.share_tip": "A private table's hand: anyone logged in can replay it with this link", "nav.calc": "Fan calculator", "nav.rules": "Fans & rules",
    "nav.label": "Scoring and rules", "nav.guide": "Rules explained", "nav.replay": "Replays",
    "seat.you": "You", "seat.bot": "bot",
    "report.button": "Report", "report.title": "Report {name}", "report.reason": "Reason", "report.text": "Details (optional, up to {n} characters)",
    "report.hand": "Hand {hand}", "report.send": "Send the report", "report.cancel": "Cancel", "report.sent": "Report sent: staff will look at it",
    "report.r.cheating": "Cheating", "report.r.collusion": "Collusion", "report.r.abuse": "Abuse", "report.r.bot": "A bot playing", "report.r.other": "Other",
    "table.wall": "Wall {n}", "table.hand": "Hand {n}", "table.dealer": "Dealer", "table.to_act": "to act",
    "table.your_turn": "Your turn: discard", "table.waiting": "Waiting for the others", "table.leave": "Leave",
    "table.leave_confirm": "Leaving during a hand is escaping and costs the escape penalty. Leave?",
    "table.auto": "Auto-play", "table.auto_on": "Auto-play on: the bot plays for you", "table.auto_off": "Stop auto-play",
    "table.exchange": "Exchange three: pick three tiles of one suit", "table.exchange_go": "Pass them", "table.exchange_dir": "Exchange direction: {dir}",
    "table.info": "Table", "table.discards": "Discards", "table.concealed": "{n} concealed tiles", "table.tiles": "{n} tiles",
    "table.before_deal": "The server seed is committed; the hand is dealt once all four are ready.",
    "table.seated": "Waiting for players: {n} of 4 seated", "table.ready_sent": "Ready, waiting for the deal…",
    "hint.waits_label": "waits", "hint.useful_label": "improves with",
    "table.void": "Choose your void suit", "table.void_suggest": "suggested",
    "table.void_badge": "void {suit}", "table.claim": "{who} discarded {tile}",
    "table.won": "won", "table.left": "left", "table.locked": "locked", "table.timer": "{s} s left",
    "table.spectating": "Watching", "table.ticker": "Events",
    "act.hu": "Win {tile}", "act.zimo": "Self-draw {tile}", "act.kong": "Kong {tile}", "act.pong": "Pong {tile}", "act.chow": "Chow {tiles}",
    "act.pass": "Pass", "act.void": "Void {suit}",
    "suit.m": "Characters", "suit.p": "Dots", "suit.s": "Bamboo",
    "hint.title": "Hints", "hint.shanten": "{n} from ready", "hint.ready": "Ready",
    "hint.best": "Best discards", "hint.left": "{n} left",
    "settle.title": "Settlement", "settle.win": "{who} wins on {tile}", "settle.win_you": "You win on {tile}", "settle.zimo": "self-drawn",
    "settle.from": "dealt in by {who}", "settle.from_you": "dealt in by you",
    "settle.fan_total": "{n} fan", "settle.multiplier": "× {n}",
    "settle.payments": "Payments", "settle.chips": "Chips", "settle.balance": "New balance",
    "settle.jipin": "Top hand (极品)", "settle.next": "Next hand", "settle.again": "Play again",
    "settle.download": "Download record", "settle.verify": "Verify", "settle.lobby": "Lobby",
    "sit.kong_replacement": "杠上花 win on a kong's replacement", "sit.consecutive_kongs": "连杠 after consecutive kongs",
    "sit.after_kong": "杠上炮 discard after a kong", "sit.robbing_kong": "抢杠胡 robbing a kong",
    "sit.last_tile": "海底 the last tile", "sit.tianhu": "天胡 heavenly hand", "sit.dihu": "地胡 earthly hand",
    "settle.fan_unit": "fan", "settle.plain": "plain win", "settle.base": "base {n}",
    "settle.no_win": "Nobody won this hand.", "settle.reason": "Reason", "settle.who_pays": "Payer → payee", "settle.amount": "Chips",
    "settle.hand_total": "Hand", "settle.capped": "Chips never go below zero: a shortfall is shared in proportion (so chips moved can be less than the hand's score).",
    "fair.explain": "The wall comes from the dealer key's VRF (a verifiable random function) of the table, the hand's number and the four seeds; the dealer's public key is shown before the deal; after the hand its VRF proof is published and the record is signed, so anyone can recompute and check the hand.",
    "fair.after_deal": "shown after the deal",
    "fair.title": "Fairness", "fair.commitment": "Commitment (SHA-256 of the server seed)", "fair.public_key": "Dealer's VRF public key",
    "fair.proof": "VRF proof", "fair.client_seed": "Your seed",
    "fair.seed_help": "Editable before the deal: 1–64 printable characters, no | or :", "fair.seeds": "The four seeds",
    "fair.reveal": "Revealed server seed", "fair.verify": "Verify", "fair.download": "Download record",
    "fair.pending": "revealed when the hand ends", "fair.ready": "Ready, deal",
    "err.lost": "Connection lost, reconnecting…", "err.moving": "The table is moving to another server: one moment…", "err.back": "Reconnected", "err.refused": "Refused: {msg}",
    "err.login": "Log in first", "err.network": "Network error: {msg}", "err.closed": "Table closed: {reason}",
    "common.close": "Close", "common.loading": "Loading…",
    "table.ready_in": "{s} s to get ready", "table.ready_expired": "The time to get ready has passed: a bot has taken your seat",
    "table.back_confirm": "Back to the lobby?", "lobby.leave_queue": "Leave the queue",
    "err.code.already_left": "You have already left this hand",
    "err.code.already_queued": "You are already waiting in a queue",
    "err.code.already_seated": "You already sit at a table: go back to it or leave it first",
    "err.code.bad_action": "That is not allowed now", "err.code.bad_frame": "Malformed message",
    "err.code.bad_json": "Malformed message", "err.code.bad_message": "Malformed message",
    "err.code.too_deep": "Malformed message", "err.code.too_large": "Message too large",
    "err.code.unknown_type": "The server does not know this message",
    "err.code.bad_version": "This page is out of date: reload it",
    "err.code.bad_seed": "Seed: 1–64 printable characters, no | or :",
    "err.code.no_hand": "No hand is being played at this table now", "err.code.no_room": "No such room",
    "err.code.no_table": "No such table (or it has closed)", "err.code.not_now": "Not possible now",
    "err.code.not_seated": "You have no seat at this table", "err.code.not_your_turn": "It is not your turn",
    "err.code.out_of_range": "Your chips are outside this room's range",
    "err.code.stale_version": "That decision is out of date", "err.code.table_full": "The table is full",
    "err.code.wrong_table": "You sit at another table",
    "err.code.rate_limited": "Too many requests: wait a moment",
    "err.code.login_failed": "Wrong username or password",
    "err.code.bad_username": "Invalid username: 3–20 letters, digits or _, starting with a letter",
    "err.code.username_taken": "That username is taken: choose another",
    "err.code.bad_password": "Passwords have at least 8 characters", "err.code.not_logged_in": "Log in first",
    "err.code.too_many_tables": "You have too many open private tables",
    "err.code.bad_rules": "These rule options are not valid",
    "err.code.busy": "The server is busy: try again in a moment", "err.code.network": "Network error",
    "err.code.room_closed": "This room is closed for now: choose another",
    "err.code.maintenance": "Maintenance: no new tables for now",
    "notice.maintenance_in": "Maintenance in {time}: no new tables after that",
    "notice.maintenance_now": "Maintenance: no new tables for now", "notice.dismiss": "Dismiss",
  },
};

const listeners = new Set();

function initial() {
  try {
    const saved = localStorage.getItem(STORE);
    if (saved === "zh" || saved === "en") return saved;
  } catch { /* storage may be blocked */ }
  return (navigator.language || "zh").toLowerCase().startsWith("zh") ? "zh" : "en";
}

let lang = initial();

/** The current language, "zh" or "en". */
export function getLang() { return lang; }

/** Switch language, remember it, and tell every listener. */
export function setLang(next) {
  if (next !== "zh" && next !== "en") throw new Error(`no language ${next}`);
  lang = next;
  try { localStorage.setItem(STORE, next); } catch { /* not remembered */ }
  document.documentElement.lang = next === "zh" ? "zh-CN" : "en";
  for (const fn of listeners) fn(next);
}

/** Call fn(lang) after every switch; returns a function that stops it. */
export function onLangChange(fn) { listeners.add(fn); return () => listeners.delete(fn); }

/** Add strings (e.g. a page's own) to both languages; existing keys are kept. */
export function addStrings(more) {
  for (const l of ["zh", "en"]) for (const [k, v] of Object.entries(more[l] || {})) STRINGS[l][k] ??= v;
}

/** A refusal (an error code and the server's English message) in the current language: the code's
 * words when there are some, else the message. */
export function errorText(code, message) {
  const key = `err.code.${code}`;
  return key in STRINGS[lang] ? t(key) : message;
}

/** Why a table closed (the server's English reason) in the current language, when it is known. */
export function closedText(reason) {
  const key = `closed.${reason}`;
  return key in STRINGS.zh && lang === "zh" ? t(key) : reason;
}

/** A rule option's description (from /api/presets) in the current language. */
export function optionText(opt) {
  return (lang === "zh" ? opt.description_zh : opt.description) || opt.description || "";
}

/** One of a rule option's choices (/api/presets' choice_names) in the current language; its id if unnamed. */
export function choiceText(opt, value) {
  return opt.choice_names?.[String(value)]?.[lang] ?? String(value);
}

/** Learn every preset's names (/api/presets' presets: [{name, zh, en}], chuanma.rules.PRESET_NAMES). */
export function addPresetNames(presets) {
  for (const p of presets) for (const l of ["zh", "en"]) STRINGS[l][`preset.${p.name}`] = p[l];
}

/** A preset by name (its id until the names have come). */
export function presetName(id) {
  const key = `preset.${id}`;
  return key in STRINGS[lang] ? t(key) : id;
}

const FAN_EN = new Map();

/** Learn every fan's English name from the fan table (/api/portal/fans: chuanma.scoring.FANS). */
export function addFanNames(table) {
  for (const f of table.fans) FAN_EN.set(f.id, f.en);
}

/** A fan ({id, name, en?}) by name, never its id: 清一色 in Chinese, 清一色 Pure suit in English (its
 * own en, or the fan table's once addFanNames has it). */
export function fanName(fan) {
  const en = fan.en ?? FAN_EN.get(fan.id);
  return lang === "zh" || !en ? fan.name : `${fan.name} ${en}`;
}

/** The string for key in the current language with {name} placeholders filled. */
export function t(key, vars = {}) {
  const s = STRINGS[lang][key] ?? STRINGS.zh[key] ?? key;
  return s.replace(/\{(\w+)\}/g, (m, name) => (name in vars ? String(vars[name]) : m));
}

/** Fill every element under root marked data-i18n / -title / -aria / -placeholder. */
export function applyI18n(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
  for (const el of root.querySelectorAll("[data-i18n-aria]")) el.setAttribute("aria-label", t(el.dataset.i18nAria));
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) el.placeholder = t(el.dataset.i18nPlaceholder);
}

/** A button that switches between the two languages. */
export function languageButton() {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "btn btn-ghost lang-switch";
  // the name begins with the text shown (the language switched to), then says what the button does
  const label = () => { b.textContent = t("lang.switch"); b.setAttribute("aria-label", `${t("lang.switch")} (${t("lang.label")})`); };
  label();
  b.addEventListener("click", () => setLang(lang === "zh" ? "en" : "zh"));
  onLangChange(label);
  return b;
}

document.documentElement.lang = lang === "zh" ? "zh-CN" : "en";
