"""A person's names: what a personal vocabulary does to Whisper's transcripts, end to end.

One `myday-server serve` (the Whisper speech service, one worker slot) and two accounts: one with no vocabulary, one
with the 50 names below. The same audio (espeak-ng, voices en-us and en-gb, AAC, each name said as the people who carry
it say it) goes to both: diary sentences that each hold 2-3 of the names, and sentences that hold none. Measured,
each next to the other account in the same run:
  1. names right: of the names said, those the transcript spells right (case and diacritics aside);
  2. names inserted: a vocabulary name in the transcript of a sentence that did not say it;
  3. word error rate on the sentences without names (Services/speech/tests/wer.py);
  4. real-time factor of a long entry (about 10 min, BENCH_NAMES_SECONDS, in whole loops of the diary sentences with
     three name sentences among them), the two accounts taking turns twice, each the best of its two runs; and the
     names right in it (a long entry has the second hearing of only a share of its audio).
Figures are on `transcript_raw` (the recognised words, before the cleaner's rules). MYDAY_BENCH_BINARY names the
server to run (default: the release build, built first). Results are printed and written to bench/results/names.md;
every transcript to bench/results/names.json.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
import tempfile
import time
import unicodedata
import urllib.error
from dataclasses import dataclass
from datetime import datetime
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from speech import duration
from transcription import ROOT, SENTENCES, build_server, VOICES, Server, long_audio, run, speak, wait_transcribed

sys.path.insert(0, os.path.join(ROOT, "Services/speech/tests"))
from wer import word_error_rate

LONG_SECONDS = int(os.environ.get("BENCH_NAMES_SECONDS", "600"))

PEOPLE = [
    "Siobhan", "Przemek", "Aoife", "Niamh", "Saoirse", "Tadhg", "Wojciech", "Grzegorz", "Xochitl", "Oisín",
    "Ngozi", "Joaquín", "Chiamaka", "Oluwaseun", "Thandiwe", "Eilidh", "Ruairí", "Caoimhe", "Krzysztof", "Zbigniew",
    "Jürgen", "Bartosz", "Ioana", "Tenzin", "Keoni", "Ailsa", "Ciarán", "Pádraig", "Björn", "Anjali",
    "Yusuf", "Emeka", "Tomasz", "Maeve", "Dearbhla", "Hamish",
]  # fmt: skip
PLACES = [
    "Llandudno", "Aberystwyth", "Kraków", "Zakopane", "Oaxaca", "Reykjavik", "Gdańsk", "Dunfermline", "Ballymena",
    "Kilkenny", "Ljubljana", "Poznań", "Taormina", "Cádiz",
]  # fmt: skip
VOCABULARY = PEOPLE + PLACES
# How each name is said, for espeak-ng: a spelling its English rules read right, or its phonemes in [[ ]]. Given the
# names as written, espeak reads them by English spelling ("Niamh" as "nye-am", "Aoife" as "ay-oh-iff"), which nobody
# says; these are the names as the people who carry them say them.
SAID = {
    "Siobhan": "Shivawn", "Przemek": "[[pS'EmEk]]", "Aoife": "Eefa", "Niamh": "Neeve", "Saoirse": "Seersha",
    "Tadhg": "Tyge", "Wojciech": "Voychekh", "Grzegorz": "[[gZ'EgOS]]", "Xochitl": "[[soU'tSi:t@l]]",
    "Oisín": "Usheen", "Ngozi": "Ngozee", "Joaquín": "Wahkeen", "Chiamaka": "Cheeahmahka", "Oluwaseun": "Oloowashayoon",
    "Thandiwe": "Tandeeway", "Eilidh": "[['eIli:]]", "Ruairí": "Rooree", "Caoimhe": "Keeva", "Krzysztof": "[[kS'IStOf]]",
    "Zbigniew": "[[zb'i:gnjEf]]", "Jürgen": "[[j'3:g@n]]", "Bartosz": "Bartosh", "Ioana": "[[joU'A:n@]]",
    "Tenzin": "Tenzin", "Keoni": "Kayonee", "Ailsa": "Ailsa", "Ciarán": "Keerawn", "Pádraig": "Pawdrig",
    "Björn": "[[bj'3:n]]", "Anjali": "[['VndZ@li:]]", "Yusuf": "Yoosuf", "Emeka": "Emeka", "Tomasz": "Tomash",
    "Maeve": "Mayv", "Dearbhla": "Dervla", "Hamish": "Haymish",
    "Llandudno": "[[lan'dIdnoU]]", "Aberystwyth": "[[ab@r'VstwIT]]", "Kraków": "Krakoof", "Zakopane": "[[zak0p'A:nE]]",
    "Oaxaca": "Wahhahka", "Reykjavik": "Raykyaveek", "Gdańsk": "[[g@d'ansk]]", "Dunfermline": "Dunfermlin",
    "Ballymena": "Ballymena", "Kilkenny": "Kilkenny", "Ljubljana": "[[lju:bl'jA:n@]]", "Poznań": "Poznahn",
    "Taormina": "[[tA:O@m'i:n@]]", "Cádiz": "Kahdiz",
}  # fmt: skip


def spoken(sentence: str) -> str:
    """The sentence as espeak-ng is given it: each name as it is said."""
    return re.sub("|".join(SAID), lambda name: SAID[name.group()], sentence)


NAME_SENTENCES = [
    "This morning Siobhan and Przemek came round for coffee before work.",
    "Aoife drove us to Llandudno and we walked along the pier with Tadhg.",
    "I had a long call with Niamh about her new job in Kraków.",
    "Saoirse and Wojciech cooked dinner for everyone tonight.",
    "Grzegorz showed me photos of his trip to Oaxaca with Xochitl.",
    "We met Oisín at the station and took the train to Dunfermline.",
    "Ngozi and Chiamaka were laughing about the wedding all afternoon.",
    "Joaquín sent me a postcard from Cádiz with a picture of the sea.",
    "Oluwaseun and Thandiwe helped me paint the kitchen.",
    "Eilidh says the weather in Aberystwyth was awful all week.",
    "Ruairí and Caoimhe are flying to Reykjavik next month.",
    "Krzysztof lent me his bike while Zbigniew fixed mine.",
    "Jürgen called from Ljubljana to say the conference went well.",
    "Bartosz and Tomasz are driving down from Poznań on Friday.",
    "I had lunch with Ioana and Tenzin near the river.",
    "Keoni told me about his holiday in Taormina with Ailsa.",
    "Ciarán and Pádraig watched the match in Kilkenny.",
    "Björn and Anjali brought a cake to the office for my birthday.",
    "Yusuf and Emeka went hiking near Zakopane.",
    "Maeve phoned from Ballymena to say that Hamish is better.",
    "Dearbhla is moving to Gdańsk in the spring.",
]


def folded(text: str) -> str:
    """Lower case, diacritics removed: "Kraków" → "krakow"."""
    return "".join(c for c in unicodedata.normalize("NFKD", text.lower()) if not unicodedata.combining(c))


def names_in(text: str) -> set[str]:
    """The vocabulary names written in `text`, as whole words."""
    heard = folded(text)
    return {name for name in VOCABULARY if re.search(rf"\b{re.escape(folded(name))}\b", heard)}


class Account:
    """Another person on the same server: the server's own requests, signed with this person's token."""

    def __init__(self, server: Server, email: str):
        self.server = server
        self.base = server.base
        self.login = {"email": email, "password": "benchmark password"}
        self.token = server.call("POST", "/v1/auth/email/register", self.login)["access_token"]

    def call(self, *args: Any, **kwargs: Any) -> Any:
        # The bench asks one thing at a time, so lending the server this person's token is safe.
        owner, self.server.token = self.server.token, self.token
        try:
            try:
                return self.server._call(*args, **kwargs)
            except urllib.error.HTTPError as error:
                if error.code != 401:
                    raise
                self.token = self.server._call("POST", "/v1/auth/email/login", self.login)["access_token"]
                self.server.token = self.token
                return self.server._call(*args, **kwargs)
        finally:
            self.server.token = owner

    upload = Server.upload
    complete = Server.complete
    status = Server.status


@dataclass
class Heard:
    sentence: str
    voice: str
    text: str


def transcripts(person: Server | Account, clips: list[tuple[str, str, str]]) -> list[Heard]:
    ids = [person.upload(path) for path, _, _ in clips]
    for entry_id in ids:
        person.complete(entry_id)
    wait_transcribed(person, ids)
    texts = [person.call("GET", f"/v1/entries/{entry_id}").get("transcript_raw", "") for entry_id in ids]
    return [Heard(sentence, voice, text) for (_, sentence, voice), text in zip(clips, texts, strict=True)]


@dataclass
class Figures:
    said: int
    right: int
    inserted: list[tuple[str, Heard]]
    wer: float
    missed: list[tuple[str, Heard]]


def figures(heard: list[Heard]) -> Figures:
    said = right = 0
    inserted, missed = [], []
    for item in heard:
        expected, found = names_in(item.sentence), names_in(item.text)
        said += len(expected)
        right += len(expected & found)
        missed += [(name, item) for name in sorted(expected - found)]
        inserted += [(name, item) for name in sorted(found - expected)]
    plain = [item for item in heard if not names_in(item.sentence)]
    wer = word_error_rate(" ".join(i.sentence for i in plain), " ".join(i.text for i in plain))
    return Figures(said, right, inserted, wer, missed)


LONG_NAME_SENTENCES = [NAME_SENTENCES[0], NAME_SENTENCES[4], NAME_SENTENCES[10]]


@dataclass
class Long:
    path: str
    seconds: float
    loops: int


def long_entry(folder: str) -> Long:
    """`long_audio`'s diary sentences with three name sentences among them, in whole loops to about LONG_SECONDS."""
    os.makedirs(folder)
    first, second, third = LONG_NAME_SENTENCES
    text = spoken(". ".join([*SENTENCES[:4], first, *SENTENCES[4:8], second, *SENTENCES[8:], third]))
    base = os.path.join(folder, "base.wav")
    run(["espeak-ng", "-v", "en-us", "-s", "150", "-g", "12", "-w", base, text])
    loops = max(1, round(LONG_SECONDS / duration(base)))
    path = os.path.join(folder, "long.m4a")
    long_audio(folder, loops * duration(base), path)
    return Long(path, duration(path), loops)


