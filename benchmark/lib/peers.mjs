// Loads the real OpenClaw functions the bench compares against, into this process:
//   2026.7.2-beta.4: testing.capCompactionSummaryPreservingSuffix(body, suffix, maxChars) -> string
//                    (the buggy original; dist needs Node >= 22.22.3)
//   2026.9.6:        testing.budgetCompactionSummary(body, suffix, maxChars, qualityRetention?)
//                    -> { summary, structuralSummary, bodyBudget, bodyTrimmed, suffixTrimmed,
//                         qualityRetentionInfeasible }  (the upstream fix; Node >= 24.16)
//
// Neither function is exported. Both chunks (content-hashed names, found by their text) publish
// a `testing` object on globalThis[Symbol.for("openclaw.compactionSafeguardTestApi")] when
// process.env.VITEST is set while they are imported (2026.9.6: dist/builtin-openclaw-*.mjs).
// Both use the same symbol: the loader (dev/openclaw-oracle.mjs, as for the e2e specs)
// takes each object and clears the global before the next import.
// Order matters: importing 2026.9.6 after 2026.7.2 fails (its task-registry-state chunk finds a
// process-wide singleton that 2026.7 created with another shape), 2026.9.6 first works.
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { loadTestingApi } from '../../dev/openclaw-oracle.mjs'

const { PEER_NODE, nodeAtLeast } = createRequire(import.meta.url)('./setup.js')

/**
 * One installed OpenClaw's `testing` export, loaded from the dist chunk that defines `fnName`;
 * undefined (and the reason pushed on `skipped`) when it is missing, needs a newer Node, or fails.
 */
async function loadPeer({ label, dir, setupScript, node, fnName }, skipped) {
  if (!dir || !fs.existsSync(path.join(dir, 'package.json'))) {
    skipped.push(`${label}: not installed (run \`bash ${setupScript}\`)`)
    return undefined
  }
  if (!nodeAtLeast(node)) {
    skipped.push(`${label}: needs Node >= ${node.replace(/\.0$/, '')} (this is ${process.version})`)
    return undefined
  }
  try {
    const { testing, chunkPath: chunk } = await loadTestingApi(dir, fnName)
    const { version } = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'))
    return { version, testing, chunk }
  } catch (error) {
    skipped.push(`${label}: failed to load (${error.message})`)
    return undefined
  }
}

/**
 * @returns {Promise<{ v7?: {version, capCompactionSummaryPreservingSuffix, capCompactionSummary, chunk},
 *                     v9?: {version, budgetCompactionSummary, chunk}, skipped: string[] }>}
 */
export async function loadPeers({ openclaw7Dir, openclaw9Dir }) {
  const out = { skipped: [] }
  // 2026.9.6 first (see the order note at the top).
  const v9 = await loadPeer(
    {
      label: 'OpenClaw 2026.9.6',
      dir: openclaw9Dir,
      setupScript: 'scripts/setup-bench.sh',
      node: PEER_NODE.openclaw9,
      fnName: 'budgetCompactionSummary',
    },
    out.skipped,
  )
  if (v9) out.v9 = { version: v9.version, budgetCompactionSummary: v9.testing.budgetCompactionSummary, chunk: v9.chunk }
  const v7 = await loadPeer(
    {
      label: 'OpenClaw 2026.7.2',
      dir: openclaw7Dir,
      setupScript: 'scripts/setup-oracle.sh',
      node: PEER_NODE.openclaw7,
      fnName: 'capCompactionSummaryPreservingSuffix',
    },
    out.skipped,
  )
  if (v7) {
    out.v7 = {
      version: v7.version,
      capCompactionSummaryPreservingSuffix: v7.testing.capCompactionSummaryPreservingSuffix,
      capCompactionSummary: v7.testing.capCompactionSummary,
      chunk: v7.chunk,
    }
  }
  return out
}

/**
 * The suffix as 2026.9.6's assembleSuffix hands it to budgetCompactionSummary: the text plus the
 * item starts of its `## Recent turns preserved verbatim` section (so that its tail cut lands on an
 * item start there, as in the real handler). Built once per input, outside the timed calls.
 */
export function structuredSuffix(suffix) {
  const heading = '## Recent turns preserved verbatim\n'
  const at = suffix.indexOf(heading)
  if (at < 0) return { text: suffix, contextRanges: [] }
  const start = at - 2 >= 0 && suffix.startsWith('\n\n', at - 2) ? at - 2 : at
  let end = suffix.indexOf('\n\n## Tool Failures', at)
  if (end < 0) end = suffix.indexOf('\n\n<read-files>', at)
  if (end < 0) end = suffix.indexOf('\n\n<workspace-critical-rules>', at)
  if (end < 0) end = suffix.length
  const segmentStarts = []
  const re = /\n- (?:User|Assistant|Tool result \([^)]*\)): /g
  re.lastIndex = at + heading.length - 1
  for (let m = re.exec(suffix); m && m.index < end; m = re.exec(suffix)) segmentStarts.push(m.index + 1)
  return { text: suffix, contextRanges: [{ start, end, segmentStarts }] }
}
