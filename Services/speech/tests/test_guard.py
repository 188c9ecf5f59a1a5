"""The rules that keep invented text out, on segments shaped like faster-whisper's."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from myday_speech.guard import is_loop, kept_segments


@dataclass
class Word:
    word: str
    probability: float


@dataclass
class Segment:
    text: str
    avg_logprob: float = -0.3
    no_speech_prob: float = 0.05
    compression_ratio: float = 1.2
    temperature: float = 0.0
    words: list = field(default_factory=list)


def sure(text: str, **scores) -> Segment:
    return Segment(text, words=[Word(word, 0.9) for word in text.split()], **scores)


def test_clear_speech_is_kept_even_when_short():
    assert kept_segments([sure("Ten of clubs.", avg_logprob=-0.71, no_speech_prob=0.03)])
    assert kept_segments([sure("Five five.", avg_logprob=-0.79, no_speech_prob=0.2)])


def test_a_lone_short_segment_that_may_be_silence_is_dropped():
    assert kept_segments([sure("You", avg_logprob=-0.84, no_speech_prob=0.72)]) == []
    unsure = Segment("Thank you.", no_speech_prob=0.5, words=[Word("Thank", 0.3), Word("you.", 0.4)])
    assert kept_segments([unsure]) == []
    # Words the greedy decoding could not find, guessed at a raised temperature, where there may be no speech
    sampled = sure("No! No! No!", avg_logprob=-0.3, no_speech_prob=0.59, temperature=0.4)
    assert kept_segments([sampled]) == []
    # The same words found at once, or where there surely is speech, are kept
    assert kept_segments([sure("No! No! No!", avg_logprob=-0.3, no_speech_prob=0.59)])
    assert kept_segments([sure("No! No! No!", avg_logprob=-0.3, no_speech_prob=0.1, temperature=0.4)])


def test_a_few_unsure_words_split_into_segments_are_dropped_together():
    # Over synthetic chords, one decoding at temperature 1.0 wrote "Woo!" twice, as two segments
    woo = [
        Segment(" Woo!", avg_logprob=-1.01, no_speech_prob=0.57, temperature=1.0, words=[Word(" Woo!", p)])
        for p in (0.01, 0.65)
    ]
    assert kept_segments(woo) == []
    # Short answers heard surely, in segments of their own, are kept
    answers = [sure("Yes.", avg_logprob=-0.6, no_speech_prob=0.2), sure("Ten of clubs.", no_speech_prob=0.1)]
    assert kept_segments(answers) == answers
    # So are a few unsure words beside more words than a guess on silence makes
    more = [woo[0], sure("We walked home", avg_logprob=-0.9, no_speech_prob=0.5, temperature=1.0)]
    assert kept_segments(more) == more


def test_the_same_short_words_among_other_speech_are_kept():
    segments = [sure("I walked home."), sure("You", avg_logprob=-0.84, no_speech_prob=0.45)]
    assert kept_segments(segments) == segments


def test_whispers_own_no_speech_rule_and_loops_are_dropped():
    silent = sure("Thanks for watching and see you next time.", avg_logprob=-1.2, no_speech_prob=0.8)
    looping = sure("the the the the the the the the the the", compression_ratio=3.1)
    kept = sure("We cooked pasta.")
    assert kept_segments([silent, looping, kept]) == [kept]


def test_text_without_letters_is_not_speech():
    assert kept_segments([sure("..."), sure("♪ ♪")]) == []


@pytest.mark.parametrize(
    ("text", "loop"),
    [
        ("au mâmo, au mâmo, au mâmo, au mâmo.", True),
        ("I said it again. I said it again. I said it again.", True),
        ("No, no, no, I really did not.", False),
        ("We went to the shop, then to the shop next door, then home.", False),
        ("Thank you, thank you.", False),
    ],
)
def test_loops_are_told_from_repetition_in_speech(text, loop):
    assert is_loop(text) is loop


def test_one_word_over_and_over_is_dropped_only_when_the_model_was_unsure():
    # Whisper over chords, at the highest temperature, and a person saying no, heard surely
    music = sure("Whoa, whoa, whoa, whoa!", avg_logprob=-1.01, no_speech_prob=0.59, temperature=1.0)
    person = sure("No, no, no, no!", avg_logprob=-0.3)
    assert kept_segments([music, sure("We went home.")]) == [sure("We went home.")]
    assert kept_segments([person]) == [person]
    # A word said four times among other words is speech
    assert not is_loop("It was very, very, very, very cold by the sea this morning.", single_words=True)
    assert is_loop("Whoa, whoa, whoa, whoa!", single_words=True) and not is_loop("Whoa, whoa, whoa, whoa!")
    # The same loop written as one hyphenated word, as Whisper once wrote it over chords
    hyphenated = sure("Wh-wh-wh-wh-wh-", avg_logprob=-1.0, temperature=1.0)
    assert kept_segments([hyphenated, sure("We went home.")]) == [sure("We went home.")]
    assert not is_loop("I-I-I think we should go home now, it is late.", single_words=True)
