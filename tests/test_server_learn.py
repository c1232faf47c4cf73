"""The "Learn to play" page and its API (``docs/server.md``): ``/learn``, ``GET /api/rules``,
``GET /api/tables/{id}/rules`` and the words of each preset in ``GET /api/options``, on an
in-process server over SQLite (the words never touch the database, except to find a table)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from server_support import Live, fresh_database, serve

from euchre.explain import how_to_play_sections, rules_sections, sections_to_dicts
from euchre.rules import PRESETS, Rules


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    with serve(fresh_database("sqlite", tmp_path_factory.mktemp("learn"))) as s:
        yield s


def joined(words: list[dict[str, object]]) -> str:
    return " ".join(" ".join(s["paragraphs"]) for s in words)  # type: ignore[arg-type]


def test_the_learn_page_is_served_under_the_policy(srv: Live) -> None:
    r = srv.http.get("/learn?preset=british")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert "script-src 'self'" in r.headers["content-security-policy"]
    assert '<script src="/static/learn.js">' in r.text and "<script>" not in r.text and " style=" not in r.text
    for name in ("learn.js", "learn.css", "learn-link.js"):
        assert srv.http.get(f"/static/{name}").status_code == 200, name
    assert 'href="/learn"' in srv.http.get("/").text
    assert 'id="rules-link"' in srv.http.get("/table/whatever").text


def test_rules_of_a_preset(srv: Live) -> None:
    r = srv.http.get("/api/rules", params={"preset": "uk"})
    assert r.status_code == 200, r.text
    d = r.json()
    assert d["preset"] == "british" and d["title"] == "British Euchre" and d["changed"] is False
    assert d["rules"] == Rules.preset("british").to_dict()
    assert d["words"] == sections_to_dicts(rules_sections(Rules.preset("british"), "british"))
    assert "Joker" in joined(d["words"]) and "11 points" in joined(d["words"])
    assert d["how_to_play"] == sections_to_dicts(how_to_play_sections())
    default = srv.http.get("/api/rules").json()
    assert default["preset"] == "american" and default["heading"] == "The rules of American Euchre"


def test_rules_with_switches_in_the_query(srv: Live) -> None:
    d = srv.http.get("/api/rules", params={"preset": "american", "stick_the_dealer": "yes", "target": "7"}).json()
    assert d["changed"] is True and d["rules"]["stick_the_dealer"] is True and d["rules"]["target"] == 7
    words = joined(d["words"])
    assert "the dealer must name a trump if everyone passes twice" in words and "reach 7 points" in words
    assert d["words"][0]["paragraphs"] == ["The rules of American Euchre, with some switches changed."]


@pytest.mark.parametrize("query", [{"preset": "nosuch"}, {"nosuch": "1"}, {"stick_the_dealer": "perhaps"},
                                   {"preset": "two-handed", "canadian_loner": "yes"}, {"target": "0"},
                                   {"preset": "x" * 5000}])
def test_bad_rules_are_refused_in_words(srv: Live, query: dict[str, str]) -> None:
    r = srv.http.get("/api/rules", params=query)
    assert r.status_code == 400, r.text
    body = r.json()
    assert body["error"] == "bad_rules" and 0 < len(body["message"]) <= 300


def test_rules_of_a_table(srv: Live) -> None:
    t = srv.create(mode="bots", preset="british", rules={"stick_the_dealer": True}, name="Ana")
    r = srv.http.get(f"/api/tables/{t['id']}/rules")
    assert r.status_code == 200, r.text
    d = r.json()
    assert d["preset"] == "british" and d["changed"] is True
    assert d["rules"] == Rules.preset("british", stick_the_dealer=True).to_dict()
    assert "Joker" in joined(d["words"]) and "must name a trump" in joined(d["words"])
    plain = srv.create(mode="bots", preset="cut-throat", name="Bo")
    d = srv.http.get(f"/api/tables/{plain['id']}/rules").json()
    assert d["preset"] == "cut-throat" and d["changed"] is False and "Three players" in joined(d["words"])
    r = srv.http.get("/api/tables/nosuchtable1/rules")
    assert r.status_code == 404 and r.json()["error"] == "not_found"


def test_options_carry_each_presets_words(srv: Live) -> None:
    presets = srv.http.get("/api/options").json()["presets"]
    assert [p["name"] for p in presets] == list(PRESETS)
    for p in presets:
        assert p["words"] == sections_to_dicts(rules_sections(Rules.preset(p["name"])))
        assert p["title"] and p["words"][0]["title"] == "Players"


def test_the_page_knows_no_rule() -> None:
    """The words come from the server: the script holds no rule's number or word."""
    js = (Path(__file__).parent.parent / "euchre" / "server" / "static" / "learn.js").read_text()
    for word in ("bower", "Joker", "euchred", "points", "trump", "march"):
        assert word not in js, word
