"""The app's ranking policy (docs/RELEVANCE.md): the spread over sources, a named passage before the open
chapter, and the source prior by the question's intent — and that the contract's default is untouched."""

from __future__ import annotations

import itertools
import math
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from amicus_desktop.core.names import Names
from amicus_desktop.core.preset import APP as APP_PRESET
from amicus_desktop.core.query import BoostWeights, RankingPolicy, RetrievalContext
from amicus_desktop.core.references import ChapterRef, PassageRef
from amicus_desktop.core.results import Candidate, ChunkMetadata, ScoredCandidate
from amicus_desktop.present.factors import Subject, factor_sentence
from amicus_desktop.rerank import apply_spread, chapter_context, order, rerank, score
from amicus_desktop.rerank.prior import (
    Material,
    about_another_word,
    material,
    source_prior,
    transliterations,
    verse_exposition,
    word_question,
    word_stems,
)

_ids = itertools.count()
APP = RankingPolicy(spread=0.8, passage_first=True, source_priors=True)


def cand(distance: float, source_type: str = "section_panel", text: str = "text", chunk_id: str | None = None,
         **meta: Any) -> Candidate:
    cid = chunk_id or f"c{next(_ids):03d}"
    return Candidate(0, cid, source_type, cid, text, ChunkMetadata(**meta), distance)


def scored(c: Candidate, ctx: RetrievalContext) -> ScoredCandidate:
    return ScoredCandidate(c, score(c, ctx))


# -- the spread ------------------------------------------------------------------------------------
def test_the_spread_keeps_every_chunk_and_lowers_a_source_past_its_cap() -> None:
    ctx = RetrievalContext(query="q", policy=APP)
    henry = [cand(0.10 + i / 100, scholar_id="henry") for i in range(4)]
    other = cand(0.20, scholar_id="scofield")
    out = apply_spread(order(scored(c, ctx) for c in [*henry, other]), cap=2, factor=0.8)
    assert len(out) == 5  # nothing is rejected
    by_id = {s.candidate.chunk_id: s for s in out}
    assert [by_id[c.chunk_id].breakdown.diversity for c in henry] == [1.0, 1.0, 0.8, 0.8**2]
    # the 3rd Henry chunk (0.88 × 0.8 = 0.704) now falls below Scofield's 0.80
    assert [s.candidate.chunk_id for s in out] == [henry[0].chunk_id, henry[1].chunk_id, other.chunk_id,
                                                  henry[2].chunk_id, henry[3].chunk_id]
    for s in out:  # final carries the factor, and the list is ordered by final
        assert s.breakdown.final == pytest.approx(s.breakdown.base * s.breakdown.diversity)
    assert [s.breakdown.final for s in out] == sorted((s.breakdown.final for s in out), reverse=True)


def test_the_spread_counts_per_source_not_per_author_and_never_lowers_authorless_chunks() -> None:
    ctx = RetrievalContext(query="q", policy=APP)
    lexicon = [cand(0.1, "lexicon_entry", scholar_id="strong") for _ in range(2)]
    studies = [cand(0.1, "word_study", scholar_id="strong") for _ in range(2)]
    faq = [cand(0.1, "meta_faq") for _ in range(4)]
    out = apply_spread(order(scored(c, ctx) for c in [*lexicon, *studies, *faq]), cap=2, factor=0.8)
    assert all(s.breakdown.diversity == 1.0 for s in out)  # two of each source, and authorless FAQ


@given(st.lists(st.tuples(st.floats(0, 1), st.sampled_from(["a", "b", "c", None])), min_size=1, max_size=30),
       st.integers(1, 4), st.floats(0.05, 0.99))
