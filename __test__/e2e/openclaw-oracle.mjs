// Loads the real OpenClaw 2026.7 compaction-safeguard code as a test oracle.
//
// The functions under test are not exported by the dist: the chunk that defines them
// publishes a `testing` object on a global symbol when `process.env.VITEST` is set while
// it is imported. The chunk's file name is a content hash, so it is found by its text.
//
// Needs Node >= 22.22.3 (the dist uses `fs.globSync`); scripts/setup-oracle.sh installs
// both Node 22 and the package. Importing the chunk costs 2-4 s and ~330 MB: do it once.
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

const CHUNK_MARKER = "\nfunction capCompactionSummaryPreservingSuffix(";
const LOGGER_MARKER = "\nfunction setLoggerOverride(";
const TESTING_SYMBOL = Symbol.for("openclaw.compactionSafeguardTestApi");
const { findChunk } = createRequire(import.meta.url)("../../cli/lib/dist-scan.js");

function withEnv(overrides, fn) {
  const saved = new Map();
  for (const [key, value] of Object.entries(overrides)) {
    saved.set(key, Object.prototype.hasOwnProperty.call(process.env, key) ? process.env[key] : undefined);
    process.env[key] = value;
  }
  const restore = () => {
    for (const [key, value] of saved) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  };
  let result;
  try {
    result = fn();
  } catch (err) {
    restore();
    throw err;
  }
  return Promise.resolve(result).finally(restore);
}

// Keeps the real code away from the user's OpenClaw state and quiet: its config and state
// go to a scratch folder, and the logger writes nothing (to the console or a file). The
// dist still creates its temp folder (/tmp/openclaw) when the logger module loads: that
// path is hard-coded, not configurable.
function isolateOpenClaw() {
  if (!process.env.OPENCLAW_STATE_DIR) {
    const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "openclaw-oracle-state-"));
    process.env.OPENCLAW_STATE_DIR = stateDir;
    process.once("exit", () => fs.rmSync(stateDir, { recursive: true, force: true }));
  }
  if (!process.env.OPENCLAW_LOG_LEVEL) process.env.OPENCLAW_LOG_LEVEL = "silent";
}

async function silenceLogger(openclawDir, stateDir) {
  const loggerChunk = findChunk(openclawDir, LOGGER_MARKER);
  if (!loggerChunk) return;
  const mod = await import(pathToFileURL(loggerChunk).href);
  const setLoggerOverride = Object.values(mod).find(
    (value) => typeof value === "function" && value.name === "setLoggerOverride",
  );
  setLoggerOverride?.({
    level: "silent",
    consoleLevel: "silent",
    file: path.join(stateDir, "logs", "openclaw.log"),
  });
}

/**
 * Imports the real compaction-safeguard chunk of an installed OpenClaw 2026.7.x.
 *
 * @param {string} openclawDir the package folder (the one holding `dist/`)
 * @returns {Promise<{ testing: Record<string, any>, chunkPath: string, module: Record<string, any> }>}
 *   `testing` has capCompactionSummary, capCompactionSummaryPreservingSuffix,
 *   auditSummaryQuality, extractOpaqueIdentifiers, formatPreservedTurnsSection, …;
 *   `module` is the chunk's namespace (its export `S` is buildEmbeddedExtensionFactories).
 */
export async function loadOpenClawTesting(openclawDir) {
  const chunkPath = findChunk(openclawDir, CHUNK_MARKER);
  if (!chunkPath) {
    throw new Error(
      `no dist/*.js under ${openclawDir} defines capCompactionSummaryPreservingSuffix ` +
        "(not an OpenClaw 2026.7.x install?)",
    );
  }
  isolateOpenClaw();
  await silenceLogger(openclawDir, process.env.OPENCLAW_STATE_DIR);

  // VITEST only for this import: many other chunks read it and change behaviour.
  const module = await withEnv({ VITEST: "1" }, () => import(pathToFileURL(chunkPath).href));
  const testing = globalThis[TESTING_SYMBOL];
  if (!testing || typeof testing.capCompactionSummaryPreservingSuffix !== "function") {
    throw new Error(
      `${chunkPath} did not publish its testing API on Symbol.for("openclaw.compactionSafeguardTestApi") ` +
        "(was it imported earlier without VITEST set?)",
    );
  }
  return { testing, chunkPath, module };
}
