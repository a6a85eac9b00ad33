"""Checks Shelfed's message catalogues (issue 39, DESIGN §18), run by `make test`:

- every message the templates mark ({{#t}}…{{/t}}) and the Swift code asks for (localized("…"),
  localized(one: "…", other: "…", …)) is in every catalogue (locales/<code>.po), translated, not fuzzy, with its
  plural forms (two for German, three for Spanish, French, Italian and Portuguese);
- each translation keeps its message's placeholders ({{name}}) and markup (<a href="…">, <strong>) exactly;
- a catalogue holds no message the code no longer asks for;
- no template has English left outside a marked message (text, or an aria-label, placeholder, title or alt
  attribute).

With --update it writes locales/shelfed.pot and adds each missing message to every catalogue, untranslated, for
a translator to fill in. Exits non-zero, saying what is wrong, when a check fails.
"""
import re
import sys
from pathlib import Path

import polib

ROOT = Path(__file__).resolve().parent.parent
LOCALES = ROOT / "locales"
LANGUAGES = {"es": 3, "de": 2, "fr": 3, "it": 3, "pt": 3}
PLURAL_FORMS = {
    2: "nplurals=2; plural=(n != 1);",
    3: None,  # per language below
}
PLURAL_FORMS_3 = {
    "es": "nplurals=3; plural=(n == 1 ? 0 : n != 0 && n % 1000000 == 0 ? 1 : 2);",
    "it": "nplurals=3; plural=(n == 1 ? 0 : n != 0 && n % 1000000 == 0 ? 1 : 2);",
    "fr": "nplurals=3; plural=(n == 0 || n == 1 ? 0 : n != 0 && n % 1000000 == 0 ? 1 : 2);",
    "pt": "nplurals=3; plural=(n == 0 || n == 1 ? 0 : n != 0 && n % 1000000 == 0 ? 1 : 2);",
}

NAMES = {"Shelfed", "Jellyfin", "English", "Español", "Deutsch", "Français", "Italiano", "Português"}
MARKED = re.compile(r"\{\{#t\}\}(.*?)\{\{/t\}\}", re.S)
SWIFT_ONE = re.compile(r'localized\(\s*"((?:[^"\\]|\\.)*)"(\s*\\\()?')
SWIFT_PLURAL = re.compile(r'localized\(\s*one:\s*"((?:[^"\\]|\\.)*)",\s*other:\s*"((?:[^"\\]|\\.)*)"')
PLACEHOLDER = re.compile(r"\{\{[^}]*\}\}")
TAG = re.compile(r"<[^>]+>")


def message_id(text):
    return " ".join(text.split())


def swift_text(literal):
    return re.sub(r'\\(["\\nt])', lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), literal)


def messages():
    """Every message id the code asks for: {id: (plural id or None, where)}."""
    found, problems = {}, []
    for path in sorted((ROOT / "templates").rglob("*.mustache")):
        for match in MARKED.finditer(path.read_text(encoding="utf-8")):
            found.setdefault(message_id(match.group(1)), (None, str(path.relative_to(ROOT))))
    for path in sorted((ROOT / "Sources").rglob("*.swift")):
        source = path.read_text(encoding="utf-8")
        where = str(path.relative_to(ROOT))
        for match in SWIFT_PLURAL.finditer(source):
            found[swift_text(match.group(1))] = (swift_text(match.group(2)), where)
        for match in SWIFT_ONE.finditer(source):
            text = match.group(1)
            if "\\(" in text:
                problems.append(f"{where}: localized(\"{text[:50]}…\") interpolates: use {{{{name}}}} and values")
                continue
            found.setdefault(swift_text(text), (None, where))
    return found, problems


def same_markup(english, translated):
    return sorted(PLACEHOLDER.findall(english)) == sorted(PLACEHOLDER.findall(translated)) and sorted(
        TAG.findall(english)) == sorted(TAG.findall(translated))


