"""The message catalogues: every message the package uses (the narrator's, the engine's, the
bots', the command line's) has its Spanish, the catalogue keeps no message nobody uses, each
translation fills only the fields its message is given, and a counted message has every form
the language's plural rule asks for."""

from __future__ import annotations

import ast
import re
import string
from io import BytesIO
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po

import tapete.words
from tapete.core import catalog as core_catalog
from tapete.words import catalog

WORDS = Path(tapete.words.__file__).parent
SRC = WORDS.parent
# The packages (or modules) whose messages all come from the catalogue, besides words itself:
# they write no inline Text("English", "Spanish"). Add one here once it is converted (history,
# room, server, ...); NOT_YET names the modules of a listed package still to be converted.
CATALOGUED: tuple[str, ...] = ("core", "bots", "eval", "cli", "history", "room", "server",
                               "tournament")
NOT_YET: tuple[str, ...] = ()
CATALOGUE_MODULE = "core/catalog.py"  # the machinery itself
LANGS = sorted(p.name for p in (WORDS / "locale").iterdir() if p.is_dir())
# t(msg), tc(context, msg), tn(singular, plural, n), and the markers of ids kept in tables
KEYWORDS = {"t": None, "tc": ((1, "c"), 2), "tn": (1, 2), "N_": None, "NC_": ((1, "c"), 2)}

Key = tuple[str | None, str | tuple[str, str]]


def sources(entries: tuple[str, ...]) -> list[Path]:
    """The Python files of these packages or modules (paths under ``src/tapete``)."""
    out: list[Path] = []
    for entry in entries:
        path = SRC / entry
        out += sorted(path.rglob("*.py")) if path.is_dir() else [path]
    return out


def used() -> set[Key]:
    """Every message id the package's code names (words and the catalogued packages), as
    gettext's extractor finds them."""
    found: set[Key] = set()
    for path in sources(("words", *CATALOGUED)):
        for _, msg, _, ctx in extract_from_file("python", str(path), keywords=KEYWORDS):
            found.add((ctx, tuple(msg) if isinstance(msg, tuple) else msg))  # type: ignore[arg-type]
    return found


def entries(lang: str) -> dict[Key, str | tuple[str, ...]]:
    path = WORDS / "locale" / lang / "LC_MESSAGES" / f"{catalog.DOMAIN}.po"
    cat = read_po(BytesIO(path.read_bytes()), locale=lang)
    out: dict[Key, str | tuple[str, ...]] = {}
    for m in cat:
        if m.id:
            key = (m.context, tuple(m.id) if isinstance(m.id, tuple) else m.id)
            out[key] = tuple(m.string) if isinstance(m.string, tuple) else m.string
    return out


def fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


def test_the_extractor_finds_the_narrator_s_messages() -> None:
    found = used()
    assert len(found) > 100
    assert (None, "{who} folds") in found
    assert ("high", "queen") in found
    assert (None, ("{n} hand", "{n} hands")) in found


@pytest.mark.parametrize("lang", LANGS)
def test_every_message_used_is_translated(lang: str) -> None:
    have = entries(lang)
    missing = [k for k in used() if not have.get(k) or
               (isinstance(have[k], tuple) and not all(have[k]))]
    assert not missing, f"{lang}: no translation for {sorted(map(str, missing))}"


@pytest.mark.parametrize("lang", LANGS)
def test_the_catalogue_has_no_unused_entries(lang: str) -> None:
    unused = set(entries(lang)) - used()
    assert not unused, f"{lang}: entries nobody uses: {sorted(map(str, unused))}"


@pytest.mark.parametrize("lang", LANGS)
def test_translations_fill_only_the_fields_given(lang: str) -> None:
    """A translation may drop or add a field only where the code gives it (the pots' ``bare``
    form, for languages that join an article to a preposition)."""
    extra_ok = {"bare"}
    for (_, msgid), text in entries(lang).items():
        ids = msgid if isinstance(msgid, tuple) else (msgid,)
        given = set().union(*(fields(i) for i in ids)) | extra_ok
        for form in (text if isinstance(text, tuple) else (text,)):
            assert fields(form) <= given | {"n"}, (msgid, form)


