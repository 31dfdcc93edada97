"""Splitting melees into fights of one fighter against one or more enemies.

Digest confrontation §6.11.1, D18.

A split is valid when every engaged model is in exactly one fight, no fight is several
against several, and fighters only fight enemies they touch. The Tactical winner
chooses among the valid splits of each melee; the digest's auto-split is offered first.

Must not import tui, textual, rich, another ruleset or the registry.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from engine.decisions import Decision, DecisionKind, Option, Procedure
from engine.rulesets.confrontation.geometry import in_contact
from engine.rulesets.confrontation.state import CState, Fight, Fighter

MAX_SPLITS = 24
"""At most this many splits are offered for one melee (the auto-split always among them)."""

Graph = Mapping[str, frozenset[str]]


def contact_graph(state: CState, ids: set[str] | None = None) -> dict[str, frozenset[str]]:
    """Enemy contacts among living fighters on the table (optionally among ``ids`` only)."""
    pool = [f for f in state.on_table() if ids is None or f.id in ids]
    graph: dict[str, frozenset[str]] = {}
    for f in pool:
        assert f.cell is not None
        graph[f.id] = frozenset(
            e.id
            for e in pool
            if e.player != f.player and e.cell is not None and in_contact(f.cell, e.cell)
        )
    return {k: v for k, v in graph.items() if v}


def melees(graph: Graph) -> list[list[str]]:
    """Connected components of the contact graph, in a stable order."""
    seen: set[str] = set()
    out: list[list[str]] = []
    for start in sorted(graph):
        if start in seen:
            continue
        component, queue = [], [start]
        seen.add(start)
        while queue:
            node = queue.pop(0)
            component.append(node)
            for n in sorted(graph[node]):
                if n not in seen:
                    seen.add(n)
                    queue.append(n)
        out.append(component)
    return out


def auto_split(graph: Graph, component: list[str]) -> list[Fight]:
    """The digest's auto-split: BFS tree, deepest first, stars on parents (§6.11.1 steps 1-3)."""
    root = component[0]
    parent: dict[str, str | None] = {root: None}
    depth = {root: 0}
    order = [root]
    for node in order:
        for n in sorted(graph[node]):
            if n not in parent:
                parent[n], depth[n] = node, depth[node] + 1
                order.append(n)
    stars: dict[str, list[str]] = {}
    assigned: set[str] = set()
    for v in sorted(order, key=lambda n: -depth[n]):
        p = parent[v]
        if v in assigned or p is None:
            continue
        if p in assigned and p not in stars:
            continue
        kids = [c for c in order if parent[c] == p and c not in assigned]
        stars.setdefault(p, []).extend(kids)
        assigned.update(kids)
        assigned.add(p)
    if root not in assigned:
        centre = next(c for c in stars if c in graph[root])
        stars[centre].append(root)
    return [Fight(c, tuple(sorted(leaves))) for c, leaves in stars.items()]


def valid_splits(graph: Graph, component: list[str], limit: int = MAX_SPLITS) -> list[list[Fight]]:
    """Valid splits of one melee, the auto-split first, at most ``limit`` of them."""
    first = _canonical(auto_split(graph, component))
    out = [first]
    for split in _enumerate(graph, sorted(component), frozenset()):
        canon = _canonical(split)
        if canon != first:
            out.append(canon)
        if len(out) >= limit:
            break
    return out


def _enumerate(graph: Graph, nodes: list[str], used: frozenset[str]) -> Iterator[list[Fight]]:
    """Every star partition, each exactly once: fix the fight of the first free node."""
    v = next((n for n in nodes if n not in used), None)
    if v is None:
        yield []
        return
    free_n = sorted(n for n in graph[v] if n not in used)
    # v as the centre (a 1-vs-1 fight is counted here only).
    for leaves in _subsets(free_n, 1):
        fight = Fight(v, tuple(leaves))
        for rest in _enumerate(graph, nodes, used | {v, *leaves}):
            yield [fight, *rest]
    # v as a leaf of a centre u that takes at least one other leaf.
    for u in free_n:
        others = sorted(n for n in graph[u] if n not in used and n != v)
        for extra in _subsets(others, 1):
            fight = Fight(u, tuple(sorted([v, *extra])))
            for rest in _enumerate(graph, nodes, used | {u, v, *extra}):
                yield [fight, *rest]


def _subsets(items: list[str], minimum: int) -> Iterator[list[str]]:
    n = len(items)
    for mask in range(1, 1 << n):
        subset = [items[i] for i in range(n) if mask >> i & 1]
        if len(subset) >= minimum:
            yield subset


def _canonical(split: list[Fight]) -> list[Fight]:
    """Sort fights; a 1-vs-1 fight is always centred on the smaller id."""
    out = []
    for fight in split:
        if len(fight.leaves) == 1 and fight.leaves[0] < fight.center:
            fight = Fight(fight.leaves[0], (fight.center,))
        out.append(Fight(fight.center, tuple(sorted(fight.leaves))))
    return sorted(out, key=lambda f: f.center)


def _kept_pairs(split: list[Fight], old: Sequence[Fight]) -> int:
    """How many center-leaf pairings of ``old`` fights survive in ``split``."""
    pairs = {frozenset((f.center, leaf)) for f in split for leaf in f.leaves}
    return sum(frozenset((f.center, leaf)) in pairs for f in old for leaf in f.leaves)


def describe_fight(state: CState, fight: Fight) -> str:
    """ "Aldric A1.1 vs Cutthroat B2.1 + Cutthroat B2.2"."""
    return f"{_short(state.fighters[fight.center])} vs " + " + ".join(
        _short(state.fighters[i]) for i in fight.leaves
    )


def _short(f: Fighter) -> str:
    return f.name


def choose_split(
    state: CState,
    player: int,
    graph: Graph,
    component: list[str],
    prompt: str,
    *,
    keep: Sequence[Fight] = (),
) -> Procedure[list[Fight]]:
    """D18: the Tactical winner picks one valid split of a melee (forced if only one).

    ``keep``: fights being re-split after a pursuit (A26); splits that keep most of
    their pairings together are listed first.
    """
    splits = valid_splits(graph, component)
    if keep:
        splits.sort(key=lambda split: -_kept_pairs(split, keep))
    if len(splits) == 1:
        return splits[0]
    choice = yield Decision(
        player,
        DecisionKind.PICK_OPTION,
        prompt,
        tuple(
            Option(
                str(i),
                " | ".join(describe_fight(state, f) for f in split),
                detail="auto-split" if i == 0 else "",
            )
            for i, split in enumerate(splits)
        ),
    )
    return splits[int(choice.key)]
