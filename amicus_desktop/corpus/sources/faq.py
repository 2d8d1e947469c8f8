"""``meta_faq`` chunks: Amicus Desktop's own short help texts (written for this project).

They answer questions about the app itself, so that "how does scoring work?" finds an answer in
the same search as everything else. No scholar, no book.
"""

from __future__ import annotations

from collections.abc import Iterator

from ...store.writer import ChunkRecord
from .common import meta, record

FAQ: tuple[tuple[str, str, str], ...] = (
    ("scoring", "How are results scored?",
     "Amicus turns your question into a vector and finds the 40 passages of the library whose "
     "vectors are nearest to it. Each candidate's similarity is 1 minus its cosine distance. The "
     "final score is the similarity multiplied by three boosts: the chapter boost, the scholar "
     "boost and the tradition boost. Results are ordered by final score, then by similarity, then "
     "by chunk id, and the first ten that survive the scholar cap are shown. Every result shows "
     "its breakdown, so you can see exactly why it ranked where it did."),
    ("boosts", "What do the chapter, scholar and tradition boosts mean?",
     "The chapter boost multiplies a result's score by 1.5 when it belongs to the chapter you are "
     "reading. The scholar boost (1.1) applies to scholars you marked as preferred in your profile, "
     "and the tradition boost (1.05) to preferred traditions such as reformed, baptist or "
     "dispensational. A boost never adds new material: it only reorders what the search found."),
    ("scholar-cap", "What does the scholar cap mean?",
     "To keep one voice from filling the whole list, Amicus keeps at most two results from the "
     "same scholar. Every result drawn from a named author's work counts for that author: "
     "Strong's lexicon entries and the word studies built on them are James Strong's, for "
     "example. Further results by that scholar are set aside with the reason 'scholar_cap' and "
     "appear in the rejected list, where you can still inspect them. Only these help texts have "
     "no author and are never capped."),
    ("offline", "What does offline mean?",
     "Amicus needs the embed proxy to turn a question into a vector. When the proxy cannot be "
     "reached, the app says it is offline instead of showing stale or made-up results. Reading "
     "scripture and browsing the library still work offline; searching resumes as soon as the "
     "proxy answers again. Check that the proxy is running and that its address is right."),
    ("profile", "How do I change my profile?",
     "Open the profile settings and choose the scholars and traditions you want to prefer. Your "
     "choices only change the scholar and tradition boosts; they never hide other material. "
     "Changing the profile re-ranks the current results at once, without searching again."),
    ("shortcuts", "Which keyboard shortcuts are there?",
     "Amicus follows your system's standard shortcuts for copying, finding, opening the settings "
     "and quitting. Its own shortcuts, such as moving to the question box or to the next chapter, "
     "are listed under Help, Keyboard Shortcuts; that list is made from the same table the app "
     "uses, so it always matches what the keys do."),
    ("sources", "Where does the study material come from?",
     "All material is in the public domain: the World English Bible with Strong's numbers, "
     "Matthew Henry's Concise Commentary, the Scofield Reference Notes of 1917, Spurgeon's "
     "Treasury of David on the Psalms, Strong's Greek and Hebrew dictionaries, G. Abbott-Smith's "
     "Manual Greek Lexicon of the New Testament and Nave's Topical Bible. Quotations of other "
     "writers inside a commentary are credited to the writer quoted, never to the commentator."),
    ("chunk-types", "What kinds of results are there?",
     "Section notes comment on a range of verses. Chapter panels introduce or outline a chapter "
     "or a book. Lexicon entries give a definition from Strong's or Abbott-Smith's lexicon, and "
     "word studies show how "
     "one Greek or Hebrew word is used across a book. Thread notes follow a chain of cross "
     "references or a topic from Nave's Topical Bible. Help texts like this one explain the app."),
    ("similarity-threshold", "What is the minimum similarity?",
     "You can ask Amicus to drop candidates whose similarity is below a threshold. They are "
     "rejected with the reason 'below_threshold' before any boost is applied, so a weak match "
     "cannot be lifted into the results by the chapter boost alone."),
    ("database", "How do I build or replace the study database?",
     "The welcome screen can build the demo database with Romans and John. From a terminal, "
     "'amicus-desktop build-db --demo' does the same, '--books' chooses other books and '--all' "
     "builds the whole Bible. A build that is cancelled or interrupted leaves the previous "
     "database untouched."),
    ("privacy", "Is my question sent anywhere?",
     "Your question is sent only to the embed proxy you configured, to be turned into a vector. "
     "The database lives on your computer and is opened read-only. Error messages never repeat "
     "your question or any token."),
)


def faq_chunks() -> Iterator[ChunkRecord]:
    for key, question, answer in FAQ:
        yield record(f"faq:{key}", "meta_faq", f"faq-{key}", f"{question}\n{answer}",
                     meta(None, panel_type="faq"))
