// Puts the live message back into a JSON Lines session transcript, after OpenClaw wrote it.
//
// Up to 2026.6 OpenClaw keeps a session's transcript in one JSON Lines file
// (`agents/<agent>/sessions/<id>.jsonl`). Its ACP dispatch appends the text it sent the
// backend (here the whole injected prompt) as the user message, then the reply, under the
// session's write lock and with no plugin hook on the way (`before_message_write` only sees
// the embedded runner's writes). It does so before `tryDispatchAcpReplyHook` returns. So,
// once that call returned, this module takes the same lock through the public SDK
// (`acquireSessionWriteLock` of `plugin-sdk/agent-harness-runtime`, and the session row's
// `sessionFile` through `plugin-sdk/session-store-runtime`), finds that user message among
// the file's last lines and writes the file again with the live message in its place:
// a new file beside it, flushed, then renamed over it, so a power cut leaves one or the
// other whole. Nothing else in the file changes.
//
// Releases that keep no such file (2026.7 on: SQLite, where `before_message_write` works),
// or whose ACP dispatch writes no transcript (2026.4.5), find nothing to change.
import crypto from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'

import { importSdk } from './openclaw-sdk.mjs'

/** A transcript this size or larger is left alone: the rewrite would read it whole. */
export const MAX_TRANSCRIPT_BYTES = 64 * 1024 * 1024
/** The user message is among the last lines (it is followed by the reply only). */
const TAIL_LINES = 8

/** The SDK functions this needs, or undefined on a release that lacks one. */
async function loadSdk() {
  try {
    const [store, harness, agents] = await Promise.all([
      importSdk('session-store-runtime'),
      importSdk('agent-harness-runtime'),
      importSdk('agent-runtime').catch(() => ({})),
    ])
    const sdk = {
      resolveStorePath: store.resolveStorePath,
      loadSessionStore: store.loadSessionStore,
      resolveSessionStoreEntry: store.resolveSessionStoreEntry,
      acquireSessionWriteLock: harness.acquireSessionWriteLock,
      lockTimeoutMs: harness.resolveSessionWriteLockAcquireTimeoutMs,
      agentIdOf: agents.resolveSessionAgentId,
    }
    const required = ['resolveStorePath', 'loadSessionStore', 'resolveSessionStoreEntry', 'acquireSessionWriteLock']
    return required.every((name) => typeof sdk[name] === 'function') ? sdk : undefined
  } catch {
    return undefined
  }
}

/** `agent:<id>:…` names its agent; any other key belongs to the default agent. */
function agentIdOf(sdk, cfg, sessionKey) {
  if (sdk.agentIdOf) {
    try {
      return sdk.agentIdOf({ sessionKey, config: cfg })
    } catch {
      // fall through to the key's own form
    }
  }
  const match = /^agent:([^:]+):/.exec(sessionKey)
  return match ? match[1].toLowerCase() : 'main'
}

/** The text of a transcript user message, and a function that gives it another text. */
function userText(message) {
  if (!message || message.role !== 'user') return undefined
  if (typeof message.content === 'string')
    return { text: message.content, with: (text) => ({ ...message, content: text }) }
  if (!Array.isArray(message.content)) return undefined
  const at = message.content.findIndex((part) => part?.type === 'text' && typeof part.text === 'string')
  if (at < 0) return undefined
  return {
    text: message.content[at].text,
    with: (text) => {
      const content = message.content.slice()
      content[at] = { ...content[at], text }
      return { ...message, content }
    },
  }
}

/**
 * The file's text with the last user message that starts with `prompt` given `live`
 * instead (what OpenClaw appended after the prompt stays), or undefined when there is none.
 */
export function replacePromptLine(fileText, prompt, live) {
  const lines = fileText.split('\n')
  const stop = Math.max(0, lines.length - 1 - TAIL_LINES)
  for (let i = lines.length - 1; i >= stop; i -= 1) {
    if (!lines[i].includes('"user"')) continue
    let event
    try {
      event = JSON.parse(lines[i])
    } catch {
      continue // a torn or foreign line: not ours to touch
    }
    if (event?.type !== 'message') continue
    const user = userText(event.message)
    if (!user) continue
    if (!user.text.startsWith(prompt)) return undefined // the latest user message is another turn's
    lines[i] = JSON.stringify({ ...event, message: user.with(live + user.text.slice(prompt.length)) })
    return lines.join('\n')
  }
  return undefined
}

/** `text` written to a new file beside `file`, flushed, then renamed over it. */
async function replaceFile(file, text, mode) {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${crypto.randomBytes(6).toString('hex')}.tmp`)
  const handle = await fs.open(temp, 'wx', mode)
  try {
    await handle.chmod(mode) // as the file was, whatever the umask
    await handle.writeFile(text, 'utf8')
    await handle.sync()
  } finally {
    await handle.close()
  }
  try {
    await fs.rename(temp, file)
  } catch (error) {
    await fs.rm(temp, { force: true })
    throw error
  }
}

/**
 * The transcript `file` with its last user message given `live` in place of `prompt`;
 * `"restored"`, or `"none"` when the file holds no such message or is not a plain file.
 * The caller holds the session's write lock.
 */
export async function rewriteTranscript(file, prompt, live) {
  let stat
  try {
    stat = await fs.lstat(file)
  } catch (error) {
    if (error.code === 'ENOENT') return 'none'
    throw error
  }
  // A link or anything but a plain file is not rewritten: the rename would replace it.
  if (!stat.isFile() || stat.nlink > 1) return 'none'
  if (stat.size >= MAX_TRANSCRIPT_BYTES) throw new Error(`transcript ${file} is ${stat.size} bytes, left as it is`)
  const text = replacePromptLine(await fs.readFile(file, 'utf8'), prompt.trim(), live.trim())
  if (text === undefined) return 'none'
  await replaceFile(file, text, stat.mode & 0o777)
  return 'restored'
}

/** `loadSdkModules` is the SDK's loader (a spec's stand-in counts its calls). */
export function createJsonlTranscriptFix({ loadSdkModules = loadSdk } = {}) {
  let sdk

  return {
    /**
     * After an ACP turn OpenClaw wrote to a JSON Lines transcript: its user message becomes
     * `live` again. Resolves to `"restored"`, `"none"` (nothing of this turn there: another
     * store, or no transcript), or throws what went wrong (the file is then as it was).
     */
    async restore({ cfg, sessionKey, prompt, live }) {
      // Loaded once: `null` (a release without these SDK modules) is kept too, so such a
      // release does not pay three failed imports' module resolution at every turn.
      if (sdk === undefined) sdk = (await loadSdkModules()) ?? null
      if (!sdk) return 'none'
      const storePath = sdk.resolveStorePath(cfg?.session?.store, { agentId: agentIdOf(sdk, cfg, sessionKey) })
      const store = sdk.loadSessionStore(storePath, { skipCache: true })
      const file = sdk.resolveSessionStoreEntry({ store, sessionKey })?.existing?.sessionFile
      if (typeof file !== 'string' || !file.endsWith('.jsonl') || !path.isAbsolute(file)) return 'none'
      const lock = await sdk.acquireSessionWriteLock({
        sessionFile: file,
        timeoutMs: sdk.lockTimeoutMs ? sdk.lockTimeoutMs(cfg) : 60000,
        allowReentrant: true,
      })
      try {
        return await rewriteTranscript(file, prompt, live)
      } finally {
        await lock.release()
      }
    },
  }
}
