// The package's CommonJS modules under lib/ that the plugin shares with the CLI, required in
// one place: the first line of an error, the release boundaries, quoting what is printed.
import { createRequire } from 'node:module'

const requireLib = createRequire(import.meta.url)

export const { oneLine } = requireLib('../lib/errors.js')
export const {
  PLUGIN_FIRST_RELEASE,
  TOOLS_SESSION_KEY_RELEASE,
  bridgePassesSessionKey,
  compareVersions,
  parseVersion,
} = requireLib('../lib/openclaw-release.js')
export const { openclawVersion } = requireLib('../lib/find-openclaw.js')
export const { quoteArg, escapeControl } = requireLib('../lib/shell-quote.js')
export const { toolsVisibility } = requireLib('../lib/tools-policy.js')
export const { CODEX_COMPACTED_TEXT, COMPACT_TOOL_TITLE, SEAMS, SIGNALS, SIGNAL_SEAMS, compactionSignalLine } =
  requireLib('../lib/compaction-signals.js')
