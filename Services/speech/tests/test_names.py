"""A person's names as the prompt: Whisper writes them where they are said, in every window, and nowhere else."""

from __future__ import annotations

import pytest
from conftest import transcribe
from fastapi.testclient import TestClient
from wer import word_error_rate

from myday_speech.app import build_app
from myday_speech.engine import Engine
from myday_speech.settings import Settings

LUNCH = "Today I had lunch with Siobhan and Przemek near the station."
SAID = ("Siobhan", "Przemek")
# The two names said, and three that are not.
PROMPT = "Siobhan, Przemek, Aoife, Wojciech, Saoirse"
TEN_NAMES = ("Siobhan", "Przemek", "Aoife", "Wojciech", "Niamh", "Grzegorz", "Saoirse", "Tadhg", "Xochitl", "Ngozi")
DIARY = (
    "This morning I walked to the park with my sister. We talked about the garden and the new roses. "
    "In the afternoon I called my mother, and in the evening we cooked pasta together."
)


def names_in(text: str, names: tuple[str, ...]) -> set[str]:
    return {name for name in names if name.lower() in text.lower()}


@pytest.mark.parametrize("voice", ["en-us", "en-gb"])
def test_names_in_the_prompt_are_written_as_the_person_spells_them(client, media, voice):
    # Given a sentence holding two names Whisper base does not know (measured: heard as "Shimon", "Shivon", "BRM"…)
    spoken = media.spoken(LUNCH, voice=voice, name=f"lunch-{voice}")
    # When it is transcribed without a prompt, and with the two names among others as the prompt
    without = transcribe(client, spoken, language="en")["text"]
    helped = transcribe(client, spoken, language="en", prompt=PROMPT)["text"]
    # Then without help at least one of them is wrong, and with it both are right and no other name is added
    assert names_in(without, SAID) != set(SAID), without
    assert names_in(helped, SAID) == set(SAID), helped
    assert names_in(helped, TEN_NAMES) == set(SAID), helped


def test_a_prompt_of_names_puts_none_of_them_into_speech_without_names(client, media):
    # Given a diary entry that names nobody, and a prompt of ten names
    spoken = media.spoken(DIARY, name="diary-no-names")
    answer = transcribe(client, spoken, language="en", prompt=", ".join(TEN_NAMES))
    # Then none of the names appears, and the words stay as right as without a prompt
    assert names_in(answer["text"], TEN_NAMES) == set(), answer["text"]
    assert word_error_rate(DIARY, answer["text"]) <= 0.1, answer["text"]


def test_the_prompt_reaches_names_said_after_the_first_window(media):
    # Given a sentence without names, then 40 s in, the sentence with the two names; read in 30 s windows
    first = media.spoken("I planted tomatoes in the garden this morning.", name="tomatoes-first")
    second = media.spoken(LUNCH, name="lunch-later")
    recording = media.ffmpeg(
        "names-in-second-window.wav",
        *("-i", str(first), "-i", str(second)),
        "-filter_complex",
        "[0]apad=whole_dur=40[a];[a][1]concat=n=2:v=0:a=1,apad=pad_dur=3",
        *("-ar", "16000", "-ac", "1"),
    )
    engine = Engine(Settings.from_environment({"MYDAY_SPEECH_WINDOW_SECONDS": "30"}))
    answer = transcribe(TestClient(build_app(engine)), recording, language="en", prompt=PROMPT)
    # Then the second window's names are written right too, at their time
    assert "tomatoes" in answer["text"].lower(), answer["text"]
    assert names_in(answer["text"], SAID) == set(SAID), answer["text"]
    przemek = next(word for word in answer["words"] if "przemek" in word["word"].lower())
    assert przemek["start"] >= 40
