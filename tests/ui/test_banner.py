"""The banner over the window (``ui/banner.py``): a kind, a title and body, an advice line, a countdown, and
buttons kept (with their focus) when the same ones are shown again, their actions rebound."""

from __future__ import annotations

from typing import Any

from amicus_desktop.ui.banner import Banner


def test_a_banner_says_its_kind_and_keeps_the_same_buttons_with_new_actions(qapp: Any) -> None:
    banner = Banner()
    pressed: list[str] = []
    banner.show_message("error", "The library cannot be read", "It is damaged.",
                        [("&Retry", lambda: pressed.append("first"))], detail="Build it again.", countdown="5 s")
    assert not banner.isHidden() and banner.kind == "error"
    assert banner.title.text() == "The library cannot be read" and banner.body.text() == "It is damaged."
    assert banner.accessibleDescription() == "error: The library cannot be read It is damaged. Build it again."
    assert not banner.detail.isHidden() and banner.countdown.text() == "5 s"
    retry = banner.button("&Retry")
    assert retry is not None and retry.accessibleName() == "Retry"
    retry.click()
    banner.show_message("error", "Still unreadable", "", [("&Retry", lambda: pressed.append("second"))])
    assert banner.button("&Retry") is retry and banner.body.isHidden() and banner.detail.isHidden()
    retry.click()
    assert pressed == ["first", "second"]  # the same button, its action rebound
    banner.show_message("info", "Saved", "to notes.json", compact=True)
    assert banner.button("&Retry") is None and "<b>Saved</b>" in banner.title.text()
    banner.clear()
    assert banner.isHidden()
    banner.deleteLater()