def test_the_spread_is_a_permutation_ordered_by_final(items: list[tuple[float, str | None]], cap: int,
                                                      factor: float) -> None:
    ctx = RetrievalContext(query="q", policy=APP)
    cands = [cand(d, scholar_id=s) for d, s in items]
    out = apply_spread(order(scored(c, ctx) for c in cands), cap=cap, factor=factor)
    assert sorted(s.candidate.chunk_id for s in out) == sorted(c.chunk_id for c in cands)
    finals = [s.breakdown.final for s in out]
    assert finals == sorted(finals, reverse=True)
    seen: dict[str | None, int] = {}
    for s in out:  # the factor is factor ** (how many of its source came before, past the cap)
        key = s.candidate.metadata.scholar_id
        seen[key] = seen.get(key, 0) + 1
        expected = 1.0 if key is None else factor ** max(0, seen[key] - cap)
        assert math.isclose(s.breakdown.diversity, expected)


def test_rerank_under_the_app_policy_fills_the_list_where_the_contract_cap_starves_it() -> None:
    cands = [cand(0.1 + i / 100, scholar_id=f"s{i % 3}") for i in range(12)]  # three authors
    contract = RetrievalContext(query="q", k=10)
    results, rejected = rerank(cands, contract)
    assert len(results) == 6 and sum(r.reason.value == "scholar_cap" for r in rejected) == 6
    app = contract.replace(policy=APP)
    results, rejected = rerank(cands, app)
    assert len(results) == 10 and {r.reason.value for r in rejected} == {"below_cutoff"}


# -- the passage first ------------------------------------------------------------------------------
ROM3, ROM9 = ChapterRef("romans", 3), ChapterRef("romans", 9)
NAMED = (PassageRef("romans", 9, None, None, "Romans 9"),)


@pytest.mark.parametrize(
    ("policy", "refs", "expected"),
    [
        (RankingPolicy(), NAMED, ROM3),  # the contract: both boosts multiply
        (APP, (), ROM3),  # nothing named: the open chapter
        (APP, NAMED, None),  # another chapter named: it comes first
        (APP, (PassageRef("romans", 3, 21, 26, "Rom 3:21-26"),), ROM3),  # the open chapter named
    ],
)
def test_the_open_chapter_gives_way_to_a_passage_the_question_names(policy: RankingPolicy,
                                                                    refs: tuple[PassageRef, ...],
                                                                    expected: ChapterRef | None) -> None:
    assert chapter_context(RetrievalContext(query="q", chapter=ROM3, policy=policy), refs) == expected


def test_a_chunk_on_the_named_passage_outranks_one_only_on_the_open_chapter() -> None:
    on_open = cand(0.40, book_id="romans", chapter_num=3, scholar_id="henry", chunk_id="open")
    on_named = cand(0.45, book_id="romans", chapter_num=9, scholar_id="henry", chunk_id="named")
    ctx = RetrievalContext(query="predestination in Romans 9", chapter=ROM3)
    results, _ = rerank([on_open, on_named], ctx, references=NAMED)  # the contract: ×1.5 beats ×1.25
    assert [r.chunk_id for r in results] == ["open", "named"]
    results, _ = rerank([on_open, on_named], ctx.replace(policy=APP), references=NAMED)
    assert [r.chunk_id for r in results] == ["named", "open"]
    assert results[1].breakdown.chapter_suspended and results[1].breakdown.chapter_boost == 1.0
    assert results[0].breakdown.to_json()["chapter_suspended"] is False


def test_the_contract_breakdown_keeps_its_keys() -> None:
    c = cand(0.3, book_id="romans", chapter_num=3)
    b = score(c, RetrievalContext(query="q", chapter=ROM3))
    assert "source_prior" not in b.to_json() and "diversity" not in b.to_json() and not b.extended
    assert set(b.boosts) == {"chapter", "scholar", "tradition", "reference"}


