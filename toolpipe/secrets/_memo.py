"""What ``SecretPatternSet.redact`` gave for the texts it read last: a cached answer's
text is served again and again (the same text, often the same object), and reading it
again would find the same secrets.

Bounded by count and by characters, the oldest out first. Not locked: a race between two
threads can only evict an entry early or keep one a little longer."""

from __future__ import annotations

MEMO_ENTRIES = 1024
"""As many as the memoize layer keeps answers by default."""
MEMO_CHARS = 1 << 22
"""Characters of the texts kept (their answers are most often the same objects)."""
MEMO_TEXT = 1 << 16
"""A longer text is not kept (an output cap keeps 16 KB of it, and a window 32 KB more)."""


class TextMemo:
    __slots__ = ("_answers", "_chars")

    def __init__(self) -> None:
        self._answers: dict[str, str] = {}
        self._chars = 0

    def get(self, text: str) -> str | None:
        return self._answers.get(text)

    def put(self, text: str, answer: str) -> None:
        if len(text) > MEMO_TEXT:
            return
        answers = self._answers
        if text in answers:
            return
        answers[text] = answer
        self._chars += len(text)
        while len(answers) > MEMO_ENTRIES or self._chars > MEMO_CHARS:
            try:
                oldest = next(iter(answers))
                del answers[oldest]
            except (KeyError, RuntimeError, StopIteration):  # another thread took it
                return
            self._chars -= len(oldest)

    def __len__(self) -> int:
        return len(self._answers)
