'use strict'
// Which signals of a backend's compaction reach the plugin on each OpenClaw release, through
// which seam, and the one line said where none of a current backend does: one table for the
// plugin (plugin/backend-signals.mjs reads the payloads) and `doctor`. The end-to-end spec
// __test__/e2e/plugin.continuity.test.js checks the table on each release of the plugin matrix,
// and a unit spec checks docs/plugin.md's copy of it.
const { compareVersions, parseVersion } = require('./openclaw-release')

/** The tool call title claude-agent-acp and codex-acp give a compaction. */
const COMPACT_TOOL_TITLE = 'Compact conversation'
/** The line older codex writes in its reply when it compacted without notices. */
const CODEX_COMPACTED_TEXT = "*Context compacted to fit the model's context window.*"

/** The signals of a compaction, by the name the refresh mark records. */
const SIGNALS = {
  compaction_update: 'ACP compaction_update',
  tool_call: 'the "Compact conversation" tool call',
  agent_text: "codex's “Context compacted to fit the model's context window.” text",
  usage_drop: 'a drop of usage_update.used by more than half',
}

/** Where a signal reaches the plugin (SIGNAL_SEAMS' values). */
const SEAMS = {
  reply: 'the reply text (dispatcher block/final payloads)',
  toolPayload: 'a tool payload (dispatcher sendToolResult), when the operator shows tool summaries',
  statusPayload: 'a status payload (dispatcher sendToolResult), when the operator shows usage updates',
}

const EVERY_RELEASE = {
  // acpx declares no `session.compaction` client capability, so no agent sends it, and
  // OpenClaw has no handler for it: its event mapper drops an unknown session update.
  compaction_update: null,
  tool_call: 'toolPayload',
  agent_text: 'reply',
  usage_drop: 'statusPayload',
}

/**
 * Per release of the plugin matrix (scripts/openclaw-releases.json's `plugin` list): the seam
 * each signal reaches the plugin through, or null. Tested on each release by the e2e spec, and
 * docs/plugin.md's table is checked against it.
 */
const SIGNAL_SEAMS = {
  '2026.4.5': EVERY_RELEASE,
  '2026.4.27': EVERY_RELEASE,
  '2026.5.2': EVERY_RELEASE,
  '2026.6.35': EVERY_RELEASE,
  '2026.7.2-beta.4': EVERY_RELEASE,
  '2026.8.2': EVERY_RELEASE,
  '2026.9.6': EVERY_RELEASE,
}

/** The newest release of SIGNAL_SEAMS at or before `version`, or null before the first. */
function seamsFor(version) {
  const parsed = parseVersion(version)
  if (!parsed) return null
  const known = Object.keys(SIGNAL_SEAMS).filter((release) => compareVersions(parsed, parseVersion(release)) >= 0)
  return known.length > 0 ? SIGNAL_SEAMS[known[known.length - 1]] : null
}

/** Which seams the operator's config opens: tool and status payloads need the stream settings. */
function shownByConfig(openclawConfig) {
  const visibility = openclawConfig?.acp?.stream?.tagVisibility ?? {}
  const verbose = openclawConfig?.agents?.defaults?.verboseDefault
  const on = verbose !== undefined && verbose !== 'off' && verbose !== false
  return {
    toolPayload: on && (visibility.tool_call === true || visibility.tool_call_update === true),
    statusPayload: on && visibility.usage_update === true,
    reply: true,
  }
}

/**
 * The one line said at gateway start (and by `doctor`) when this release, with this config,
 * passes the plugin no compaction signal of a current backend (the tool call or the usage drop);
 * undefined when it passes one, or for a release before the table.
 */
function compactionSignalLine(pluginId, version, openclawConfig) {
  const seams = version === undefined ? null : seamsFor(version)
  if (!seams) return undefined
  const shown = shownByConfig(openclawConfig)
  const reaching = Object.entries(seams)
    .filter(([, seam]) => seam && shown[seam])
    .map(([signal]) => signal)
  if (reaching.includes('tool_call') || reaching.includes('usage_drop')) return undefined
  return (
    `${pluginId}: OpenClaw ${version} passes plugins no compaction signal of the backend but older codex's ` +
    'reply line (acpx declares no session.compaction capability and OpenClaw passes no compaction_update ' +
    'to plugins), so a compacted backend gets no refresh; to have one, show tool summaries: set ' +
    'acp.stream.tagVisibility.tool_call_update (and usage_update) to true with agents.defaults.verboseDefault "on" ' +
    '(docs/plugin.md, "When the backend forgets")'
  )
}

module.exports = {
  CODEX_COMPACTED_TEXT,
  COMPACT_TOOL_TITLE,
  SEAMS,
  SIGNALS,
  SIGNAL_SEAMS,
  compactionSignalLine,
  seamsFor,
  shownByConfig,
}