# -- the source prior -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("source_type", "text", "expected"),
    [
        ("section_panel", "Whatever God does, must be just.", Material.COMMENTARY),
        ("chapter_panel", "The apostle's concern …", Material.COMMENTARY),
        ("lexicon_entry", "ἀγάπη (agápē, ag-ah'-pay) — Strong's Greek G26. love", Material.LEXICON),
        ("lexicon_entry", "Παῦλος (Strong's G3972) — G. Abbott-Smith. Glosses: Sergius Paulus", Material.NAME),
        ("lexicon_entry", "δύο (dýo, doo'-o) — Strong's Greek G1417. a primary numeral. two.", Material.NUMBER),
        ("word_study", "ἀγάπη — word study in Romans", Material.WORD_STUDY),
        ("cross_ref_thread_note", "Nave's Topical Bible — Hope", Material.CROSS_REFERENCE),
        ("meta_faq", "How do I search?", Material.FAQ),
    ],
)
def test_material(source_type: str, text: str, expected: Material) -> None:
    assert material(cand(0.3, source_type, text)) is expected


def test_word_questions_are_told_from_topical_ones() -> None:
    agape = cand(0.3, "lexicon_entry", "ἀγάπη (agápē, ag-ah'-pay) — Strong's Greek G26. love")
    assert word_question("agape", (), [agape])  # a headword's transliteration
    assert word_question("What does propitiation mean?", (), [])
    assert word_question("the Greek word for love", (), [])
    assert word_question("What is grace?", (), [])  # a short definitional question
    assert not word_question("hope", (), [agape])
    esau = cand(0.3, "lexicon_entry", "Ἠσαῦ (Ēsaû, ay-sow') — Strong's Greek G2269. of Hebrew origin. Esau")
    assert not word_question("Jacob and Esau", (), [esau])  # a name's transliteration is the English name
    assert not word_question("Jesus and Nicodemus", (), [])
    assert not word_question("How can I be sure that I am saved?", (), [])
    # a statement's meaning, and John's title of Christ, are no question about a word
    assert not word_question("What does it mean that the Word became flesh?", (), [])
    assert not word_question("What does it mean to be born again?", (), [])
    assert word_question("What does the word 'justify' mean in the New Testament?", (), [])
    assert word_question("What does Paul mean by the flesh?", (), [])
    # what a named passage means is a question about the passage; a word in it is still a word question
    john_3_16 = (PassageRef("john", 3, 16, 16),)
    assert not word_question("What does John 3:16 mean?", john_3_16, [])
    assert not word_question("meaning of John 3:16", john_3_16, [])
    assert word_question("What does the Greek word in John 3:16 mean?", john_3_16, [])
    assert word_question("What is meant by propitiation in Romans 3:25?", (PassageRef("romans", 3, 25, 25),), [])


def test_a_name_entry_counts_less_than_commentary_unless_the_question_is_about_a_word() -> None:
    name = cand(0.3, "lexicon_entry", "Παῦλος (Strong's G3972) — Glosses: Sergius Paulus")
    note = cand(0.3, "section_panel", "Paul, a servant of Jesus Christ")
    assert source_prior(name, about_a_word=False) < source_prior(note, about_a_word=False) == 1.0
    assert source_prior(name, about_a_word=False) < source_prior(name, about_a_word=True)
    ctx = RetrievalContext(query="Paul's calling", policy=APP, weights=BoostWeights())
    results, _ = rerank([name, note], ctx)
    assert results[0].candidate is note and results[1].breakdown.source_prior < 1.0


STUDY_OF_WE = ("Word study: ἡμεῖς (hēmeîs), Strong's Greek G2249, in Romans.\nMeaning (Strong): we (only used when "
               "emphatic)\nUsed in 40 verses of Romans; the WEB renders it “we”.\n5:9 “Much more then, being now "
               "justified by his blood, we will be saved from God’s wrath through him.”")
STUDY_OF_WRATH = ("Word study: ὀργή (orgḗ), Strong's Greek G3709, in Romans.\nMeaning (Strong): properly, desire, "
                  "i.e. (by analogy) violent passion (ire, or justifiable abhorrence)\nUsed in 10 verses of Romans; "
                  "the WEB renders it “wrath”.\n1:18 “For the wrath of God is revealed from heaven…”")


