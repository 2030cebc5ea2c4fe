'use strict'
// The OpenClaw release boundaries this package knows, by version: which releases carry
// capCompactionSummaryPreservingSuffix (the dist's text decides whenever the function is
// there; the version only tells the two kinds of release without it apart: not written yet,
// or gone after the upstream fix; docs/patch.md lists the releases tested), the first
// release the plugin runs on, and the first whose plugin-tools bridge tells a tool its chat.

/** The first release that defines the function. */
const FIRST_WITH_FUNCTION = '2026.3.22'
/** The one release whose function wraps budgetCompactionSummary (the upstream fix). */
const UPSTREAM_WRAPPER = '2026.8.1-beta.2'
/** The first release without the function: budgetCompactionSummary replaced it. */
const FIRST_WITHOUT_FUNCTION = '2026.8.1-beta.3'
/** The first release with the `reply_dispatch` hook and the ACP runtime functions the plugin
 * calls (its CHANGELOG, #61319); package.json's peerDependencies range starts here. */
const PLUGIN_FIRST_RELEASE = '2026.4.5'
/** The first release whose plugin-tools MCP bridge passes the calling session's key to a tool's
 * factory (`OPENCLAW_TOOLS_MCP_AGENT_SESSION_KEY`): before it, the chat-log tools cannot tell
 * which chat calls them (shared/notes: tested on 2026.7.2-beta.4 and 2026.9.6). */
const TOOLS_SESSION_KEY_RELEASE = '2026.7.2-beta.4'

// SemVer 2.0's grammar (§ 2, 9, 10), without a leading `v`. Written here rather than
// taken from the `semver` package: precedence is the one rule needed, and the command and
// the plugin's start-up check then load no dependency.
const NUMERIC = '0|[1-9]\\d*'
const IDENT = `(?:${NUMERIC}|\\d*[A-Za-z-][0-9A-Za-z-]*)`
const SEMVER = new RegExp(
  `^(${NUMERIC})\\.(${NUMERIC})\\.(${NUMERIC})(?:-(${IDENT}(?:\\.${IDENT})*))?(?:\\+[0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*)?$`,
)

/** `{ core: [major, minor, patch], pre: [...identifiers] }`, or null for a string that is not SemVer. */
function parseVersion(text) {
  const match = typeof text === 'string' ? SEMVER.exec(text) : null
  if (!match) return null
  const pre = match[4] === undefined ? [] : match[4].split('.').map((id) => (/^\d+$/.test(id) ? Number(id) : id))
  return { core: [Number(match[1]), Number(match[2]), Number(match[3])], pre }
}

function compareIdentifiers(a, b) {
  if (typeof a === 'number' && typeof b === 'number') return Math.sign(a - b)
  if (typeof a === 'number') return -1 // numeric identifiers sort before alphanumeric ones
  if (typeof b === 'number') return 1
  return a < b ? -1 : a > b ? 1 : 0
}

/** SemVer precedence of two parsed versions: -1, 0 or 1 (build metadata is ignored). */
function compareVersions(a, b) {
  for (let i = 0; i < 3; i++) if (a.core[i] !== b.core[i]) return Math.sign(a.core[i] - b.core[i])
  if (a.pre.length === 0 || b.pre.length === 0) return Math.sign(b.pre.length - a.pre.length) // a release sorts after its pre-releases
  for (let i = 0; i < Math.min(a.pre.length, b.pre.length); i++) {
    const order = compareIdentifiers(a.pre[i], b.pre[i])
    if (order !== 0) return order
  }
  return Math.sign(a.pre.length - b.pre.length)
}

/**
 * What the version alone says about a dist without the function: 'not-yet' (before
 * 2026.3.22), 'gone' (2026.8.1-beta.3 on), 'expected' (a release that should have it),
 * or 'unknown' (not a SemVer version).
 */
function releaseWithoutFunction(version) {
  const parsed = parseVersion(version)
  if (!parsed) return 'unknown'
  if (compareVersions(parsed, parseVersion(FIRST_WITH_FUNCTION)) < 0) return 'not-yet'
  if (compareVersions(parsed, parseVersion(FIRST_WITHOUT_FUNCTION)) >= 0) return 'gone'
  return 'expected'
}

/**
 * Whether `version`'s plugin-tools bridge passes the calling session's key to a tool (from
 * TOOLS_SESSION_KEY_RELEASE on): true or false, or null for a version that is not SemVer.
 */
function bridgePassesSessionKey(version) {
  const parsed = parseVersion(version)
  return parsed ? compareVersions(parsed, parseVersion(TOOLS_SESSION_KEY_RELEASE)) >= 0 : null
}

module.exports = {
  FIRST_WITH_FUNCTION,
  UPSTREAM_WRAPPER,
  FIRST_WITHOUT_FUNCTION,
  PLUGIN_FIRST_RELEASE,
  TOOLS_SESSION_KEY_RELEASE,
  parseVersion,
  compareVersions,
  releaseWithoutFunction,
  bridgePassesSessionKey,
}