def transcribed(person: Server | Account, path: str) -> tuple[float, str]:
    """Seconds from `complete` to the server's commit of the transcript (the entry's `updated_at`), and the text."""
    entry_id = person.upload(path)
    started = time.time()
    person.complete(entry_id)
    wait_transcribed(person, [entry_id])
    entry = person.call("GET", f"/v1/entries/{entry_id}")
    return datetime.fromisoformat(entry["updated_at"]).timestamp() - started, entry.get("transcript_raw", "")


def long_runs(people: dict[str, Server | Account], long: Long) -> dict[str, tuple[float, str]]:
    """Each person's best real-time factor of two, taking turns A B B A so a drift in the machine's load hits both,
    and the transcript."""
    runs: dict[str, list[tuple[float, str]]] = {label: [] for label in people}
    for label in [*people, *reversed(people)]:
        runs[label].append(transcribed(people[label], long.path))
    return {label: (min(wall for wall, _ in done) / long.seconds, done[0][1]) for label, done in runs.items()}


def long_names_right(long: Long, text: str) -> tuple[int, int]:
    """Names written right in the long entry's transcript, and names said."""
    heard = folded(text)
    counts = [
        len(re.findall(rf"\b{re.escape(folded(name))}\b", heard)) for s in LONG_NAME_SENTENCES for name in names_in(s)
    ]
    return sum(min(count, long.loops) for count in counts), len(counts) * long.loops


