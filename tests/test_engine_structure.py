"""The package's structure: no module imports another module's private name, and the import graph
has no cycle.

Every import counts: top-level ones, those inside functions and those under ``if TYPE_CHECKING:``.
``from chuanma.pkg import name`` is an edge to the submodule ``chuanma.pkg.name`` when there is
one, else to the package itself (its ``__init__`` re-exports the name, so it is an edge too).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from functools import cache
from itertools import pairwise
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"
ENGINE = "chuanma.engine"


def private(name: str) -> bool:
    """A private name (``_x``), not a dunder (``__all__``, ``__version__``)."""
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def module_name(path: Path) -> str:
    parts = path.relative_to(SRC).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@dataclass(frozen=True)
class Module:
    name: str
    path: Path
    package: bool

    @property
    def parent(self) -> str:
        """The package relative imports start from."""
        return self.name if self.package else self.name.rpartition(".")[0]


@dataclass(frozen=True)
class PrivateUse:
    """``module`` (line ``line``) uses ``name``, private to ``owner``."""

    module: str
    line: int
    owner: str
    name: str

    def __str__(self) -> str:
        return f"{self.module}:{self.line} uses {self.owner}.{self.name}"


@cache
def modules() -> dict[str, Module]:
    return {module_name(p): Module(module_name(p), p, p.name == "__init__.py")
            for p in sorted((SRC / "chuanma").rglob("*.py"))}


def owner_of(dotted: str) -> str | None:
    """The longest prefix of ``dotted`` that is a module of the package."""
    parts = dotted.split(".")
    for n in range(len(parts), 0, -1):
        name = ".".join(parts[:n])
        if name in modules():
            return name
    return None


def dotted(node: ast.expr) -> str | None:
    """``a.b.c`` for a chain of attribute reads on a name."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = dotted(node.value)
        return None if base is None else f"{base}.{node.attr}"
    return None


@dataclass
class Scan:
    """One module's imports: the modules it imports, and the private names it uses."""

    edges: dict[str, int]
    """Each module imported, with the line of its first import."""
    private: list[PrivateUse]


