'use strict'
// `openclaw-context doctor [OPENCLAW_DIR] [--state-dir DIR] [--json] [--quiet]`: where an operator stands, read-only,
// on any release: the OpenClaw release and what of this package it supports, the compaction cap,
// the plugin (installed, enabled, its settings), and each chat folder (modes, log health, the
// last backend session), with the command that fixes each problem. Exit 0 when nothing needs
// doing, 1 otherwise. Nothing is written, and no addon but this package's is loaded in this
// process's own module cache: a worker thread loads the installed plugin's, from its folder,
// as the gateway will. The rules come from where they live: the release boundaries from
// openclaw-release.js, the cap's state from compaction-status.js, the plugin's settings from
// the manifest (plugin-settings.js), each chat folder's files from the addon's
// ChatStore.inspectFolder.
const fs = require('node:fs')
const path = require('node:path')

const { parseCommandArgs } = require('../../lib/args')
const { optionsOf } = require('.')
const { compactionStatus } = require('../../lib/compaction-status')
const { findOpenClaw, openclawVersion } = require('../../lib/find-openclaw')
const {
  PLUGIN_FIRST_RELEASE,
  TOOLS_SESSION_KEY_RELEASE,
  bridgePassesSessionKey,
  compareVersions,
  parseVersion,
} = require('../../lib/openclaw-release')
const { UsageError, oneLine } = require('../../lib/errors')
const { openclawStateDir, readOpenclawConfig } = require('../../lib/openclaw-config')
const { chatFolders, settingProblems } = require('../../lib/plugin-settings')
const { escapeControl, quoteArg } = require('../../lib/shell-quote')
const { BRIDGE_SETTING, TOOL_NAMES, toolsVisibility } = require('../../lib/tools-policy')
const { compactionSignalLine } = require('../../lib/compaction-signals')

const PLUGIN_ID = require('../../openclaw.plugin.json').id
/** Chat folders listed at most (a state folder may hold many). */
const MAX_FOLDERS = 200

/**
 * Where `openclaw plugins install` puts this plugin, by source and release: a tarball or a
 * folder under extensions/; an npm spec there too to 2026.4.27, under npm/node_modules/ in
 * 2026.5, npm/projects/<id>/node_modules/ from 2026.6; and any `plugins.load.paths` folder.
 */
function pluginInstallDirs(openclawState, config) {
  return [
    path.join(openclawState, 'extensions', PLUGIN_ID),
    path.join(openclawState, 'npm', 'projects', PLUGIN_ID, 'node_modules', PLUGIN_ID),
    path.join(openclawState, 'npm', 'node_modules', PLUGIN_ID),
    ...(config.plugins?.load?.paths ?? []).map(String),
  ]
}

const sizeOf = (bytes) =>
  bytes >= 1 << 20 ? `${(bytes / (1 << 20)).toFixed(1)} MiB` : `${(bytes / 1024).toFixed(1)} KiB`

/** How a refused path reads in a problem line: what it is, from inspect's item. */
function refusedKind(item, message) {
  if (item?.kind === 'symlink') return 'a symlink'
  if (item?.kind === 'fifo') return 'a FIFO'
  if (item?.kind === 'socket') return 'a socket'
  if (item?.kind === 'device') return 'a device'
  if (item?.kind === 'file' && item.links > 1) return `a hard-linked file (${item.links} links)`
  return refusalWords(message)
}

/** `ENOTREGULAR: WHAT, open 'PATH'` -> WHAT. */
const refusalWords = (message) => message.replace(/^ENOTREGULAR: /, '').replace(/, open '[\s\S]*'$/, '')

/** A problem of inspect's, with the command that fixes it. */
function chatProblem(problem, report) {
  const item = report.items.find((i) => i.path === problem.path)
  const where = quoteArg(problem.path)
  const refuses = 'the plugin refuses it and sends plain messages'
  switch (problem.kind) {
    case 'readable':
      return {
        what: `${problem.path} is readable by other local users (${(item?.mode ?? 0).toString(8)})`,
        fix: `chmod -R go= ${where}`,
      }
    case 'owner':
      return {
        what: `${problem.path} is ${refusalWords(problem.message)}: ${refuses}`,
        fix: `chown ${report.expectedUid} ${where} (if it is the gateway's own history; else move it away: mv ${where} ${quoteArg(`${problem.path}.old`)})`,
      }
    case 'writable':
      return { what: `${problem.path} is ${refusalWords(problem.message)}: ${refuses}`, fix: `chmod go-w ${where}` }
    case 'not-sticky':
      return {
        what: `${problem.path} is ${refusalWords(problem.message)}: ${refuses}`,
        fix: `chmod go-w ${where} (or, for a folder shared on purpose, chmod +t ${where})`,
      }
    case 'type':
      return {
        what: `${problem.path} is ${refusedKind(item, problem.message)}: ${refuses}`,
        fix: `replace it with a regular file or folder of its own (or move it away: mv ${where} ${quoteArg(`${problem.path}.old`)})`,
      }
    default:
      return {
        what: problem.message.includes(' cannot be read ')
          ? problem.message
          : `${problem.path} cannot be read (${problem.message})`,
        fix: `check its owner and mode: ls -ld ${where}`,
      }
  }
}

