// openclaw-context-native as an OpenClaw plugin: persistent chat for ACP sessions, with no
// patch of OpenClaw's dist. See docs/plugin.md.
import path from 'node:path'
import { fileURLToPath } from 'node:url'

import { compactionSignalLine } from './backend-signals.mjs'
import { reportCompactionStatus, runningOpenclawDir } from './compaction-status.mjs'
import { PLUGIN_DESCRIPTION, PLUGIN_ID, PLUGIN_NAME, resolveConfig } from './config.mjs'
import { escapeControl, oneLine, openclawVersion, quoteArg } from './lib.mjs'
import { createRedactor, refusedPatternsLine } from './redact.mjs'
import { loadAcpRuntime, missingSeamLine, REPLY_DISPATCH_PRIORITY, replyDispatchOptions } from './seams.mjs'
import { logSearchToolServed, registerChatLogTools, toolsReleaseLine } from './tools/index.mjs'

/**
 * What `register` does, by `api.registrationMode`: in every mode it registers the tools and the
 * hooks (their names are what `plugins inspect` reads, and it loads plugins in 'discovery' on
 * 2026.4.27 and in 'tool-discovery' from 2026.8.2). The start-up (the addon, the ACP runtime,
 * the lines) happens at once in 'full' and with no mode (releases before `api.registrationMode`);
 * in every other mode (the plugin-tools MCP bridge's own process among them) only at a hook's
 * first call, which those registries never make: no addon, no timer, no line there.
 */
const startsAtRegister = (mode) => mode === undefined || mode === 'full'

/**
 * The turn logic, which loads the addon: imported here, not statically, so that a missing
 * platform binary leaves the plugin loaded with one line saying how to get it, and every turn
 * passed through. (OpenClaw 2026.4.5's `plugins install` runs npm only for a package with
 * `dependencies`, so it installs none of this package's optional platform packages.)
 */
async function loadPersistentChat(logger) {
  try {
    return (await import('./persistent-chat.mjs')).createPersistentChat
  } catch (error) {
    const folder = path.dirname(path.dirname(fileURLToPath(import.meta.url)))
    logger.warn(
      `${PLUGIN_ID}: the addon could not be loaded (${oneLine(error)}); install its ` +
        `platform package: cd ${folder} && npm install --omit=dev --ignore-scripts (then restart the gateway); every turn passes through untouched`,
    )
    return null
  }
}

/**
 * One warning line when state folders or files that exist already can be read by other
 * local users (the plugin creates its own 0700/0600 and never changes modes it finds).
 */
async function reportWideModes(config, logger) {
  try {
    // Loaded here, not statically: it loads the addon (see loadPersistentChat).
    const { findWideModes } = await import('./state-files.mjs')
    const wide = await findWideModes(config.stateDir, [
      ...config.sessionStateDirs.values(),
      ...(config.runtimeFiles ? [config.runtimeFiles.dir] : []),
    ])
    if (wide.length === 0) return
    const shown = wide.slice(0, 3).map((entry) => `${quoteArg(entry.path)} (${entry.mode})`)
    logger.warn(
      `${PLUGIN_ID}: chat history readable by other local users: ${shown.join(', ')}` +
        `${wide.length > 3 ? ` and ${wide.length - 3} more` : ''}; make it private with chmod -R go= ` +
        `${[config.stateDir, ...config.sessionStateDirs.values(), ...(config.runtimeFiles ? [config.runtimeFiles.dir] : [])].map((dir) => quoteArg(dir)).join(' ')}`,
    )
  } catch (error) {
    logger.debug?.(`${PLUGIN_ID}: state modes not checked (${error.message})`)
  }
}

/**
 * A hook timeout set by the operator for this plugin would let OpenClaw stop waiting for a
 * long turn and hand it to acpx as well: the backend would get it twice.
 */
function hookTimeoutWarning(openclawConfig) {
  const hooks = openclawConfig?.plugins?.entries?.[PLUGIN_ID]?.hooks
  const timeout = hooks?.timeouts?.reply_dispatch ?? hooks?.timeoutMs
  return timeout === undefined
    ? undefined
    : `${PLUGIN_ID}: a hook timeout of ${timeout} ms applies to its reply_dispatch handler: a turn that ` +
        `runs longer is dispatched a second time, by acpx; remove plugins.entries.${PLUGIN_ID}.hooks.timeoutMs ` +
        '(or hooks.timeouts.reply_dispatch)'
}

/**
 * The gateway's logger, each line with its control characters, line separators and
 * bidirectional controls escaped: a session key, a folder name or an error message from a
 * hostile source cannot add a line to the gateway's log or make one read as something else.
 * Every line the plugin logs goes through it.
 */
export function escapingLogger(logger) {
  const escaped =
    (level) =>
    (line, ...rest) =>
      logger[level]?.(escapeControl(line, { backslashes: false }), ...rest)
  return { info: escaped('info'), warn: escaped('warn'), error: escaped('error'), debug: escaped('debug') }
}

/** The running OpenClaw's version, or undefined where it cannot be read. */
function runningVersion(logger) {
  try {
    return openclawVersion(runningOpenclawDir())
  } catch (error) {
    logger.debug?.(`${PLUGIN_ID}: OpenClaw release not read for the chat-log tools (${oneLine(error)})`)
    return undefined
  }
}