def _written(node: ast.expr) -> bool:
    """A string written in the code: a literal, an f-string, or either joined with ``+``."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _written(node.left) or _written(node.right)
    return False


def _has_words(node: ast.AST) -> bool:
    return any(isinstance(n, ast.Constant) and isinstance(n.value, str)
               and any(c.isalpha() for c in n.value) for n in ast.walk(node))


def inline_texts(source: str) -> list[int]:
    """The lines where ``Text(...)`` is given both languages as strings written in the code
    (``Text("I fold", "Me retiro")``, ``Text(f"bet {x}", f"apuesta {x}")``): a message that
    belongs in the catalogue. Text built from other Texts (``Text(a.en + b.en, ...)``) and
    text with no words in it (``Text("", "")``) are not messages."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        if not ((isinstance(f, ast.Name) and f.id == "Text")
                or (isinstance(f, ast.Attribute) and f.attr == "Text")):
            continue
        args = [*node.args, *(k.value for k in node.keywords)]
        if len(args) == 2 and all(_written(a) for a in args) and any(map(_has_words, args)):
            found.append(node.lineno)
    return sorted(found)


def test_catalogued_packages_write_no_inline_messages() -> None:
    skip = {SRC / p for p in (*NOT_YET, CATALOGUE_MODULE)}
    files = [p for p in sources(CATALOGUED) if p not in skip]
    assert files
    found = [f"{p.relative_to(SRC)}:{line}" for p in files
             for line in inline_texts(p.read_text(encoding="utf-8"))]
    assert not found, f"messages to move into the catalogue (t(...)): {found}"


def test_an_inline_message_is_found() -> None:
    planted = ('Text("I fold", "Me retiro")\n'
               'raise E(Text(f"raise to {x}",\n             f"sube a {x}"))\n'
               'x = tapete.core.text.Text("a" + y.en, "b" + y.es)\n'
               'Text(en="fold", es="retirarse")\n'
               'Text("", "")\nText(": ", ": ")\nText(a.en + b.en, a.es + b.es)\n'
               't("I fold")\nText.join(parts)\n')
    assert inline_texts(planted) == [1, 2, 4, 5]


def test_spanish_plurals_have_a_form_for_one_and_for_many() -> None:
    cat = catalog.catalogue("es")
    assert [cat.plural(n) for n in (0, 1, 2, 5, 1_000_000)] == [1, 0, 1, 1, 1]
    for forms in cat.plurals.values():
        assert len(forms) == 2


def test_an_unknown_message_falls_back_to_english_and_fields_are_filled() -> None:
    assert catalog.gettext_in("es", "no such message {x}", None, x="1") == "no such message 1"
    assert catalog.t("{who} folds", who="Ana").to_json() == {"en": "Ana folds",
                                                             "es": "Ana se retira"}
    # numbers are written as each language writes them
    assert catalog.tn("{n} hand", "{n} hands", 10000).to_json() == {"en": "10,000 hands",
                                                                    "es": "10.000 manos"}


def test_a_third_language_is_one_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Babel reads a new .po at run time: no build step, no code change."""
    po = tmp_path / "locale" / "fr" / "LC_MESSAGES" / "tapete.po"
    po.parent.mkdir(parents=True)
    po.write_text('msgid ""\nmsgstr ""\n"Language: fr\\n"\n'
                  '"Plural-Forms: nplurals=2; plural=(n > 1);\\n"\n\n'
                  'msgid "{who} folds"\nmsgstr "{who} se couche"\n\n'
                  'msgid "{n} hand"\nmsgid_plural "{n} hands"\n'
                  'msgstr[0] "{n} main"\nmsgstr[1] "{n} mains"\n', encoding="utf-8")

    monkeypatch.setattr(core_catalog, "locale_dir", lambda: tmp_path / "locale")
    catalog.reload()
    try:
        assert catalog.gettext_in("fr", "{who} folds", None, who="Ana") == "Ana se couche"
        assert catalog.ngettext_in("fr", "{n} hand", "{n} hands", 1) == "1 main"
        assert catalog.ngettext_in("fr", "{n} hand", "{n} hands", 0) == "0 main"
        assert catalog.ngettext_in("fr", "{n} hand", "{n} hands", 2) == "2 mains"
    finally:
        catalog.reload()
        monkeypatch.undo()
    assert catalog.t("{who} folds", who="Ana").es == "Ana se retira"


def test_no_sentence_about_a_hand_is_written_outside_words() -> None:
    """The narrator is the one place: the table's log and the replayer hold no event wording."""
    src = WORDS.parent
    for path in (src / "server" / "game.py", src / "server" / "replayer.py"):
        text = path.read_text(encoding="utf-8")
        for phrase in ("raises to", "posts the small", "Main pot", "Side pot", "returned to",
                       "sube a", "Bote principal", "comisión"):
            assert not re.search(re.escape(phrase), text), (path.name, phrase)
    assert not (src / "server" / "story.py").exists()