/** One chat folder (ChatStore.inspectFolder): its log's size, entries, skipped lines, torn end, last session, and problems. */
async function inspectChat(dir, native, summaryFile) {
  // Log lines read per chat folder: the window the plugin reads to tell a reload.
  const LOG_WINDOW = native.TURN_WINDOW
  const report = await native.ChatStore.inspectFolder(dir, {
    entries: LOG_WINDOW,
    ...(summaryFile ? { summaryFile: path.basename(summaryFile) } : {}),
  })
  const facts = []
  const problems = report.problems.map((problem) => chatProblem(problem, report))
  const { log } = report
  if (!log) {
    // Only a folder whose files were all looked at can say it has no log.
    if (!report.problems.some((problem) => ['type', 'unreadable', 'owner'].includes(problem.kind)))
      facts.push('no log yet')
    return { facts, problems }
  }
  facts.push(`log ${sizeOf(log.bytes)}`)
  facts.push(`${log.entries}${log.entries === LOG_WINDOW ? '+' : ''} entries`)
  if (log.lastSession) facts.push(`last backend session ${log.lastSession}`)
  if (log.skippedLines > 0) {
    problems.push({
      what: `${log.path}: ${log.skippedLines} unreadable lines among the last ${LOG_WINDOW} entries (skipped by every reader)`,
      fix: 'none needed to keep chatting; inspect the lines if they hold messages you want back',
    })
  }
  if (log.tornLastLine) facts.push('a torn last line (the next append starts a new line)')
  return { facts, problems }
}

/**
 * Whether the installed plugin's own folder loads its addon, as the gateway will (its
 * index.js, from there: OpenClaw's installer may have added no platform package). In a worker
 * thread with a module cache of its own (cli/installed-addon-worker.cjs).
 */
async function installedAddonProblems(installedAt) {
  const { Worker } = require('node:worker_threads')
  const worker = new Worker(path.join(__dirname, '..', 'installed-addon-worker.cjs'), {
    workerData: { entry: path.join(installedAt, 'index.js') },
    stderr: true,
    stdout: true,
  })
  const answer = await new Promise((resolve) => {
    worker.once('message', resolve)
    worker.once('error', (error) => resolve({ ok: false, why: oneLine(error) }))
    worker.once('exit', (code) => resolve({ ok: false, why: `the check ended (exit ${code})` }))
  })
  await worker.terminate()
  if (answer.ok) return []
  return [
    {
      what: `the installed plugin cannot load its addon from ${installedAt} (${answer.why}): every turn passes through untouched`,
      fix: `cd ${quoteArg(installedAt)} && npm install --omit=dev --ignore-scripts (then restart the gateway)`,
    },
  ]
}

/**
 * The masking patterns of the config (OpenClaw's `logging.redactPatterns`, the plugin's
 * `redactPatterns`) that the addon's masker refuses, each as a problem with its reason.
 */
function refusedMaskPatterns(config, pluginSettings, configFile, native) {
  const list = (value, setting) =>
    (Array.isArray(value) ? value : [])
      .map((pattern, index) => ({ setting: `${setting}[${index}]`, pattern }))
      .filter(({ pattern }) => typeof pattern === 'string' && pattern.trim())
  const sources = [
    ...list(config.logging?.redactPatterns, 'logging.redactPatterns'),
    ...list(pluginSettings?.redactPatterns, `plugins.entries.${PLUGIN_ID}.config.redactPatterns`),
  ]
  if (sources.length === 0) return []
  const { refused } = new native.SecretMasker({ patterns: sources.map(({ pattern }) => pattern) })
  return refused.map(({ pattern, reason }) => ({
    what: `${sources.find((source) => source.pattern === pattern)?.setting ?? 'a masking pattern'} ${JSON.stringify(pattern)} is not used for masking: ${reason}`,
    fix: `rewrite or remove it in ${configFile} (no lookaround, no backreferences, no empty match)`,
  }))
}

/**
 * The chat-log tools as an ACP backend would get them: the plugin-tools bridge on or off, the
 * tool policy, the release. Off is a note (the bridge is the operator's choice); on, a tool the
 * policy hides or a release whose bridge passes no session key is a problem.
 */