def untranslated_english(path):
    """Words a reader sees in a translated template that no marked message holds."""
    text = MARKED.sub(" ", path.read_text(encoding="utf-8"))
    text = re.sub(r"<(script|style|pre|code)\b.*?</\1>", " ", text, flags=re.S)
    left = []
    for attribute in re.finditer(r'\b(aria-label|placeholder|title|alt)="([^"]*)"', text):
        value = PLACEHOLDER.sub("", attribute.group(2))
        # An example address is data, not words.
        if re.search(r"[A-Za-z]{2}", value) and not re.match(r"https?://", value):
            left.append(f'{attribute.group(1)}="{attribute.group(2)}"')
    body = PLACEHOLDER.sub("\n", TAG.sub("\n", text))
    for chunk in body.split("\n"):
        words = chunk.strip()
        # Names are not English: the product's, and each language's own name on the switch.
        if re.search(r"[^\W\d_]{2}", words) and words.strip("·—– ") not in NAMES:
            left.append(words)
    return left


def main():
    update = "--update" in sys.argv
    found, problems = messages()
    if update:
        pot = polib.POFile()
        pot.metadata = {"Content-Type": "text/plain; charset=UTF-8", "Project-Id-Version": "Shelfed"}
        for msgid, (plural, where) in sorted(found.items()):
            pot.append(polib.POEntry(msgid=msgid, msgid_plural=plural or "", occurrences=[(where, "")]))
        pot.save(str(LOCALES / "shelfed.pot"))
    for code, forms in LANGUAGES.items():
        path = LOCALES / f"{code}.po"
        if not path.exists():
            problems.append(f"{path.relative_to(ROOT)} is missing")
            continue
        catalogue = polib.pofile(str(path))
        entries = {entry.msgid: entry for entry in catalogue if not entry.obsolete}
        if update:
            catalogue.metadata["Plural-Forms"] = PLURAL_FORMS.get(forms) or PLURAL_FORMS_3[code]
            for msgid, (plural, where) in sorted(found.items()):
                if msgid not in entries:
                    entry = polib.POEntry(msgid=msgid, msgid_plural=plural or "", occurrences=[(where, "")])
                    if plural:
                        entry.msgstr_plural = {index: "" for index in range(forms)}
                    catalogue.append(entry)
            catalogue.save(str(path))
            entries = {entry.msgid: entry for entry in catalogue if not entry.obsolete}
        for msgid, (plural, where) in sorted(found.items()):
            entry = entries.get(msgid)
            name = f"{path.relative_to(ROOT)}: “{msgid[:60]}” ({where})"
            if entry is None:
                problems.append(f"{name} is missing")
            elif "fuzzy" in entry.flags:
                problems.append(f"{name} is marked fuzzy")
            elif plural:
                texts = [entry.msgstr_plural.get(index, "") for index in range(forms)]
                if entry.msgid_plural != plural:
                    problems.append(f"{name}: its plural is “{entry.msgid_plural}”, the code says “{plural}”")
                elif len(entry.msgstr_plural) != forms or not all(texts):
                    problems.append(f"{name} needs {forms} plural forms")
                elif not all(same_markup(plural, text) for text in texts):
                    problems.append(f"{name}: a plural form changes the placeholders or markup")
            elif not entry.msgstr:
                problems.append(f"{name} is not translated")
            elif not same_markup(msgid, entry.msgstr):
                problems.append(f"{name}: “{entry.msgstr}” changes the placeholders or markup")
        for msgid in entries:
            if msgid not in found:
                problems.append(f"{path.relative_to(ROOT)}: “{msgid[:60]}” is asked for nowhere (remove it)")
    templates = sorted((ROOT / "templates").rglob("*.mustache"))
    for path in templates:
        for words in untranslated_english(path):
            problems.append(f"{path.relative_to(ROOT)}: “{words[:60]}” is not a marked message")
    print(f"i18n: {len(found)} messages, each in {len(LANGUAGES)} catalogues besides English; "
          f"{len(templates)} templates checked for English outside a message")
    for problem in problems:
        print("i18n:", problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
