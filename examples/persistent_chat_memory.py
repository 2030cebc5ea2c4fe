#!/usr/bin/env python3
"""A persistent-chat memory script that renders continuity-summary.txt with
the same renderer the gateway uses (openclaw-context-native), instead of
keeping a second copy of the format in Python.

    persistent_chat_memory.py --state memory-state.json --log perpetual-log.jsonl \
        --out continuity-summary.txt [--current-session ses_…] [--now 2026-05-15T10:00:00Z]

The state file is this script's own JSON ({decisions, guardrails, pendingThreads,
timers, modelNotes, notes}); the summary holds state and memory only, never a
transcript (the gateway injects the recent log entries itself).

The command is found as $OPENCLAW_CONTEXT_BIN, else `openclaw-context` on PATH,
else `npx --no-install openclaw-context`.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile


def context_command():
    explicit = os.environ.get("OPENCLAW_CONTEXT_BIN")
    if explicit:
        return [explicit]
    on_path = shutil.which("openclaw-context")
    if on_path:
        return [on_path]
    return ["npx", "--no-install", "openclaw-context"]


def render_summary(state_path, log_path, current_session=None, now=None, max_chars=None):
    """The continuity summary, rendered by `openclaw-context summary`."""
    command = context_command() + ["summary", "--state", state_path, "--log", log_path]
    if current_session:
        command += ["--current-session", current_session]
    if now:
        command += ["--now", now]
    if max_chars is not None:
        command += ["--max-chars", str(max_chars)]
    result = subprocess.run(command, capture_output=True, text=True, encoding="utf-8")
    if result.returncode != 0:
        raise RuntimeError(f"openclaw-context summary failed ({result.returncode}): {result.stderr.strip()}")
    return result.stdout


def remember_decision(state_path, decision):
    """Adds a decision to the state file (atomically), as the memory script does."""
    state = {}
    if os.path.exists(state_path):
        with open(state_path, encoding="utf-8") as handle:
            state = json.load(handle) or {}
    state.setdefault("decisions", []).append(decision)
    write_atomically(state_path, json.dumps(state, ensure_ascii=False, indent=2) + "\n")


def write_atomically(path, text):
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=".tmp-", suffix=".txt")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--state", required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--out", required=True, help="where to write continuity-summary.txt")
    parser.add_argument("--current-session")
    parser.add_argument("--now")
    parser.add_argument("--max-chars", type=int)
    parser.add_argument("--remember", action="append", default=[], help="add a decision to the state first")
    args = parser.parse_args(argv)
    for decision in args.remember:
        remember_decision(args.state, decision)
    summary = render_summary(args.state, args.log, args.current_session, args.now, args.max_chars)
    write_atomically(args.out, summary)
    print(f"wrote {args.out} ({len(summary)} chars)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