function toolsReport(config, version, installed) {
  const { bridge, hidden, fix } = toolsVisibility(config)
  const tools = TOOL_NAMES.join(', ')
  const lines = []
  const problems = []
  const policy =
    hidden.length === 0
      ? 'the tool policy shows them'
      : `the tool policy hides ${hidden.map(({ tool, why }) => `${tool} (${why})`).join(', ')}`
  if (!bridge) {
    lines.push(
      `tools: ${tools}: ${BRIDGE_SETTING} is off: ACP backends do not get them (to serve them: openclaw config set ${BRIDGE_SETTING} true); ${policy}${fix ? ` (fix: ${fix})` : ''}`,
    )
    return { lines, problems }
  }
  lines.push(`tools: ${tools}: ${BRIDGE_SETTING} is on; ${policy}`)
  if (installed && hidden.length > 0)
    problems.push({ what: `the bridge is on but ${policy}: ACP backends do not see them`, fix })
  if (installed && bridgePassesSessionKey(version) === false)
    problems.push({
      what: `openclaw ${version}'s plugin-tools bridge passes no session key: ${tools} refuse every call there`,
      fix: `npm install openclaw@latest (the tools need ${TOOLS_SESSION_KEY_RELEASE} or later)`,
    })
  return { lines, problems }
}

async function diagnose({ dir, stateDir: stateDirOption, env = process.env, native }) {
  const lines = []
  const problems = []
  const note = (line) => lines.push(line)

  // The release, and what of this package it supports.
  let openclawDir
  let version
  try {
    openclawDir = findOpenClaw(dir, { note, env })
  } catch (error) {
    problems.push({
      what: `no OpenClaw found (${oneLine(error)})`,
      fix: 'openclaw-context doctor /path/to/node_modules/openclaw',
    })
  }
  if (openclawDir) {
    version = openclawVersion(openclawDir)
    const supported = compareVersions(parseVersion(version), parseVersion(PLUGIN_FIRST_RELEASE)) >= 0
    note(
      `release: openclaw ${version} at ${openclawDir}; the plugin ${supported ? `runs on it (${PLUGIN_FIRST_RELEASE} or later)` : `needs ${PLUGIN_FIRST_RELEASE} or later (reply_dispatch)`}`,
    )
    if (!supported)
      problems.push({
        what: `openclaw ${version} has no reply_dispatch hook`,
        fix: `npm install openclaw@latest (the plugin needs ${PLUGIN_FIRST_RELEASE} or later)`,
      })
    try {
      const status = compactionStatus(openclawDir)
      note(`compaction: ${status.state}: ${status.message}`)
      if (status.state === 'buggy')
        problems.push({
          what: 'the compaction cap is the buggy one, unpatched',
          fix: `openclaw-context patch ${openclawDir}`,
        })
    } catch (error) {
      problems.push({
        what: `compaction status unknown (${oneLine(error)})`,
        fix: `openclaw-context patch --check ${openclawDir}`,
      })
    }
  }

  // The plugin in the gateway's config and extensions folder.
  const openclawState = openclawStateDir(env)
  const { file: configFile, config, error: configError } = readOpenclawConfig(openclawState, env)
  if (configError) note(`config: ${configFile}: ${configError}`)
  const entry = config.plugins?.entries?.[PLUGIN_ID] ?? {}
  const installedAt = pluginInstallDirs(openclawState, config).find((dir) =>
    fs.existsSync(path.join(dir, 'openclaw.plugin.json')),
  )
  const installed = installedAt !== undefined
  const enabled = installed && config.plugins?.enabled !== false && entry.enabled !== false
  note(
    `plugin: ${installed ? `installed at ${installedAt}` : 'not installed'}${installed ? (enabled ? ', enabled' : ', disabled') : ''}; settings ${JSON.stringify(entry.config ?? {})}`,
  )
  if (!installed)
    problems.push({
      what: 'the plugin is not installed (persistent ACP chats get no prompt)',
      fix: `openclaw plugins install ${PLUGIN_ID}`,
    })
  else if (!enabled)
    problems.push({ what: 'the plugin is installed but disabled', fix: `openclaw plugins enable ${PLUGIN_ID}` })
  if (installed) problems.push(...(await installedAddonProblems(installedAt)))
  problems.push(...refusedMaskPatterns(config, entry.config, configFile, native))
  const tools = toolsReport(config, version, installed && enabled)
  lines.push(...tools.lines)
  problems.push(...tools.problems)
  // The compaction signals this release and config pass the plugin (compactionRefresh on).
  if (entry.config?.compactionRefresh !== false && version !== undefined) {
    const signals = compactionSignalLine(PLUGIN_ID, version, config)
    note(
      `refresh: ${signals ? signals.slice(PLUGIN_ID.length + 2) : "the backend's tool calls or usage reports reach the plugin: a compaction refreshes the next turn"}`,
    )
  }

  // Each chat folder.
  for (const problem of settingProblems(entry.config))
    problems.push({ what: problem, fix: `fix plugins.entries.${PLUGIN_ID}.config in ${configFile}` })
  const pluginConfig = chatFolders(entry.config, openclawState, env)
  const stateDir = stateDirOption ? path.resolve(stateDirOption) : pluginConfig.stateDir
  const folders = []
  try {
    for (const name of fs.readdirSync(stateDir).sort()) {
      const full = path.join(stateDir, name)
      if (fs.lstatSync(full).isDirectory()) folders.push({ dir: full, why: `under stateDir ${quoteArg(stateDir)}` })
      if (folders.length >= MAX_FOLDERS) break
    }
  } catch (error) {
    note(`chats: ${stateDir}: ${error.code === 'ENOENT' ? 'no chat yet' : oneLine(error)}`)
  }
  for (const [key, folder] of pluginConfig.sessionStateDirs)
    folders.push({ dir: folder, why: `sessionStateDirs["${key}"]` })
  if (pluginConfig.runtimeFiles) {
    const { dir: folder, summary } = pluginConfig.runtimeFiles
    const listed = Array.isArray(entry.config?.sessionKeys)
    folders.push({
      dir: folder,
      summary,
      why:
        `PERSISTENT_CHAT_CONTINUITY_PATH=${quoteArg(summary)}, as the persistent-chat runtime kept it: ` +
        `one chat's, ${listed ? 'the session keys listed in sessionKeys' : 'the first session key that took a turn (session-key-owner)'}; ` +
        `every other chat has its own folder under stateDir ${quoteArg(stateDir)}`,
    })
  }
  if (folders.length > 0 && process.platform !== 'win32') {
    const rootStats = fs.statSync(stateDir, { throwIfNoEntry: false })
    if (rootStats && (rootStats.mode & 0o077) !== 0 && (rootStats.mode & 0o1000) === 0)
      problems.push({
        what: `${stateDir} is readable by other local users (${(rootStats.mode & 0o777).toString(8).padStart(4, '0')})`,
        fix: `chmod -R go= ${quoteArg(stateDir)}`,
      })
  }
  for (const { dir: folder, why, summary } of folders) {
    let result
    try {
      result = await inspectChat(folder, native, summary)
    } catch (error) {
      result = { facts: [], problems: [{ what: `${folder}: ${oneLine(error)}`, fix: `ls -ld ${quoteArg(folder)}` }] }
    }
    note(`chat: ${quoteArg(folder)} (${why}): ${result.facts.join('; ') || 'ok'}`)
    problems.push(...result.problems)
  }
  return { lines, problems }
}

