"""The searched words marked in text (``ui/highlight.py``): by their stems, escaped, in a snippet's tooltip."""

from __future__ import annotations

from amicus_desktop.ui.highlight import marked, spans, stem, tip


def test_words_are_matched_by_their_stems() -> None:
    text = "Jacob have I loved, but Esau have I hated. He that loveth; justified, justifieth."
    found = [text[a:b] for a, b in spans(text, ["love", "esau", "justification"])]
    assert found == ["loved", "Esau", "loveth", "justified", "justifieth"]
    assert marked("a <b> Esau", ["esau"], "[", "]") == "a &lt;b&gt; [Esau]"
    assert spans(text, []) == [] and spans(text, ["grace"]) == []


def test_a_snippets_tooltip_marks_the_searched_words() -> None:
    assert tip("Grace and peace to you.", ["grace"], "Romans 1:7 · Section note · c1") == (
        "<qt><b>Grace</b> and peace to you.<br>Romans 1:7 · Section note · c1</qt>")
    assert tip("Grace & peace\nto you.", ["peace"]) == "<qt>Grace &amp; <b>peace</b><br>to you.</qt>"
    assert tip("Grace and peace.", ["love"], "c1") == "Grace and peace.\nc1"  # nothing to mark: plain, as before


def test_a_stem_drops_the_endings_the_text_varies_by() -> None:
    assert stem("Loveth") == stem("loved") == stem("love")
    assert stem("justification") == stem("justified")
    assert marked("no words here", [], "[", "]") == "no words here"