def percent(part: int, whole: int) -> str:
    return f"{part}/{whole} ({part / max(1, whole):.0%})"


def report(without: Figures, helped: Figures, long: Long, runs: dict[str, tuple[float, str]]) -> str:
    rtf = {label: factor for label, (factor, _) in runs.items()}
    ratio = rtf["with"] / rtf["without"]
    in_long = {label: percent(*long_names_right(long, text)) for label, (_, text) in runs.items()}
    rows = [
        ("names right", percent(without.right, without.said), percent(helped.right, helped.said), "≥ 90%"),
        ("names inserted", str(len(without.inserted)), str(len(helped.inserted)), "0"),
        ("WER, sentences without names", f"{without.wer:.1%}", f"{helped.wer:.1%}", "within 0.5 points"),
        (f"RTF, {long.seconds / 60:.1f} min entry", f"{rtf['without']:.3f}", f"{rtf['with']:.3f}", ""),
        ("RTF with / without", "", f"{ratio:.2f}", "≤ 1.3"),
        (f"names right in the {long.seconds / 60:.1f} min entry", in_long["without"], in_long["with"], ""),
    ]
    text = "| measurement | no vocabulary | 50 names | target |\n|---|---|---|---|\n"
    text += "".join(f"| {' | '.join(row)} |\n" for row in rows)
    text += f"\nWER difference: {(helped.wer - without.wer) * 100:+.1f} points.\n"
    text += "\n| missed with the vocabulary | voice | heard without | heard with |\n|---|---|---|---|\n"
    first_pass = {(item.sentence, item.voice): item.text for _, item in without.missed}
    text += "".join(
        f"| {name} | {item.voice} | {first_pass.get((item.sentence, item.voice), '(right)')} | {item.text} |\n"
        for name, item in helped.missed
    )
    for label, found in [("no vocabulary", without), ("50 names", helped)]:
        text += f"\nInserted ({label}): " + (
            "; ".join(f"{name} in “{item.text}” ({item.voice})" for name, item in found.inserted) or "none"
        )
    return text + "\n"


