"""SQLite FTS5 over the same perpetual logs, as the search benchmarks' peer.

Reads one JSON request on stdin: {"tokenize": "unicode61" | "porter unicode61", "logs": [{"path",
"queries": [...]}], "limit": N, "db": optional folder}. Indexes each log's entries (one row per valid
line: role, text, line number), runs each query as the OR of its words (FTS5's own tokenizer
splits them; each quoted, so no word is read as FTS5 syntax), ranked by FTS5's bm25(), and prints
one JSON object: per log, the build time and per query the hit line numbers and the time taken.
"""

import json
import re
import sqlite3
import sys
import time


def words(query):
    return re.findall(r"\w+", query, flags=re.UNICODE)


def main():
    request = json.load(sys.stdin)
    tokenize = request.get("tokenize", "unicode61")
    limit = int(request.get("limit", 25))
    out = []
    for log in request["logs"]:
        db_path = log.get("db", ":memory:")
        db = sqlite3.connect(db_path)
        db.execute("DROP TABLE IF EXISTS log")
        started = time.perf_counter()
        db.execute(f"CREATE VIRTUAL TABLE log USING fts5(text, line UNINDEXED, tokenize='{tokenize}')")
        rows = []
        with open(log["path"], "rb") as handle:
            for number, raw in enumerate(handle, start=1):
                try:
                    entry = json.loads(raw)
                except ValueError:
                    continue
                if not isinstance(entry, dict):
                    continue
                text = entry.get("text", entry.get("content"))
                if entry.get("role") not in ("user", "assistant", "system", "tool") or not isinstance(text, str):
                    continue
                rows.append((text, number))
                if len(rows) >= 10000:
                    db.executemany("INSERT INTO log(text, line) VALUES (?, ?)", rows)
                    rows = []
        db.executemany("INSERT INTO log(text, line) VALUES (?, ?)", rows)
        db.commit()
        build = time.perf_counter() - started
        results = []
        for query in log["queries"]:
            terms = words(query)
            started = time.perf_counter()
            if not terms:
                lines = []
            else:
                match = " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)
                lines = [
                    row[0]
                    for row in db.execute(
                        "SELECT line FROM log WHERE log MATCH ? ORDER BY bm25(log) LIMIT ?", (match, limit)
                    )
                ]
            results.append({"lines": lines, "ms": (time.perf_counter() - started) * 1000})
        db.close()
        out.append({"buildMs": build * 1000, "results": results})
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