def test_a_word_question_counts_fully_only_the_word_studies_of_its_words() -> None:
    """A word study's head (word, meaning, renderings) decides what word it is about; the verses it quotes do not."""
    stems = word_stems("What is the wrath of God?")
    we = replace(cand(0.3, "word_study", STUDY_OF_WE), lexical=0.8)
    wrath = replace(cand(0.3, "word_study", STUDY_OF_WRATH), lexical=0.8)
    assert about_another_word(we, stems) and not about_another_word(wrath, stems)
    assert source_prior(wrath, about_a_word=True, stems=stems) == 1.0
    assert source_prior(we, about_a_word=True, stems=stems) == source_prior(we, about_a_word=False) < 1.0
    assert source_prior(we, about_a_word=True) == 1.0  # without the question's words nothing is decided
    assert about_another_word(we, word_stems("sins forgiven")) and not about_another_word(
        cand(0.3, "word_study", "Word study: ἄφεσις (áphesis)\nMeaning (Strong): freedom; (figuratively) pardon\n"
             "the WEB renders it “forgiveness”."), word_stems("sins forgiven"))  # forgiv(en) meets forgiv(eness)
    lexicon = replace(cand(0.3, "lexicon_entry", "ἡμεῖς (hēmeîs) — Strong's Greek G2249. we"), lexical=0.8)
    assert not about_another_word(lexicon, stems)  # only word studies quote verses
    ctx = RetrievalContext(query="What is the wrath of God?", policy=APP, weights=BoostWeights())
    results, _ = rerank([we, wrath], ctx)
    assert results[0].candidate is wrath and results[1].breakdown.source_prior < 1.0
    source = next(f for f in results[1].breakdown.factors if f.name == "source")
    why = factor_sentence(source, Subject(we, ctx, Names()), results[1].breakdown.final)
    assert "a word your question does not ask about" in why


RUTH = "רוּת (rûth, rooth) — Strong's Hebrew H7327. Probably for H7468. friend; Ruth a Moabitess. KJV renders it: Ruth."
GIVE = ("נתן (nâthan, naw-than') — Strong's Hebrew H5414. A primitive root. to give used with great latitude of "
        "application (put make etc.). KJV renders it: add apply appoint ascribe assign X avenge")


def test_a_hebrew_name_is_a_name_and_asking_about_it_is_no_word_question() -> None:
    """Hebrew has no capitals: a Strong's entry of a name is told by its English rendering. "Who was Ruth?" used to
    count as a word question (רוּת's transliteration is "ruth"), so Strong's "friend" led the whole Bible's list."""
    ruth, give = cand(0.3, "lexicon_entry", RUTH), cand(0.3, "lexicon_entry", GIVE)
    assert material(ruth) is Material.NAME and material(give) is Material.LEXICON
    assert not word_question("Who was Ruth?", (), [ruth])
    nathan = cand(0.3, "lexicon_entry", GIVE.replace("(nâthan,", "(nathan,"))
    assert word_question("nathan", (), [nathan])  # a common word's transliteration still is one
    shalom = cand(0.3, "lexicon_entry", "שׁלם שׁלום (shâlôm shâlôm, {shaw-lome'} shaw-lome') — Strong's Hebrew "
                  "H7965. From H7999. safe that is (figuratively) well happy friendly; also (abstractly) welfare")
    assert transliterations(shalom) == {"shalom"} and word_question("shalom", (), [shalom])  # two spellings given
    assert not word_question("What does Ecclesiastes say about the meaning of life?", (), [])
    assert word_question("What is the meaning of agape?", (), [])


def test_the_book_a_word_is_studied_in_is_no_word_of_its_head() -> None:
    study = cand(0.3, "word_study", "Word study: נתן (nâthan), Strong's Hebrew H5414, in Ecclesiastes.\n"
                 "Meaning (Strong): to give\nUsed in 20 verses of Ecclesiastes; the WEB renders it “given”.",
                 book_id="ecclesiastes")
    assert about_another_word(study, word_stems("What does Ecclesiastes say about wisdom?"))
    assert not about_another_word(study, word_stems("What is given in Ecclesiastes?"))


