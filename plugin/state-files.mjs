// Where a persistent chat keeps its files, and how they are written.
//
// One folder per session key, with the file names the operator's runtime used:
//   perpetual-log.jsonl           the log: one JSON line per message, appended
//   continuity-summary.txt        state and memory, rebuilt for each new backend session
//   last-injected-preprompt.txt   the last prompt sent, as sent (for debugging)
//   memory-state.json             the Python memory script's state (read, never written here)
import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";

export const FILE_NAMES = {
  log: "perpetual-log.jsonl",
  summary: "continuity-summary.txt",
  lastPrompt: "last-injected-preprompt.txt",
  memoryState: "memory-state.json",
};

/**
 * A folder name for a session key that is safe on every file system (Windows forbids `:`,
 * which every session key holds) and distinct per key: a readable slug plus a hash of the key.
 */
export function sessionFolderName(sessionKey) {
  const slug = sessionKey
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60);
  const hash = crypto.createHash("sha256").update(sessionKey).digest("hex").slice(0, 10);
  return slug ? `${slug}-${hash}` : hash;
}

/** The four files of one session key. */
export function sessionFiles(config, sessionKey) {
  const dir = config.sessionStateDirs.get(sessionKey) ?? path.join(config.stateDir, sessionFolderName(sessionKey));
  return {
    dir,
    log: path.join(dir, FILE_NAMES.log),
    summary: path.join(dir, FILE_NAMES.summary),
    lastPrompt: path.join(dir, FILE_NAMES.lastPrompt),
    memoryState: path.join(dir, FILE_NAMES.memoryState),
  };
}

/**
 * Appends each entry as one line, with one `appendFile` (one O_APPEND write) per line: a
 * reader never sees half a line from this writer, and lines from concurrent writers never
 * interleave inside a line.
 */
export async function appendLogEntries(logPath, entries) {
  for (const entry of entries) {
    await fs.appendFile(logPath, `${JSON.stringify(entry)}\n`, "utf8");
  }
}

/** Replaces a file whole (temp file + rename): a reader sees the old or the new text. */
export async function writeFileAtomic(file, text) {
  const temp = `${file}.${process.pid}.${crypto.randomBytes(4).toString("hex")}.tmp`;
  try {
    await fs.writeFile(temp, text, "utf8");
    await fs.rename(temp, file);
  } catch (error) {
    await fs.rm(temp, { force: true }).catch(() => {});
    throw error;
  }
}