/** One line at gateway start on a release whose tools bridge cannot tell the tools their chat. */
function reportToolsRelease(logger, version, openclawConfig) {
  const found = version === undefined ? undefined : toolsReleaseLine(version, openclawConfig)
  if (found) logger[found.level](found.line)
}

/**
 * One line at gateway start when this release, with this config, passes the plugin no signal of
 * a backend's compaction (`compactionRefresh` on): what OpenClaw and acpx would need, and what the
 * operator can set.
 */
function reportCompactionSignals(logger, version, openclawConfig, config) {
  if (!config.compactionRefresh) return
  const line = compactionSignalLine(PLUGIN_ID, version, openclawConfig)
  if (line) logger.info(line)
}

/** The masker: it loads the addon (a missing binary leaves it rejected: no turn is taken then). */
function startMasker(config, openclawConfig, logger) {
  const redactor = createRedactor({ patterns: config.redactPatterns, openclawConfig })
  redactor.then(
    ({ refused }) => {
      const line = refusedPatternsLine(PLUGIN_ID, refused)
      if (line) logger.warn(line)
    },
    () => {},
  )
  return redactor
}

/**
 * The turn logic, once the ACP runtime and the addon are loaded: `{ ready, chat }`. OpenClaw
 * ignores a promise from register(): the hooks pass every turn through until then (before the
 * first turn, in practice: the first reply_dispatch waits for `ready`), and for good on a release
 * without the runtime or a machine without the addon's binary.
 */
function startChat({ config, logger, redactor, onFirstTurn, logSearchTool }) {
  const started = { chat: null }
  started.ready = loadAcpRuntime()
    .then(async ({ acp, missing }) => {
      if (missing) {
        logger.warn(missingSeamLine(missing))
        return null
      }
      const createPersistentChat = await loadPersistentChat(logger)
      if (createPersistentChat)
        started.chat = createPersistentChat({ config, acp, logger, redactor, onFirstTurn, logSearchTool })
      return started.chat
    })
    .catch((error) => {
      logger.warn(`${PLUGIN_ID}: not started (${oneLine(error)}); every turn passes through untouched`)
      return null
    })
  return started
}

/**
 * The plugin's start-up: the masker (which loads the addon), the ACP runtime and the turn logic,
 * and its lines. Returns what the hooks call.
 */
function startPlugin(api, toolsRefused) {
  const logger = escapingLogger(api.logger)
  let version = null
  const readVersion = () => {
    version ??= { value: runningVersion(logger) }
    return version.value
  }
  // A reload prompt says the log can be searched only where a backend can call the tool.
  const logSearchTool = logSearchToolServed({
    registered: typeof api.registerTool === 'function' && !toolsRefused,
    readVersion,
    openclawConfig: api.config,
  })
  if (toolsRefused) {
    logger.warn(
      `${PLUGIN_ID}: chat_log_search and chat_log_get not registered (${oneLine(toolsRefused)}); ` +
        'the chats are kept as before',
    )
  }
  const config = resolveConfig(api.pluginConfig, api.runtime.state.resolveStateDir(process.env))
  const redactor = startMasker(config, api.config, logger)
  // Once per process: at gateway start, or at the first turn where nothing ran it.
  let modesChecked = false
  const checkModes = () => {
    if (modesChecked) return
    modesChecked = true
    reportWideModes(config, logger)
  }
  // At the first turn the plugin takes (not at start-up, which says only what needs doing).
  const onFirstTurn = () => {
    checkModes()
    redactor.then(
      () =>
        logger.info(
          `${PLUGIN_ID}: stored copies masked as [redacted:TYPE] (built-in patterns, logging.redactPatterns ` +
            'and redactPatterns, <private> spans), the live message sent as written',
        ),
      () => {},
    )
  }
  const started = startChat({ config, logger, redactor, onFirstTurn, logSearchTool })
  const warning = hookTimeoutWarning(api.config)
  if (warning) logger.warn(warning)
  return {
    ready: started.ready,
    chat: () => started.chat,
    // Not awaited: the check runs in a worker and start-up does not wait for its answer.
    onGatewayStart: () => {
      reportCompactionStatus(logger, PLUGIN_ID)
      reportToolsRelease(logger, readVersion(), api.config)
      reportCompactionSignals(logger, readVersion(), api.config, config)
      checkModes()
    },
  }
}

export default {
  id: PLUGIN_ID,
  name: PLUGIN_NAME,
  description: PLUGIN_DESCRIPTION,
  register(api) {
    const toolsRefused = registerChatLogTools(api)
    let started = null
    const plugin = () => {
      started ??= startPlugin(api, toolsRefused)
      return started
    }
    if (startsAtRegister(api.registrationMode)) plugin()
    api.on(
      'reply_dispatch',
      async (event, ctx) => (await plugin().ready)?.onReplyDispatch(event, ctx),
      replyDispatchOptions(),
    )
    api.on('before_message_write', (event, ctx) => plugin().chat()?.onBeforeMessageWrite(event, ctx), {
      priority: REPLY_DISPATCH_PRIORITY,
    })
    api.on('reply_payload_sending', (event, ctx) => plugin().chat()?.onReplyPayloadSending(event, ctx))
    // Awaits the start-up as reply_dispatch does: a reset right after a gateway start is still
    // noted before the next turn reads it.
    api.on('before_reset', async (event, ctx) => (await plugin().ready)?.onBeforeReset(event, ctx))
    api.on('gateway_start', () => plugin().onGatewayStart())
  },
}