# -- the focus chapter ----------------------------------------------------------------------------------
def test_the_focus_chapter_is_where_the_commentary_evidence_is() -> None:
    from amicus_desktop.rerank.focus import focus_chapter

    john11 = [cand(0.50, book_id="john", chapter_num=11, chunk_id=f"j11-{i}") for i in range(3)]
    lucky = cand(0.30, book_id="romans", chapter_num=9, chunk_id="lucky")  # one good chunk alone
    word = cand(0.10, "word_study", book_id="romans", chapter_num=5, chunk_id="ws")  # not commentary
    cands = [*john11, lucky, word]
    bases = {c.chunk_id: 1 - (c.distance or 0) for c in cands}
    assert focus_chapter(cands, bases) == ChapterRef("john", 11)  # 0.5 + 0.5 beats 0.7 alone
    assert focus_chapter([word], bases) is None


def test_the_focus_chapter_gets_its_own_boost_only_when_no_chapter_is_open() -> None:
    policy = RankingPolicy(source_priors=True, focus=1.2)
    john11 = [cand(0.50, book_id="john", chapter_num=11, scholar_id="henry", chunk_id=f"j11-{i}") for i in range(2)]
    other = cand(0.45, book_id="romans", chapter_num=8, scholar_id="scofield", chunk_id="other")
    results, _ = rerank([*john11, other], RetrievalContext(query="the raising of Lazarus", policy=policy))
    by_id = {r.chunk_id: r.breakdown for r in results}
    assert by_id["j11-0"].chapter_focus and by_id["j11-0"].chapter_boost == 1.2
    assert not by_id["other"].chapter_focus and by_id["other"].chapter_boost == 1.0
    # a chapter open: its own boost, no focus
    results, _ = rerank([*john11, other], RetrievalContext(query="q", policy=policy, chapter=ChapterRef("romans", 8)))
    assert not any(r.breakdown.chapter_focus for r in results)
    # a named passage, or a question about a word: no focus
    results, _ = rerank([*john11, other], RetrievalContext(query="Romans 8", policy=policy),
                        references=(PassageRef("romans", 8, None, None, "Romans 8"),))
    assert not any(r.breakdown.chapter_focus for r in results)
    results, _ = rerank([*john11, other], RetrievalContext(query="What does resurrection mean?", policy=policy))
    assert not any(r.breakdown.chapter_focus for r in results)


def test_a_word_question_lifts_the_penalty_only_for_entries_about_its_word() -> None:
    on_word = Candidate(0, "g2435", "lexicon_entry", "g2435", "ἱλαστήριον (hilastḗrion, …) propitiation",
                        ChunkMetadata(), 0.6, lexical=0.7)
    elsewhere = Candidate(0, "g5348", "lexicon_entry", "g5348", "φθάνω (phthánō, …) to be beforehand",
                          ChunkMetadata(), 0.55, lexical=0.0)
    assert source_prior(on_word, about_a_word=True) == 1.0
    assert source_prior(elsewhere, about_a_word=True) == source_prior(elsewhere, about_a_word=False) < 1.0
    # semantic mode measures no keyword score: the entry is taken at its word
    unmeasured = Candidate(0, "x", "lexicon_entry", "x", "φθάνω", ChunkMetadata(), 0.55, lexical=None)
    assert source_prior(unmeasured, about_a_word=True) == 1.0


def test_a_word_study_of_a_name_counts_less_than_one_of_a_word() -> None:
    name = cand(0.3, "word_study", "Word study: Ἰακώβ (Iakṓb), Strong's Greek G2384, in John.")
    word = cand(0.3, "word_study", "Word study: ἀγάπη (agápē), Strong's Greek G26, in Romans.")
    assert material(name) is Material.NAME_STUDY and material(word) is Material.WORD_STUDY
    assert material(cand(0.3, "word_study", "Word study in Romans 9.")) is Material.WORD_STUDY  # no headword
    assert source_prior(name, about_a_word=False) < source_prior(word, about_a_word=False)


