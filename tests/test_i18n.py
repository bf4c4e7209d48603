"""Every word a person reads on the practice table and the replayer comes in English and
Spanish: the pages' word tables are complete, every key the pages use is in them, and no
visible English is written into the HTML or the JavaScript outside those tables."""

from __future__ import annotations

import ast
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from tapete.server.bots import OPPONENTS

WEB = Path(__file__).resolve().parents[1] / "src" / "tapete" / "web"
I18N = WEB / "common" / "i18n.js"
REPLAYER = WEB / "replayer" / "replayer.js"
PAGES = {  # page -> (its script, the attribute prefix its words use, its word table)
    WEB / "table" / "index.html": (WEB / "table" / "table.js", "data-i18n", I18N),
    WEB / "replayer" / "index.html": (REPLAYER, "data-w", REPLAYER),
}
# elements a page's script fills from its word table by another attribute
FILLED = {"data-i18n": (), "data-w": ("data-street",)}  # replayer.js: W.streets
# the same in both languages on purpose: poker words Spanish players use as they are, names
SAME_IN_BOTH = {"All-in", "PHH", "Error", "Preflop", "Flop", "Turn", "River", "Hold'em", "Omaha",
                "Omaha hi-lo",  # the games' names are the same in Spanish
                "Sit & Go", "ICM", "Turbo", "ante", "bots"}  # and the tournaments' words
# visible text that is not a word of either language
NOT_WORDS = re.compile(r"^[\s\W\d×|◀▶❚?–·…]*$|^tapete$|^D$|^s$")


def word_table(path: Path, name: str) -> dict[str, list[object]]:
    """The ``const NAME = {key: [en, es], ...}`` object of a script, read as JSON."""
    text = path.read_text(encoding="utf-8")
    m = re.search(r"(?:export )?const " + name + r" = (\{.*?\n\});", text, re.S)
    assert m, f"no {name} table in {path.name}"
    body = re.sub(r"^(\s*)(\w+):", r'\1"\2":', m.group(1), flags=re.M)
    body = re.sub(r",(\s*[\]}])", r"\1", body)
    return json.loads(body)


def _flat(x: object) -> list[str]:
    return [y for v in x for y in _flat(v)] if isinstance(x, list) else [str(x)]


TABLES = {I18N: word_table(I18N, "WORDS"), REPLAYER: word_table(REPLAYER, "W")}


@pytest.mark.parametrize("path", list(TABLES), ids=lambda p: p.name)
def test_every_word_has_english_and_spanish(path: Path) -> None:
    for key, pair in TABLES[path].items():
        assert isinstance(pair, list) and len(pair) == 2, key
        en, es = pair
        assert type(en) is type(es), key
        for a, b in zip(_flat(en), _flat(es), strict=True):
            assert a.strip() and b.strip(), f"{key}: an empty translation"
            if a == b:
                assert a in SAME_IN_BOTH, f"{key}: {a!r} is not translated into Spanish"


def _keys_used(script: Path, fn: str) -> set[str]:
    text = script.read_text(encoding="utf-8")
    return set(re.findall(r"\b" + fn + r'\("(\w+)"\)', text))


def test_every_key_the_pages_use_is_in_the_tables() -> None:
    words, w = TABLES[I18N], TABLES[REPLAYER]
    for script in (WEB / "table" / "table.js", WEB / "table" / "tourney.js",
                   WEB / "common" / "cards.js"):
        missing = _keys_used(script, "t") - set(words)
        assert not missing, (script.name, missing)
    assert not _keys_used(REPLAYER, "w") - set(w)
    # keys built at run time: card names, the bots' styles (sent by the server)
    for rank in "23456789TJQKA":
        assert f"rank{rank}" in words
    for suit in "cdhs":
        assert f"suit{suit}" in words
    for _, style in OPPONENTS:
        assert style in words, style
    table_js = (WEB / "table" / "table.js").read_text(encoding="utf-8")
    for key in re.findall(r'\["\w+", "(\w+)"\]', table_js):  # OPPONENT_STYLES
        assert key in words, key
    for page, (_, prefix, table) in PAGES.items():
        html = page.read_text(encoding="utf-8")
        for key in re.findall(prefix + r'(?:-[a-z]+)?="(\w+)"', html):
            assert key in TABLES[table], (page.parent.name, key)


