"""The database tables (SQLAlchemy Core). Alembic migrations (``migrations/``) create them."""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    false,
    func,
)

metadata = MetaData()

GRANT_KINDS = ("grant", "relief")
"""The ledger rows that bring chips in (every other row moves them between players): a grant (a new
account's, a bot's) or a relief (破产补助)."""

users = Table(
    "users", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("username", String(32), nullable=False, unique=True),
    Column("password_hash", Text, nullable=True),
    Column("kind", String(8), nullable=False),  # player, guest, bot
    Column("balance", BigInteger, nullable=False),
    Column("created_at", Float, nullable=False),
    # player, moderator, operator (migration 0010): granted only by ``chuanma admin role``
    Column("role", String(10), nullable=False, server_default="player"),
    # where a password-reset link may be sent (migration 0014; optional, not unique, never shown to others)
    Column("email", String(254), nullable=True),
)
USERNAME_KEY = Index("ix_users_username_lower", func.lower(users.c.username), unique=True)
"""Names unique without regard to case (migration 0003), enforced by the database itself."""

tokens = Table(
    "tokens", metadata,
    Column("digest", String(64), primary_key=True),  # SHA-256 of the token: the token itself is never stored
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False, index=True),
    Column("created_at", Float, nullable=False),
    Column("last_used", Float, nullable=False),  # sliding expiry (migration 0003)
)

ledger = Table(
    "ledger", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False, index=True),
    Column("amount", BigInteger, nullable=False),
    Column("kind", String(16), nullable=False),  # grant, relief, hand, escape, adjustment (migration 0010)
    Column("hand_id", String(40), nullable=True, index=True),
    Column("at", Float, nullable=False),
)

logins = Table(
    "logins", metadata,
    # every registration, guest account, claim and login (migration 0011), kept --login-days
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False, index=True),
    Column("kind", String(8), nullable=False),  # register, guest, claim, login
    Column("address", String(64), nullable=False),  # the client's address, as the rate limits count it
    Column("agent", String(256), nullable=False),  # its User-Agent, cut to 256 characters
    Column("device", String(32), nullable=True),  # its device cookie's id, None without one (migration 0018)
    Column("at", Float, nullable=False, index=True),
)
Index("ix_logins_address", logins.c.address, logins.c.at)
Index("ix_logins_device", logins.c.device, logins.c.at)

tables = Table(
    "tables", metadata,
    Column("id", String(40), primary_key=True),
    Column("room", String(32), nullable=False),
    Column("rules", JSON, nullable=False),
    Column("invite", String(16), nullable=True, unique=True),
    Column("hands_limit", Integer, nullable=True),
    Column("seats", JSON, nullable=False),  # user id per seat, None while empty
    Column("status", String(8), nullable=False),  # open, closed
    Column("created_at", Float, nullable=False),
    Column("creator", Integer, nullable=True, index=True),  # who made a private table
    Column("bot_level", String(8), nullable=True),  # its bots' level (migration 0006; None: before levels)
)

hands = Table(
    "hands", metadata,
    Column("id", String(40), primary_key=True),
    Column("table_id", String(40), ForeignKey("tables.id"), nullable=False, index=True),
    Column("number", Integer, nullable=False),
    Column("server_seed", String(64), nullable=False),  # "" for a hand dealt by the dealer's VRF key
    Column("commitment", String(64), nullable=False),  # "" likewise: the public key commits instead
    Column("public_key", String(64), nullable=True),  # the dealer key that deals the hand (VRF), hex
    Column("session", JSON, nullable=False),
    Column("seats", JSON, nullable=False),  # user id per seat when dealt
    Column("client_seeds", JSON, nullable=True),
    Column("balances", JSON, nullable=True),  # balances the seats sat down with
    Column("status", String(10), nullable=False),  # collecting, playing, settled, void
    Column("record", JSON, nullable=True),
    Column("finished_at", Float, nullable=True),
    Column("reason", Text, nullable=True),  # why a void hand was voided
    # per seat, the most its escape may cost it (a new account's, migration 0011); None: no cap
    Column("escape_caps", JSON, nullable=True),
)