BEN_CHESED = ("בּן־חסד (ben-chesed, ben-kheh'-sed) — Strong's Hebrew H1136. From H1121 and H2617. son of kindness; Ben "
              "Chesed an Israelite. KJV renders it: the son of Hesed.")
CHESED = ("חסד (chêsêd, kheh'-sed) — Strong's Hebrew H2617. From H2616. kindness; by implication (towards God) piety; "
          "rarely (by opprobrium) reproof or (subjectively) beauty. KJV renders it: favour good deed (-liness -ness) "
          "kindly (loving-) kindness merciful (kindness) mercy pity reproach wicked thing.")


def test_a_name_told_by_its_gloss_is_a_name_and_the_word_leads() -> None:
    """Issue 33, on the whole Bible: "hesed" led with H1136 "son of kindness" (Ben Chesed, a man), whose rendering
    "the son of Hesed" starts in lower case and holds the question's word; חסד's own entry was second. The gloss
    names him ("; Ben Chesed an Israelite"), as it names places ("; Medeba a place in Palestine")."""
    ben, chesed = cand(0.3, "lexicon_entry", BEN_CHESED), cand(0.3, "lexicon_entry", CHESED)
    medeba = cand(0.3, "lexicon_entry", "מידבא (mêydebâ', may-deb-aw') — Strong's Hebrew H4311. From H4325 and H1679. "
                  "water of quiet; Medeba a place in Palestine.")
    assert material(ben) is Material.NAME and material(medeba) is Material.NAME
    assert material(chesed) is Material.LEXICON  # "(loving-) kindness merciful": no name
    assert word_question("hesed", (), [ben, chesed])
    assert source_prior(ben, about_a_word=True) < source_prior(chesed, about_a_word=True)


def test_a_note_expounding_one_verse_gives_way_when_no_chapter_applies() -> None:
    """Issue 33 item 7: on the whole Bible Spurgeon's and Henry's verse-by-verse notes held a third of a full
    question's top 10. With no chapter applying and no passage named, a note on one verse weighs ×0.8 — not one
    headed by its subject ("Comforter: …"), nor its continuation ("(2) …"), nor any under an open chapter."""
    spurgeon = cand(0.3, text="Sing unto the Lord, O ye saints of his.", scholar_id="charles-spurgeon",
                    book_id="psalms", chapter_num=30, verse_start=4, verse_end=4, panel_type="note")
    passage = cand(0.3, text="The saints sing.", scholar_id="matthew-henry", book_id="psalms", chapter_num=30,
                   verse_start=1, verse_end=5, panel_type="note")
    headed = cand(0.3, text="Comforter: G. Parakletos, one called alongside to help.", scholar_id="c-i-scofield",
                  book_id="john", chapter_num=14, verse_start=16, verse_end=16, panel_type="note")
    continued = replace(headed, text="(2) As a dispensation, grace begins with the death of Christ.")
    assert verse_exposition(spurgeon) and not verse_exposition(passage)
    assert not verse_exposition(headed) and not verse_exposition(continued)
    app = APP_PRESET.policy
    ctx = RetrievalContext(query="Why do God's people sing to him?", policy=app)
    results, _ = rerank([spurgeon, passage, headed], ctx)
    by_id = {r.chunk_id: r for r in results}
    assert by_id[spurgeon.chunk_id].breakdown.source_prior == pytest.approx(0.8)
    assert by_id[passage.chunk_id].breakdown.source_prior == by_id[headed.chunk_id].breakdown.source_prior == 1.0
    source = next(f for f in by_id[spurgeon.chunk_id].breakdown.factors if f.name == "source")
    why = factor_sentence(source, Subject(spurgeon, ctx, Names()), by_id[spurgeon.chunk_id].breakdown.final)
    assert "on one verse, and no chapter applies" in why
    opened = RetrievalContext(query="Why do God's people sing to him?", policy=app, chapter=ChapterRef("psalms", 30))
    results, _ = rerank([spurgeon, passage], opened)
    assert all(r.breakdown.source_prior == 1.0 for r in results)  # the open chapter applies: its verses count
