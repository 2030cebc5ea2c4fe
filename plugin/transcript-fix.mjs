// Keeps OpenClaw's own transcript showing the live message.
//
// OpenClaw's ACP dispatch stores the text it sent to the backend as the user's transcript
// message, which here is the whole injected prompt. `before_message_write` runs, synchronously,
// just before that message is written: while a turn is in flight its prompt is expected, and
// a user message that starts with it gets the live message back in its place (whatever
// OpenClaw appended after the prompt, such as an image note, stays). Where the hook never
// saw it (a JSON Lines transcript, to 2026.6), `restoreWritten` fixes the written file.

import { createJsonlTranscriptFix } from './transcript-jsonl.mjs'

export function createTranscriptFix() {
  /** prompt (trimmed, as OpenClaw stores it) -> { live, turns } */
  const expected = new Map()
  /** Prompts `before_message_write` gave back their live message (until restoreWritten). */
  const rewritten = new Set()
  const jsonl = createJsonlTranscriptFix()

  const replace = (text) => {
    for (const [prompt, { live }] of expected) {
      if (text.startsWith(prompt)) {
        rewritten.add(prompt)
        return live + text.slice(prompt.length)
      }
    }
    return undefined
  }

  return {
    /** Expects `prompt` in a transcript write until the returned function is called. */
    expect(prompt, live) {
      const key = prompt.trim()
      const slot = expected.get(key) ?? { live: live.trim(), turns: 0 }
      slot.turns += 1
      expected.set(key, slot)
      return () => {
        slot.turns -= 1
        if (slot.turns === 0 && expected.get(key) === slot) expected.delete(key)
      }
    },

    /**
     * After the turn: unless `before_message_write` already put `live` in place of `prompt`,
     * the transcript OpenClaw wrote without the hook gets it (a problem line, or undefined).
     */
    async restoreWritten({ cfg, sessionKey, prompt, live }) {
      if (rewritten.delete(prompt.trim())) return undefined
      try {
        await jsonl.restore({ cfg, sessionKey, prompt, live })
        return undefined
      } catch (error) {
        return `transcript keeps the prompt (${error?.code ?? error?.message ?? error})`
      }
    },

    /** The `before_message_write` handler (synchronous, as the hook requires). */
    onBeforeMessageWrite(event) {
      const message = event?.message
      if (expected.size === 0 || !message || message.role !== 'user') return undefined
      if (typeof message.content === 'string') {
        const content = replace(message.content)
        return content === undefined ? undefined : { message: { ...message, content } }
      }
      if (Array.isArray(message.content)) {
        const at = message.content.findIndex((part) => part?.type === 'text' && typeof part.text === 'string')
        if (at < 0) return undefined
        const text = replace(message.content[at].text)
        if (text === undefined) return undefined
        const content = message.content.slice()
        content[at] = { ...content[at], text }
        return { message: { ...message, content } }
      }
      return undefined
    },
  }
}