def test_counted_words_have_a_form_for_one() -> None:
    """No "hand(s)": a word with a number has its own form for one ("1 mano", "2 manos")."""
    words = TABLES[I18N]
    for path, table in TABLES.items():
        for key, pair in table.items():
            for text in _flat(pair):
                assert "(s)" not in text and "(es)" not in text, (path.name, key, text)
    counted = [k for k, pair in words.items() if any("{n}" in x for x in _flat(pair))]
    assert counted
    for key in counted:
        if key.endswith("One"):
            continue
        one = words.get(key + "One")
        assert one is not None, f"{key}: no form for one ({key}One)"
        assert one != words[key], key
    table_js = (WEB / "table" / "table.js").read_text(encoding="utf-8")
    used = set(re.findall(r'\btn\("(\w+)",', table_js))
    assert used and used <= set(counted), used


def test_spanish_words_of_the_table() -> None:
    """The bots' styles wholly in Spanish; "Reproducir" for replay, as the replayer says."""
    words = TABLES[I18N]
    for _, style in OPPONENTS:
        es = words[style][1].lower()
        for english in ("tight", "loose", "aggress", "passive", "station", "maniac"):
            assert english not in es, (style, es)
    assert words["replay"][1] == "Reproducir"
    assert "Reproducir" in TABLES[REPLAYER]["play"][1]


EQUIDAD = re.compile(r"\bequidad\b", re.I)


def test_one_spanish_word_for_equity_in_the_pages() -> None:
    """Spanish players say "equity": the pages' word tables never say "equidad"."""
    for path, table in TABLES.items():
        for key, pair in table.items():
            for text in _flat(pair):
                assert not EQUIDAD.search(text), (path.name, key, text)
    assert "equity" in TABLES[I18N]["equity"][1]


def test_one_spanish_word_for_equity_in_what_the_server_shows() -> None:
    """The bots' reasons and the replayer's ICM messages, shown on the pages, say "equity"."""
    shown = [SRC / "bots" / "strategy.py", SRC / "server" / "analysis.py",
             SRC / "server" / "coach.py"]
    found = [f"{p.name}:{n}" for p in shown
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if EQUIDAD.search(line)]
    assert not found, found


class _Visible(HTMLParser):
    """Text and labelling attributes of a page that are not filled from the word table."""

    def __init__(self, prefix: str, filled: tuple[str, ...] = ()) -> None:
        super().__init__()
        self.prefix = prefix
        self.filled = filled
        self.stack: list[tuple[str, bool]] = []
        self.bad: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        p = self.prefix
        for attr, own in (("title", "title"), ("placeholder", "placeholder"),
                          ("aria-label", "aria")):
            value = a.get(attr)
            if value and not NOT_WORDS.match(value) and f"{p}-{own}" not in a:
                self.bad.append(f"<{tag}> {attr}={value!r}")
        if tag not in ("meta", "link", "input", "br", "img", "script"):
            self.stack.append((tag, p in a or any(f in a for f in self.filled)))

    def handle_endtag(self, tag: str) -> None:
        while self.stack:
            t, _ = self.stack.pop()
            if t == tag:
                break

    def handle_data(self, data: str) -> None:
        text = data.strip()
        if not text or NOT_WORDS.match(text):
            return
        tag, translated = self.stack[-1] if self.stack else ("", False)
        if tag in ("script", "style") or translated:
            return
        self.bad.append(f"<{tag}> {text!r}")


@pytest.mark.parametrize("page", list(PAGES), ids=lambda p: p.parent.name)
def test_no_english_written_into_the_html(page: Path) -> None:
    _, prefix, _ = PAGES[page]
    v = _Visible(prefix, FILLED[prefix])
    v.feed(page.read_text(encoding="utf-8"))
    assert not v.bad, v.bad


_HARD_CODED = [
    re.compile(r'\.(?:textContent|title|placeholder|innerText)\s*=\s*"([^"]*)"'),
    re.compile(r'setAttribute\("(?:aria-label|title|placeholder)",\s*"([^"]*)"\)'),
    re.compile(r"innerHTML\s*=\s*`([^`]*)`"),
    re.compile(r'\.append\("([^"]*)"'),
]


