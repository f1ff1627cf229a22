"""Provably fair dealing: seeds, commitment, the HMAC-SHA256 stream, the shuffle, the VRF and
the verifier. See ``docs/fairness.md`` for the algorithm, fixed to the byte."""

from chuanma.fairness.checks import Check, Level, Status, Verdict
from chuanma.fairness.derive import DIRECTIONS, Deal, derive_deal, shuffled_indices
from chuanma.fairness.errors import (
    ClientSeedError,
    FairnessError,
    HandStateError,
    KeyFileError,
    RecordError,
    ServerSeedError,
    SignatureError,
    VRFError,
)
from chuanma.fairness.hand import (
    RECORD_FORMAT,
    SCHEME_HMAC,
    SCHEME_VRF,
    FairHand,
    HandPhase,
)
from chuanma.fairness.keys import generate_key, read_key, write_key
from chuanma.fairness.page import verifier_page, verifier_page_html, verifier_page_path
from chuanma.fairness.records import complete_record
from chuanma.fairness.seeds import commitment, join_client_seeds, validate_client_seed
from chuanma.fairness.session import DEALER_RULES, SessionHand
from chuanma.fairness.signing import canonical_json, record_digest, sign_record
from chuanma.fairness.stream import RandomStream
from chuanma.fairness.verify import RecordCheck, verify_record
from chuanma.fairness.vrf import VRFKey, vrf_alpha

__all__ = [
    "DEALER_RULES",
    "DIRECTIONS",
    "RECORD_FORMAT",
    "SCHEME_HMAC",
    "SCHEME_VRF",
    "Check",
    "ClientSeedError",
    "Deal",
    "FairHand",
    "FairnessError",
    "HandPhase",
    "HandStateError",
    "KeyFileError",
    "Level",
    "RandomStream",
    "RecordCheck",
    "RecordError",
    "ServerSeedError",
    "SessionHand",
    "SignatureError",
    "Status",
    "VRFError",
    "VRFKey",
    "Verdict",
    "canonical_json",
    "commitment",
    "complete_record",
    "derive_deal",
    "generate_key",
    "join_client_seeds",
    "read_key",
    "record_digest",
    "shuffled_indices",
    "sign_record",
    "validate_client_seed",
    "verifier_page",
    "verifier_page_html",
    "verifier_page_path",
    "verify_record",
    "vrf_alpha",
    "write_key",
]