def main() -> int:
    build_server()
    folder = tempfile.mkdtemp(prefix="myday-bench-names-")
    try:
        clips = []
        for voice in VOICES:
            for index, sentence in enumerate(NAME_SENTENCES + SENTENCES):
                path = os.path.join(folder, f"{voice}-{index}.m4a")
                speak(spoken(sentence), voice, path)
                clips.append((path, sentence, voice))
        long = long_entry(os.path.join(folder, "long"))
        server = Server(workers=1)
        try:
            server.wait_for_speech()
            person = Account(server, "names@example.com")
            person.call("PUT", "/v1/me/vocabulary", {"words": VOCABULARY})
            assert len(person.call("GET", "/v1/me/vocabulary")["words"]) == len(VOCABULARY)
            people: dict[str, Server | Account] = {"without": server, "with": person}
            heard = {label: transcripts(people[label], clips) for label in people}
            runs = long_runs(people, long)
        finally:
            server.stop()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    text = report(figures(heard["without"]), figures(heard["with"]), long, runs)
    print(text)
    results = os.path.join(ROOT, "bench/results")
    os.makedirs(results, exist_ok=True)
    with open(os.path.join(results, "names.md"), "w") as file:
        file.write(text)
    # Every transcript of the run, for a closer look at what was heard in place of a name.
    with open(os.path.join(results, "names.json"), "w") as file:
        everything = {label: [vars(item) for item in items] for label, items in heard.items()}
        everything["long entry"] = {label: text for label, (_, text) in runs.items()}
        json.dump(everything, file, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