@pytest.mark.parametrize("script", sorted(WEB.rglob("*.js")), ids=lambda p: p.name)
def test_no_english_written_into_the_scripts(script: Path) -> None:
    text = script.read_text(encoding="utf-8")
    bad = []
    for rx in _HARD_CODED:
        for m in rx.finditer(text):
            words = re.sub(r"\$\{[^}]*\}|<[^>]*>", " ", m.group(1))
            if re.search(r"[A-Za-z]{2,}", words):
                bad.append(m.group(0))
    assert not bad, bad


def test_the_checks_catch_a_missing_translation(tmp_path: Path) -> None:
    """The checks above fail on what they are meant to catch."""
    js = tmp_path / "w.js"
    js.write_text('const W = {\n  ok: ["Fold", "Retirarse"],\n  bad: ["Call", "Call"],\n};\n',
                  encoding="utf-8")
    table = word_table(js, "W")
    assert table["bad"] == ["Call", "Call"] and table["bad"][0] not in SAME_IN_BOTH
    v = _Visible("data-i18n")
    v.feed('<p data-i18n="x">Hi</p><p>Hello there</p><input placeholder="Hero">'
           '<button aria-label="Why?" data-i18n-aria="why">?</button>')
    assert v.bad == ["<p> 'Hello there'", "<input> placeholder='Hero'"]


# ---------------------------------------------------------------------------- the readers

SRC = WEB.parent
READERS = [SRC / "history" / "phh.py", SRC / "history" / "pokerstars.py",
           SRC / "history" / "replay.py", SRC / "cli" / "convert.py"]
# what the readers build their errors with -> the position of the message among the arguments
ERROR_MAKERS = {"PhhError": 0, "_Bad": 0, "ReplayError": 0, "ParseError": 2, "PhhHand": 3,
                "Converted": 2}
ENGLISH_WORDS = re.compile(r"\b(?:the|is|are|cannot|must|not|found|missing|unknown|hand|"
                           r"player|amount|line|file)\b")


def _literal(node: ast.expr) -> str | None:
    """The words written in a string or f-string (its placeholders left out), else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value for v in node.values
                       if isinstance(v, ast.Constant) and isinstance(v.value, str))
    return None


def reader_problems(source: str) -> list[str]:
    """English-only messages in a reader's source: an error built from a plain string, or a
    ``Text(en, es)`` whose Spanish is the English again or has English words in it."""
    bad: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
            continue
        name = node.func.id
        if name in ERROR_MAKERS:
            k = ERROR_MAKERS[name]
            arg = node.args[k] if len(node.args) > k else None
            if arg is not None and (_literal(arg) is not None or isinstance(arg, ast.BinOp)):
                bad.append(f"line {node.lineno}: {name} with a plain string")
        elif name == "Text" and len(node.args) == 2:
            en, es = (_literal(a) for a in node.args)
            if en is None or es is None:
                continue
            if ast.unparse(node.args[0]) == ast.unparse(node.args[1]):
                bad.append(f"line {node.lineno}: the Spanish is the English")
            elif ENGLISH_WORDS.search(re.sub(r"'[^']*'", "", es)):
                bad.append(f"line {node.lineno}: English in the Spanish {es!r}")
    return bad


@pytest.mark.parametrize("path", READERS, ids=lambda p: p.name)
def test_reader_errors_come_in_both_languages(path: Path) -> None:
    assert not reader_problems(path.read_text(encoding="utf-8"))


def test_the_reader_check_catches_english_only_errors() -> None:
    source = '''
raise PhhError("the field 'x' is missing")
raise _Bad(f"cannot read {line!r}", lineno)
yield ParseError(source, "", "no hand")
raise PhhError(Text("unknown action", "unknown action"))
raise PhhError(Text(f"line {i}: bad", f"línea {i}: the value is bad"))
raise PhhError(Text(f"line {i}: bad", f"línea {i}: valor incorrecto en 'the line'"))
'''
    assert reader_problems(source) == [
        "line 2: PhhError with a plain string", "line 3: _Bad with a plain string",
        "line 4: ParseError with a plain string", "line 5: the Spanish is the English",
        "line 6: English in the Spanish 'línea : the value is bad'"]