def scan(mod: Module) -> Scan:
    tree = ast.parse(mod.path.read_text(encoding="utf-8"), str(mod.path))
    edges: dict[str, int] = {}
    uses: list[PrivateUse] = []
    bound: dict[str, str] = {}
    """Local names bound to a module of the package (``import chuanma.x as y``, ``from chuanma
    import x``)."""

    def use(line: int, owner: str, name: str) -> None:
        if owner != mod.name and private(name):
            uses.append(PrivateUse(mod.name, line, owner, name))

    for node in sorted((n for n in ast.walk(tree) if isinstance(n, ast.Import | ast.ImportFrom)),
                       key=lambda n: n.lineno):
        if isinstance(node, ast.Import):
            for alias in node.names:
                target = owner_of(alias.name)
                if target is None:
                    continue
                edges.setdefault(target, node.lineno)
                rest = alias.name[len(target):].lstrip(".")
                for part in rest.split(".") if rest else ():
                    use(node.lineno, target, part)
                if target != "chuanma" and any(private(p) for p in target.split(".")):
                    use(node.lineno, target.rpartition(".")[0], target.rpartition(".")[2])
                if alias.asname:
                    bound[alias.asname] = target
                else:
                    bound[alias.name.partition(".")[0]] = alias.name.partition(".")[0]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = mod.parent.split(".")
                base = base[: len(base) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            if owner_of(source) != source:
                continue  # not a module of the package
            for alias in node.names:
                sub = f"{source}.{alias.name}"
                if sub in modules():
                    edges.setdefault(sub, node.lineno)
                    bound[alias.asname or alias.name] = sub
                else:
                    edges.setdefault(source, node.lineno)
                use(node.lineno, source, alias.name)
    for read in ast.walk(tree):
        if isinstance(read, ast.Attribute) and private(read.attr):
            chain = dotted(read.value)
            if chain is None:
                continue
            head, _, tail = chain.partition(".")
            if head in bound:
                full = bound[head] + ("." + tail if tail else "")
                if full in modules():
                    use(read.lineno, full, read.attr)
    edges.pop(mod.name, None)
    return Scan(edges, uses)


@cache
def scans() -> dict[str, Scan]:
    return {name: scan(m) for name, m in modules().items()}


def private_uses() -> list[PrivateUse]:
    return [u for s in scans().values() for u in s.private]


def cycles() -> list[list[str]]:
    """The import cycles (``a → b → … → a``): in each strongly connected component of the import
    graph that has more than one module, a shortest cycle through each of its modules."""
    graph = {name: sorted(s.edges) for name, s in scans().items()}
    found: dict[frozenset[str], list[str]] = {}
    for comp in components(graph):
        for start in comp:
            cycle = cycle_from(graph, set(comp), start)
            found.setdefault(frozenset(cycle), cycle)
    return list(found.values())


def components(graph: dict[str, list[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def cycle_from(graph: dict[str, list[str]], inside: set[str], start: str) -> list[str]:
    """A shortest cycle from ``start`` back to it within ``inside`` (breadth-first)."""
    came: dict[str, str] = {}
    frontier = [start]
    while frontier:
        nxt = []
        for v in frontier:
            for w in graph[v]:
                if w not in inside:
                    continue
                if w == start:
                    path = [v]
                    while path[-1] != start:
                        path.append(came[path[-1]])
                    return [start, *reversed(path[:-1]), start]
                if w not in came:
                    came[w] = v
                    nxt.append(w)
        frontier = nxt
    raise AssertionError(f"no cycle through {start}")  # pragma: no cover - a component has one


def in_engine(name: str) -> bool:
    return name == ENGINE or name.startswith(ENGINE + ".")


def show(cycle: list[str]) -> str:
    """``a (line 12) → b (line 30) → a``: each module with the line of its import of the next."""
    return " → ".join(f"{a} (line {scans()[a].edges[b]})" for a, b in pairwise(cycle)) + f" → {cycle[-1]}"


# ---------------------------------------------------------------------------------- the scanner


def test_scanner_sees_every_kind_of_import(tmp_path: Path) -> None:
    """The scanner is checked on known code: relative, function-level and ``TYPE_CHECKING``
    imports, package re-exports and private attribute reads through an imported module."""
    text = """
from typing import TYPE_CHECKING
from . import ledger
from .state import _tiles
from chuanma.engine import Game
import chuanma.engine.wall as w
import chuanma.tiles
if TYPE_CHECKING:
    from chuanma.engine.views import SeatView
def f() -> None:
    from chuanma.engine.record import to_record
    ledger._options
    w._private
    chuanma.tiles._hidden
    ledger.__name__
"""
    path = tmp_path / "game.py"
    path.write_text(text, encoding="utf-8")
    found = scan(Module("chuanma.engine.game", path, False))
    assert found.edges == {"chuanma.engine.ledger": 3, "chuanma.engine.state": 4, "chuanma.engine": 5,
                           "chuanma.engine.wall": 6, "chuanma.tiles": 7, "chuanma.engine.views": 9,
                           "chuanma.engine.record": 11}
    assert sorted((u.owner, u.name, u.line) for u in found.private) == [
        ("chuanma.engine.ledger", "_options", 12), ("chuanma.engine.state", "_tiles", 4),
        ("chuanma.engine.wall", "_private", 13), ("chuanma.tiles", "_hidden", 14)]


def test_cycle_finder_finds_a_shortest_cycle_through_each_module() -> None:
    graph = {"a": ["b", "d"], "b": ["c"], "c": ["a"], "d": ["a"], "e": ["a"]}
    assert components(graph) == [["a", "b", "c", "d"]]
    assert cycle_from(graph, {"a", "b", "c", "d"}, "a") == ["a", "d", "a"]
    assert cycle_from(graph, {"a", "b", "c", "d"}, "b") == ["b", "c", "a", "b"]


def test_every_module_is_scanned() -> None:
    assert {"chuanma", ENGINE, "chuanma.engine.game", "chuanma.engine.state"} <= set(modules())
    assert "chuanma.engine.state" in scans()["chuanma.engine.game"].edges


# ---------------------------------------------------------------------------------- the package


def test_engine_uses_no_private_name_of_another_module() -> None:
    found = [str(u) for u in private_uses() if (in_engine(u.module) or in_engine(u.owner)) and not facade_import(u)]
    assert not found, "private names used across modules:\n" + "\n".join(found)


COMPILED = "_core"
"""The compiled core (``chuanma._core``): private to the package, imported only by its facades."""
FACADES: tuple[str, ...] = ("chuanma.analysis", "chuanma.fans", "chuanma.scoring", "chuanma.env.batch",
                            "chuanma.engine.views", "chuanma.encoding", "chuanma.engine.game",
                            "chuanma.engine.determinize")
"""The packages and modules that are the compiled core's Python API (docs/engine.md, The compiled core)."""


def within(name: str, package: str) -> bool:
    """``name`` is ``package`` or one of its modules."""
    return name == package or name.startswith(package + ".")


def in_facade(name: str) -> bool:
    return any(within(name, f) for f in FACADES)


def facade_import(use: PrivateUse) -> bool:
    """``use`` is a facade's import of the compiled core."""
    return (use.owner, use.name) == ("chuanma", COMPILED) and in_facade(use.module)


def test_no_module_uses_a_private_name_of_another() -> None:
    found = [str(u) for u in private_uses() if not facade_import(u)]
    assert not found, "private names used across modules:\n" + "\n".join(found)


def test_every_facade_imports_the_core() -> None:
    """FACADES lists no name that is not (or no longer) a facade of the compiled core."""
    importers = {u.module for u in private_uses() if facade_import(u)}
    idle = [f for f in FACADES if not any(within(m, f) for m in importers)]
    assert not idle, f"listed as facades but importing no compiled core: {idle}"


def test_a_facade_is_a_whole_name() -> None:
    assert in_facade("chuanma.scoring") and in_facade("chuanma.analysis.hand")
    assert not in_facade("chuanma.scoring_extra") and not in_facade("chuanma.score_input")


def test_engine_has_no_import_cycle() -> None:
    found = [show(c) for c in cycles() if any(in_engine(m) for m in c)]
    assert not found, "import cycles through the engine:\n" + "\n".join(found)


def test_no_import_cycle_anywhere() -> None:
    found = [show(c) for c in cycles()]
    assert not found, "import cycles:\n" + "\n".join(found)


def package_of(name: str) -> str:
    """The package of the project a module belongs to: ``chuanma.bots`` for
    ``chuanma.bots.learned``; a top-level module (``chuanma.rules``) is its own."""
    return ".".join(name.split(".")[:2])


def package_graph() -> dict[str, list[str]]:
    """The import graph between the project's packages (and top-level modules)."""
    graph: dict[str, set[str]] = {}
    for name, s in scans().items():
        here = package_of(name)
        graph.setdefault(here, set())
        if here == "chuanma":
            continue  # the package's own __init__ and __main__ sit above everything
        graph[here] |= {package_of(t) for t in s.edges if package_of(t) not in (here, "chuanma")}
    return {k: sorted(v) for k, v in graph.items()}


def test_package_cycles_are_found() -> None:
    graph = {"chuanma.bots": ["chuanma.learn"], "chuanma.learn": ["chuanma.env"], "chuanma.env": ["chuanma.bots"],
             "chuanma.sim": ["chuanma.bots"]}
    assert components(graph) == [["chuanma.bots", "chuanma.env", "chuanma.learn"]]


def test_no_import_cycle_between_packages() -> None:
    """No package imports, through any chain, a package that imports it: the packages are layers."""
    graph = package_graph()
    found = [" → ".join([*comp, comp[0]]) for comp in components(graph)]
    assert not found, "import cycles between packages:\n" + "\n".join(found)


# ---------------------------------------------------------------------------------- the facade


def engine_api() -> set[str]:
    """The names ``chuanma.engine`` exports (its ``__all__``)."""
    tree = ast.parse(modules()[ENGINE].path.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            return set(ast.literal_eval(node.value))
    raise AssertionError("chuanma.engine has no __all__")  # pragma: no cover


CONTRACT_MODULES = {f"{ENGINE}.event_types", f"{ENGINE}.outcome"}
"""The engine's modules that are themselves its contract, imported as modules: one type per event
(and their JSON Schema), and the hand's outcome (docs/engine.md)."""


def facade_breaches(mod: Module) -> list[str]:
    """What ``mod`` (outside the engine) takes from the engine other than its API: an import of an
    engine module (but a contract module), a name the package does not export, or a game's ``state`` read."""
    tree = ast.parse(mod.path.read_text(encoding="utf-8"))
    api = engine_api()
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [f"{mod.name}:{node.lineno} imports {a.name}" for a in node.names
                      if in_engine(a.name) and a.name != ENGINE and a.name not in CONTRACT_MODULES]
        elif isinstance(node, ast.ImportFrom) and node.module and in_engine(node.module) and not node.level:
            if node.module in CONTRACT_MODULES:
                continue
            if node.module != ENGINE:
                found.append(f"{mod.name}:{node.lineno} imports from {node.module}")
            else:
                found += [f"{mod.name}:{node.lineno} imports {a.name}, not exported by {ENGINE}"
                          for a in node.names if a.name not in api]
        elif isinstance(node, ast.Attribute) and node.attr == "state":
            chain = dotted(node.value) or ""
            if chain.rpartition(".")[2].lower().endswith("game"):
                found.append(f"{mod.name}:{node.lineno} reads {chain}.state")
    return found


def test_facade_check_sees_each_breach(tmp_path: Path) -> None:
    text = """
import chuanma.engine.views
from chuanma.engine.wins import seat_waits
from chuanma.engine import Game, HandState
from chuanma.engine import SeatView
from chuanma.engine.event_types import Hu
import chuanma.engine.outcome
def f(game, table):
    return game.state, table.game.state, table.state
"""
    path = tmp_path / "m.py"
    path.write_text(text, encoding="utf-8")
    assert facade_breaches(Module("chuanma.sim.m", path, False)) == [
        "chuanma.sim.m:2 imports chuanma.engine.views", "chuanma.sim.m:3 imports from chuanma.engine.wins",
        "chuanma.sim.m:4 imports HandState, not exported by chuanma.engine",
        "chuanma.sim.m:9 reads game.state", "chuanma.sim.m:9 reads table.game.state"]


def test_outside_the_engine_only_its_facade_is_used() -> None:
    """Code outside ``chuanma.engine`` imports only the names the package exports, and reads a
    game through its methods and views, never its ``state``."""
    found = [b for name, mod in modules().items() if not in_engine(name) for b in facade_breaches(mod)]
    assert not found, "the engine used past its facade:\n" + "\n".join(found)


# ---------------------------------------------------------------------------------- the tile set


def flag_parameters() -> list[str]:
    """Every parameter of a function of the package that carries the tile set as a flag."""
    found = []
    for name, mod in modules().items():
        tree = ast.parse(mod.path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                a = node.args
                for arg in [*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg]:
                    if arg is not None and arg.arg.lower() in ("honors", "honours", "with_honors", "dazhong"):
                        found.append(f"{name}:{arg.lineno} {arg.arg}")
    return found


def test_the_tile_set_travels_as_a_tile_set_not_a_flag() -> None:
    """The tile set is ``rules.tiles`` (a ``TileSet``): no function takes it as ``honors``."""
    found = flag_parameters()
    assert not found, "tile set passed as a flag:\n" + "\n".join(found)


def test_only_the_facades_import_the_compiled_core() -> None:
    users = {u.module for u in private_uses() if (u.owner, u.name) == ("chuanma", COMPILED)}
    assert users, "no module imports the compiled core: the exception above is dead"
    assert all(facade_import(u) for u in private_uses() if u.module in users and u.name == COMPILED), users
