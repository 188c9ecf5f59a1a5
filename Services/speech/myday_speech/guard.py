"""Nothing invented: the rules that keep Whisper's guesses on silence, noise and music out of a diary.

Voice-activity detection runs first (in faster-whisper, before the model sees the audio). These rules then judge
what the model wrote."""

from __future__ import annotations

# Whisper's own thresholds (openai/whisper's transcribe defaults, which faster-whisper shares).
COMPRESSION_RATIO_LIMIT = 2.4
NO_SPEECH_LIMIT = 0.6
LOG_PROBABILITY_FLOOR = -1.0
# One word said over and over is a loop only when the model was unsure of it: a low mean log probability, or a text
# that needed a raised temperature (the greedy one failed Whisper's own checks). Over synthetic chords Whisper wrote
# "Whoa, whoa, whoa, whoa!" at -1.01 and temperature 1.0.
UNSURE_LOG_PROBABILITY = -0.8
UNSURE_TEMPERATURE = 0.5
# A window whose only text is a few words the model itself thinks may be silence ("You", "Thank you.") and is
# unsure of is dropped whole, in one segment or several. Short real answers ("Ten of clubs.", "Five five.") score a
# no-speech probability near 0.2 or below on the pocketsphinx test recordings; Whisper's guesses on silence score
# above 0.6. Unsure includes words that needed a raised temperature: sampled over synthetic chords, they were a
# different guess each time ("No! No! No!" once, at no-speech 0.59; "Woo!" twice, as two segments, at 0.57).
FEW_WORDS = 3
FEW_WORDS_MIN_NO_SPEECH = 0.4
FEW_WORDS_MIN_LOG_PROBABILITY = -0.5
FEW_WORDS_MIN_WORD_PROBABILITY = 0.6


def kept_segments(segments: list) -> list:
    """The segments of one window that are speech; a faster-whisper `Segment` list in, the kept ones out."""
    kept = [segment for segment in segments if _has_words(segment.text) and not _invented(segment)]
    if sum(_word_count(segment) for segment in kept) <= FEW_WORDS and all(_maybe_silence(segment) for segment in kept):
        return []
    return kept


def _invented(segment) -> bool:
    if segment.compression_ratio > COMPRESSION_RATIO_LIMIT or is_loop(segment.text):
        return True  # a repetition loop, left over after every temperature failed
    if is_loop(segment.text, single_words=True) and _unsure(segment):
        return True  # "Whoa, whoa, whoa, whoa!" over music; a person's "No, no, no, no!" is heard surely and kept
    return segment.no_speech_prob > NO_SPEECH_LIMIT and segment.avg_logprob < LOG_PROBABILITY_FLOOR


def _unsure(segment) -> bool:
    return segment.avg_logprob < UNSURE_LOG_PROBABILITY or segment.temperature > UNSURE_TEMPERATURE


def is_loop(text: str, single_words: bool = False) -> bool:
    """Whether `text` is mostly one phrase said again and again in a row: a phrase of two or more words three times
    ("au mâmo, au mâmo, au mâmo."), or, with `single_words`, one word four times ("Whoa, whoa, whoa, whoa!", or
    joined by hyphens: "Wh-wh-wh-wh-wh-"). Too short for the compression ratio to notice."""
    pieces = text.lower().replace("-", " ").split()
    words = ["".join(character for character in word if character.isalnum()) for word in pieces]
    words = [word for word in words if word]
    for length in range(1 if single_words else 2, 7):
        least = 4 if length == 1 else 3
        for start in range(len(words) - least * length + 1):
            phrase = words[start : start + length]
            repeats = 1
            while words[start + repeats * length : start + (repeats + 1) * length] == phrase:
                repeats += 1
            if repeats >= least and repeats * length >= 0.8 * len(words):
                return True
    return False


def _word_count(segment) -> int:
    return len(segment.words) if segment.words else len(segment.text.split())


def _maybe_silence(segment) -> bool:
    """Whether the model thought `segment` may be silence and was unsure of its words."""
    words = segment.words or []
    mean_probability = sum(word.probability for word in words) / len(words) if words else 1.0
    return segment.no_speech_prob > FEW_WORDS_MIN_NO_SPEECH and (
        segment.avg_logprob < FEW_WORDS_MIN_LOG_PROBABILITY
        or mean_probability < FEW_WORDS_MIN_WORD_PROBABILITY
        or segment.temperature > 0
    )


def _has_words(text: str) -> bool:
    """Whether `text` has a letter or digit in it ("..." and "♪" are not speech)."""
    return any(character.isalnum() for character in text)