decisions = Table(
    "decisions", metadata,
    Column("hand_id", String(40), ForeignKey("hands.id"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("action", JSON, nullable=False),
    Column("by", String(8), nullable=False),  # player, bot, auto (托管)
    Column("events", JSON, nullable=False),  # the events it caused, as the engine logged them
    Column("at", Float, nullable=False),
    # a person's answer: when its prompt was sent (migration 0017; None: a bot's, 托管, or forgotten)
    Column("asked", Float, nullable=True),
)

seatings = Table(
    "seatings", metadata,
    # one row per player queued or seated: the primary key makes a second place impossible
    Column("user_id", Integer, ForeignKey("users.id"), primary_key=True),
    Column("table_id", String(40), ForeignKey("tables.id"), nullable=True, index=True),  # None while queued
    Column("room", String(32), nullable=True),  # the room queued for
    Column("since", Float, nullable=False),
    Column("node", String(64), nullable=True),  # the node the queued player's connection waits on (migration 0009)
    Column("bots", Boolean, nullable=False, server_default=false()),  # the queued player allows bots (migration 0009)
)

server_keys = Table(
    "server_keys", metadata,
    Column("name", String(32), primary_key=True),
    Column("value", String(64), nullable=False),  # hex; made once, at the first need
)

lease = Table(
    "lease", metadata,
    Column("id", Integer, primary_key=True),  # one row, id 1: the database's single writer
    Column("holder", String(64), nullable=True),  # the server process holding it, None once released
    Column("token", BigInteger, nullable=False),  # the fencing token: one more at every take-over
    Column("since", Float, nullable=True),  # when the holder took it
    Column("expires", Float, nullable=False),  # when it lapses unless renewed
    # the cluster's heartbeats so far (migration 0012); Redis keeps the highest a node saw, so a
    # database restored from a copy, behind it, is refused (docs/operations.md, Backup and restore)
    Column("epoch", BigInteger, nullable=False, server_default="0"),
)

dealer_keys = Table(
    "dealer_keys", metadata,
    # the dealer keys that may deal on this database (migration 0012): a server whose key is not
    # here, or retired, refuses to start; the first server's key is added at its first start
    Column("public_key", String(64), primary_key=True),  # the VRF public key, hex
    Column("signing_key", String(64), nullable=True),  # the record-signing public key, hex (None: not yet seen)
    Column("added", Float, nullable=False),
    Column("retired", Float, nullable=True),  # since when no server may deal with it
)

table_leases = Table(
    "table_leases", metadata,
    # the cluster (migration 0008): one row per table a node claimed, renewed by its heartbeats
    Column("table_id", String(40), ForeignKey("tables.id"), primary_key=True),
    Column("holder", String(64), nullable=False, index=True),  # the node that owns the table
    Column("token", BigInteger, nullable=False),  # the fencing token: one more at every take-over
    Column("expires", Float, nullable=False),  # when it lapses unless renewed
)

cluster_nodes = Table(
    "cluster_nodes", metadata,
    Column("holder", String(64), primary_key=True),  # the node, named as it holds its leases
    Column("since", Float, nullable=False),
    Column("seen", Float, nullable=False),  # its last heartbeat
    Column("release", String(64)),  # the release it runs (migration 0013)
    Column("schema", String(32)),  # the schema revision it runs on
    Column("drain", Float),  # when an operator asked it to drain (chuanma admin drain), or NULL
)

hand_players = Table(
    "hand_players", metadata,
    # one row per player of a settled hand, written in the settlement's transaction (migration 0006):
    # what the profiles, levels and leaderboards read, each figure taken from the hand's record and ledger
    Column("hand_id", String(40), ForeignKey("hands.id"), primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id"), primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("subject", String(40), nullable=False),  # whose rating: user:ID, or bot:STRATEGY:ID (migration 0007)
    Column("family", String(8), nullable=False),  # xuezhan, xueliu, classic, dazhong
    Column("private", Boolean, nullable=False),  # played at a private table
    Column("finished_at", Float, nullable=False),
    Column("delta", BigInteger, nullable=False),  # the chips the hand moved (its ledger row)
    Column("place", Integer, nullable=False),  # 1-4 by chip result, ties sharing the better place
    Column("wins", Integer, nullable=False),  # wins in the hand (血流: several)
    Column("self_drawn", Integer, nullable=False),
    Column("dealt_in", Integer, nullable=False),  # wins on this seat's discard (or robbed kong)
    Column("fan", Integer, nullable=False),  # the fan of its wins, summed
    Column("best_fan", Integer, nullable=False),  # its best win's fan (0 without a win)
    Column("jipin", Integer, nullable=False),  # 极品 wins
    Column("flower_pig", Boolean, nullable=False),  # paid as 花猪
    Column("chadajiao", Boolean, nullable=False),  # paid in 查大叫
    Column("fans", JSON, nullable=False),  # the fan ids of its wins (one per fan per win)
    Column("mu", Float, nullable=False),  # the rating in the hand's family after it
    Column("sigma", Float, nullable=False),
    Column("mu_all", Float, nullable=False),  # the overall rating after it
    Column("sigma_all", Float, nullable=False),
)
Index("ix_hand_players_user", hand_players.c.user_id, hand_players.c.finished_at)
Index("ix_hand_players_family", hand_players.c.family, hand_players.c.finished_at)

ratings = Table(
    "ratings", metadata,
    # the current skill rating of a subject ("user:<id>", or "bot:<strategy>:<id>" for a bot account)
    Column("subject", String(40), primary_key=True),
    Column("family", String(8), primary_key=True),  # a family, or "all"
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("hands", Integer, nullable=False),
)

bans = Table(
    "bans", metadata,
    # one row per ban (migration 0010), kept once lifted or over: a player's history of bans
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False, index=True),
    Column("reason", Text, nullable=False),
    Column("since", Float, nullable=False),
    Column("until", Float, nullable=True),  # None: for good
    Column("by", Integer, ForeignKey("users.id"), nullable=True),  # who banned (None: the command line)
    Column("lifted_at", Float, nullable=True),  # unbanned then (None: not lifted)
)

operator_log = Table(
    "operator_log", metadata,
    # append-only (migration 0010): one row per moderation action, written in the action's transaction
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("at", Float, nullable=False, index=True),
    Column("actor", Integer, ForeignKey("users.id"), nullable=True),  # None: the command line
    Column("action", String(16), nullable=False),  # role, ban, unban, kick, adjust, rename
    Column("target", Integer, ForeignKey("users.id"), nullable=True, index=True),
    Column("reason", Text, nullable=False),
    Column("details", JSON, nullable=False),
)

password_resets = Table(
    "password_resets", metadata,
    # one-time links to set a new password (migration 0014): an operator's or an e-mailed one
    Column("digest", String(64), primary_key=True),  # SHA-256 of the link's token: the token is never stored
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False, index=True),
    Column("created_at", Float, nullable=False),
    Column("expires", Float, nullable=False),
    Column("used_at", Float, nullable=True),  # None: not used yet
)

deletions = Table(
    "deletions", metadata,
    # the accounts deleted by their players (migration 0014), kept as tombstones: applied again to a
    # database restored from a copy older than the deletion (docs/operations.md, Backup and restore)
    Column("user_id", Integer, primary_key=True),
    Column("created_at", Float, nullable=False),  # the account's: an id alone could be another account's
    Column("deleted_at", Float, nullable=False),
)

reports = Table(
    "reports", metadata,
    # one row per player's report (举报) of another (migration 0015), handled by staff
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("reporter", Integer, ForeignKey("users.id"), nullable=False, index=True),
    Column("player", Integer, ForeignKey("users.id"), nullable=False, index=True),  # whom it is about
    Column("hand_id", String(40), nullable=True),  # the hand it is about (None: none named)
    Column("reason", String(16), nullable=False),  # cheating, collusion, abuse, bot, other
    Column("text", Text, nullable=False),  # the reporter's words ("" if none)
    Column("at", Float, nullable=False),
    Column("status", String(10), nullable=False, index=True),  # open, dismissed, actioned
    Column("handled_by", Integer, ForeignKey("users.id"), nullable=True),  # None: open, or the command line
    Column("handled_at", Float, nullable=True),
    Column("note", Text, nullable=True),  # the handler's note (also in the operator log)
)

flags = Table(
    "flags", metadata,
    # what the detectors found (migration 0015): one row per suspicion of a scan, for staff to look at
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("kind", String(16), nullable=False),  # shared_address, shared_device, chip_dumping, ...
    Column("accounts", JSON, nullable=False),  # the user ids it is about
    Column("evidence", JSON, nullable=False),  # the detector's (addresses, hand ids, counts)
    Column("figure", Float, nullable=False),  # the figure that raised it
    Column("population", Float, nullable=False),  # the same figure over everyone scanned, for comparison
    Column("at", Float, nullable=False, index=True),
)

flagged = Table(
    "flagged", metadata,
    # each flag's accounts, one row each (migration 0015): a player's page finds their flags
    Column("flag_id", Integer, ForeignKey("flags.id"), primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id"), primary_key=True, index=True),
)

rooms = Table(
    "rooms", metadata,
    # the rooms players quick-join (migration 0016, seeded with ``rooms.DEFAULT_ROOMS``), an operator's to change
    Column("id", String(32), primary_key=True),
    Column("position", Integer, nullable=False),  # the lobby's order
    Column("name", String(64), nullable=False),  # Chinese
    Column("en", String(96), nullable=False),
    Column("preset", String(32), nullable=False),
    Column("base", BigInteger, nullable=False),
    Column("low", BigInteger, nullable=False),
    Column("high", BigInteger, nullable=True),  # None: no top
    Column("min_level", Integer, nullable=False),  # 0: any
    Column("enabled", Boolean, nullable=False),
)

announcements = Table(
    "announcements", metadata,
    # operators' announcements to every connected player (migration 0016): the newest still current is shown
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("text", Text, nullable=False),
    Column("at", Float, nullable=False),
    Column("until", Float, nullable=True),  # None: until another replaces it or it is withdrawn
    Column("by", Integer, ForeignKey("users.id"), nullable=True),  # None: the command line
    Column("withdrawn_at", Float, nullable=True),
)

maintenance = Table(
    "maintenance", metadata,
    # "no new tables" switches (migration 0016): the newest not ended is in force, from ``starts``
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("starts", Float, nullable=False),  # no new table opens from then
    Column("message", Text, nullable=False),
    Column("at", Float, nullable=False),
    Column("by", Integer, ForeignKey("users.id"), nullable=True),
    Column("ended_at", Float, nullable=True),  # switched off then (None: in force)
)

notes = Table(
    "notes", metadata,
    # staff notes on a player (migration 0016), shown on their page in the console
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False, index=True),
    Column("by", Integer, ForeignKey("users.id"), nullable=True),  # None: the command line
    Column("at", Float, nullable=False),
    Column("text", Text, nullable=False),
)