/** The report as one JSON object: each fact by its topic (`release`, `chat`, …), each problem. */
function reportJson(lines, problems) {
  const facts = lines.map((line) => {
    const topic = /^([a-z]+): /.exec(line)?.[1]
    return topic ? { topic, text: line.slice(topic.length + 2) } : { text: line }
  })
  return { ok: problems.length === 0, facts, problems: problems.map(({ what, fix }) => ({ what, fix })) }
}

async function runDoctor(argv, out, err) {
  const { positionals, options } = parseCommandArgs(argv, optionsOf('doctor'), { allowPositionals: true })
  if (positionals.length > 1) throw new UsageError(`doctor takes one OPENCLAW_DIR, got ${positionals.length}`)
  const native = require('../..')
  const { lines, problems } = await diagnose({ dir: positionals[0], stateDir: options['state-dir'], native })
  if (options.json) {
    // JSON escapes every control character itself: a hostile name cannot add a line there.
    out(JSON.stringify(reportJson(lines, problems), null, 2))
    return problems.length === 0 ? 0 : 1
  }
  // Every printed line escaped once, here: a folder name or a message from a hostile file
  // cannot add a line (a forged `problem: none`) or move the terminal.
  const oneLineOf = (text) => escapeControl(text, { backslashes: false })
  if (!options.quiet) for (const line of lines) out(oneLineOf(line))
  if (problems.length === 0) {
    if (!options.quiet) out('nothing needs doing')
    return 0
  }
  for (const problem of problems) err(`problem: ${oneLineOf(problem.what)}\n  fix: ${oneLineOf(problem.fix)}`)
  return 1
}

module.exports = { runDoctor, diagnose, PLUGIN_FIRST_RELEASE }
