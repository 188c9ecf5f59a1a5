"""Word error rate after the normalisation speech benchmarks use: case, punctuation and digits do not count."""

from __future__ import annotations

import re

_ONES = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
]
_TENS = ["_", "_", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]


def _spelled(number: int) -> str:
    if number < 20:
        return _ONES[number]
    if number < 100:
        return _TENS[number // 10] + ("" if number % 10 == 0 else " " + _ONES[number % 10])
    if number < 1000:
        rest = number % 100
        return _ONES[number // 100] + " hundred" + ("" if rest == 0 else " " + _spelled(rest))
    return " ".join(_ONES[int(digit)] for digit in str(number))


def normalized(text: str) -> list[str]:
    text = text.lower().replace("-", " ")
    text = re.sub(r"\d+", lambda match: " " + _spelled(int(match.group())) + " ", text)
    return re.sub(r"[^\w\s']", " ", text).split()


def word_error_rate(reference: str, hypothesis: str) -> float:
    """(substitutions + deletions + insertions) / reference words, by edit distance over words."""
    expected, heard = normalized(reference), normalized(hypothesis)
    previous = list(range(len(heard) + 1))
    for i, word in enumerate(expected, 1):
        current = [i]
        for j, other in enumerate(heard, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (word != other)))
        previous = current
    return previous[-1] / max(1, len(expected))
