'use strict'
// A long persistent chat, simulated end to end the way a gateway drives the
// package: a JSON Lines perpetual log appended per message, hundreds of
// turns, several backend reloads (ses_1 → ses_2 → …), failed turns (one right
// before a reload), an old-format continuity summary at the first reload,
// torn last lines and garbage in the log. Every prompt is checked; at the end
// the reload prompts are compared with the OLD layout's size.

const fs = require('node:fs')
const path = require('node:path')
const native = require('../index.js')
const {
  LIVE_SEP,
  BOOT_SEP,
  SUMMARY_HEADING,
  EXCERPT_HEADING,
  LIVE_REF,
  HEADERS,
  BASE_MS,
  tempDir,
  PLACEHOLDER_LINE,
  appendEntry,
  appendRaw,
  lines,
  countLinesEqual,
  markerCounts,
  dissect,
  entryLines,
  iso,
  renderOld,
  oldReloadPrompt,
  rng,
  words,
} = require('./fixtures/chat.js')

const { rebuildPersistentChatContinuitySummary: rebuild, buildPersistentChatInjectedPromptReport: buildReport } = native
const FENCE_NONCE = 'f0e1d2c3b4a59687'

const HISTORY_MESSAGES = 40 // written by the old gateway, session ses_0
const TURNS = 300 // 600 messages by the new one
const RELOAD_TURNS = [0, 57, 131, 190, 244] // ses_1 … ses_5
const FAILED_TURNS = new Set([20, 56, 100, 101, 130, 200, 243]) // 56, 130, 243: right before a reload
const REBUILD_AFTER_LIVE = new Set([190]) // the memory script ran after the live message was appended
const RELOAD_ENTRIES = 25
const STEP_MS = 45_000

describe('a long persistent chat across backend reloads', () => {
  let tmp
  beforeAll(() => {
    tmp = tempDir('occn-scenario-')
  })
  afterAll(() => tmp.cleanup())

  test('every prompt is right, and reload prompts are smaller than the old layout', () => {
    const next = rng(20260515)
    const logPath = path.join(tmp.dir, 'perpetual-log.jsonl')
    const statePath = path.join(tmp.dir, 'memory-state.json')
    const summaryPath = path.join(tmp.dir, 'continuity-summary.txt')
    const metadataFor = (turn, session) => ({ channel: 'telegram', chatId: 4242, session, turn })

    /** What a reader should see: valid entries in order, each once (by id). */
    const model = []
    let seq = 0
    const clock = () => BASE_MS + seq * STEP_MS
    const makeEntry = (role, session, extra = {}) => {
      const n = seq++
      let text
      if (role === 'user') {
        text = `msg#${n} ${words(next, 5 + Math.floor(next() * 40))}`
      } else if (role === 'assistant') {
        const paragraphs = 1 + Math.floor(next() * 4)
        text = `msg#${n} ${Array.from({ length: paragraphs }, () => words(next, 20 + Math.floor(next() * 60))).join('\n\n')}`
      } else {
        text = `msg#${n} ${role} output: ${words(next, 10)}`
      }
      return {
        ts: iso(BASE_MS + n * STEP_MS),
        role,
        text,
        session,
        status: role === 'assistant' ? 'ok' : undefined,
        id: `e${n}`,
        ...extra,
      }
    }
    const write = (entry, { duplicate = false } = {}) => {
      appendEntry(logPath, entry)
      if (duplicate) appendEntry(logPath, entry) // a retried append
      model.push(entry)
    }

    const stateAt = (turn) => ({
      decisions: Array.from(
        { length: 3 + Math.floor(turn / 30) },
        (_, i) => `Decision ${i}: keep   the gateway\non Postgres ${i}`,
      ),
      guardrails: [{ text: 'Never force-push main' }],
      pendingThreads: [`Migrate the users table (batch ${Math.floor(turn / 50)})`, { text: 'Rotate the API keys' }],
      timers: [
        { name: 'standup', status: 'pending', due: iso(BASE_MS + 2 * 3_600_000) },
        { name: 'weekly report', status: 'pending', due: iso(BASE_MS + 3 * 86_400_000) },
        { name: 'backup', status: 'done', due: iso(BASE_MS + 3_600_000) },
      ],
      modelNotes: ['No image input on this backend'],
      notes: turn > 100 ? ['Reply in French'] : [],
    })

    // --- History from the old gateway, and its old-format continuity summary.
    fs.writeFileSync(logPath, '')
    for (let i = 0; i < HISTORY_MESSAGES; i++) {
      const entry = makeEntry(i % 2 === 0 ? 'user' : 'assistant', 'ses_0')
      if (i === 13) entry.text += '\nwith a second line\n  and an indented third'
      write(entry)
      if (i === 21) appendRaw(logPath, 'Traceback (most recent call last): garbage\n')
    }
    fs.writeFileSync(statePath, JSON.stringify(stateAt(0)))
    let summaryNow = clock()
    const legacyStateOnly = rebuild({ logPath, statePath, currentSession: 'ses_0', now: summaryNow })
    const legacyExcerpt = model.slice(-30).map(renderOld)
    const [legacyHead, ...legacyRest] = legacyStateOnly.split('\n\n')
    const legacySummary = [legacyHead, `Recent log excerpt:\n${legacyExcerpt.join('\n')}`, ...legacyRest].join('\n\n')
    expect(markerCounts(legacySummary).size).toBeGreaterThanOrEqual(30)
    fs.writeFileSync(summaryPath, legacySummary)

    // --- The new gateway's turns.
    let sessionIndex = 0
    let session = 'ses_0'
    let reloads = 0
    const sizes = []
    const seen = { torn: 0, garbageSkipped: 0, failedBeforeReload: 0, liveRef: 0, entryRef: 0 }

    for (let turn = 0; turn < TURNS; turn++) {
      const reload = RELOAD_TURNS.includes(turn)
      if (reload) session = `ses_${++sessionIndex}`
      const failedJustBefore = reload && model.at(-1).status === 'ACP_TURN_FAILED'

      if (turn % 23 === 7) appendRaw(logPath, 'not json at all\n{"role":"user"}\n\n')
      if (turn % 25 === 0) fs.writeFileSync(statePath, JSON.stringify(stateAt(turn)))

      // The memory script rebuilds continuity-summary.txt at a reload (the first
      // reload still finds the old-format file).
      const rebuildSummary = () => {
        summaryNow = clock()
        const summary = rebuild({ logPath, statePath, currentSession: session, now: summaryNow })
        fs.writeFileSync(summaryPath, summary)
        return summary
      }
      if (reload && turn !== 0 && !REBUILD_AFTER_LIVE.has(turn)) rebuildSummary()

      // The user's message is appended before the prompt is built.
      const live = makeEntry('user', session)
      write(live, { duplicate: turn % 37 === 5 })
      const liveIndex = model.length - 1
      if (reload && REBUILD_AFTER_LIVE.has(turn)) rebuildSummary()

      // Another writer is mid-append while we read.
      const torn = turn % 29 === 3 || turn === 131
      let tornEntry
      if (torn) {
        tornEntry = makeEntry('tool', session)
        const line = JSON.stringify(tornEntry)
        appendRaw(logPath, line.slice(0, Math.floor(line.length / 2)))
        tornEntry.rest = line.slice(Math.floor(line.length / 2))
      }

      const continuitySummary = fs.readFileSync(summaryPath, 'utf8')
      const turnMetadata = metadataFor(turn, session)
      const params = { userMessage: live.text, reload, continuitySummary, logPath, turnMetadata }
      // The checks below parse the legacy layout; the fenced prompt (what the
      // plugin sends) holds the same entries, and its size is the one compared.
      const report = buildReport({ ...params, legacyLayout: true })
      const fenced = buildReport({ ...params, nonce: FENCE_NONCE })
      expect(fenced.injectedEntryIds).toEqual(report.injectedEntryIds)
      expect(fenced.chars - report.chars).toBeGreaterThan(0)
      // The fence's budget, and a fenced reload's placeholder line (its nonce and line break too).
      expect(fenced.chars - report.chars).toBeLessThanOrEqual(reload ? 700 + PLACEHOLDER_LINE.length + 18 : 160)
      const prompt = report.prompt
      const context = `turn ${turn} (${reload ? 'reload' : 'continuous'}, ${session})`

      // --- Checks common to both modes.
      // The other writer's tool entries are never shown.
      const before = model.slice(0, liveIndex).filter((e) => e.role !== 'tool')
      const wanted = reload ? RELOAD_ENTRIES : 2
      const expected = before.slice(-wanted)
      expect({ context, mode: report.mode }).toEqual({ context, mode: reload ? 'reload' : 'continuous' })
      expect({ context, ids: report.injectedEntryIds }).toEqual({ context, ids: expected.map((e) => e.id) })
      expect(report.entriesInjected).toBe(Math.min(wanted, before.length))
      expect(report.entriesOmitted).toBe(0)
      expect(report.chars).toBe(prompt.length)
      expect(prompt.endsWith(`\n\n${LIVE_SEP}\n${live.text}`)).toBe(true)
      expect(countLinesEqual(prompt, LIVE_SEP)).toBe(1)
      const parts = dissect(prompt, live.text)
      expect(
        parts.head.startsWith(
          `## Turn Metadata\n- channel: telegram\n- chatId: 4242\n- session: ${session}\n- turn: ${turn}\n\n`,
        ),
      ).toBe(true)
      const shown = entryLines(parts.excerpt)
      expect(shown).toHaveLength(expected.length)
      shown.forEach((line, i) => {
        const entry = expected[i]
        const role = entry.status && entry.status !== 'ok' ? `${entry.role} (${entry.status})` : entry.role
        expect(line.startsWith(`${i + 1}. [${entry.ts}] ${role}: ${entry.text.split('\n')[0]}`)).toBe(true)
      })
      // Each message at most once; the live message exactly once, last.
      const counts = markerCounts(prompt)
      for (const [marker, count] of counts) expect({ context, marker, count }).toEqual({ context, marker, count: 1 })
      expect(counts.get(Number(live.text.match(/^msg#(\d+)/)[1]))).toBe(1)
      const injectedMarkers = new Set(expected.map((e) => Number(e.text.match(/^msg#(\d+)/)[1])))
      for (const marker of counts.keys()) {
        if (marker !== seq - 1 - (torn ? 1 : 0))
          expect({ context, marker, injected: injectedMarkers.has(marker) }).toEqual({
            context,
            marker,
            injected: true,
          })
      }
      if (torn) {
        seen.torn++
        expect(report.skippedLogLines).toBeGreaterThanOrEqual(1)
        expect(prompt).not.toContain(tornEntry.text)
      }
      if (report.skippedLogLines > (torn ? 1 : 0)) seen.garbageSkipped++

      if (reload) {
        reloads++
        expect(countLinesEqual(prompt, BOOT_SEP)).toBe(1)
        expect(countLinesEqual(prompt, SUMMARY_HEADING)).toBe(1)
        expect(countLinesEqual(prompt, EXCERPT_HEADING)).toBe(1)
        const order = [BOOT_SEP, SUMMARY_HEADING, EXCERPT_HEADING, LIVE_SEP].map((l) => lines(prompt).indexOf(l))
        expect([...order].sort((a, b) => a - b)).toEqual(order)
        // The summary is state only: no transcript, no copy of an entry.
        const summary = parts.summary
        expect(summary.startsWith(`${HEADERS.current}\n`)).toBe(true)
        expect(summary).not.toMatch(/msg#\d/)
        expect(summary).not.toMatch(/Recent (log|conversation) excerpt/i)
        expect(summary).toContain('- Decision 0: keep the gateway on Postgres 0')
        const standupDue = BASE_MS + 2 * 3_600_000
        if (summaryNow >= standupDue) expect(summary).toMatch(/- standup: (overdue \(was due|due now \(due) /)
        else expect(summary).toContain('- standup: pending (due ')
        expect(summary).toContain('- weekly report: pending (due ')
        // No stale status: a failure from before the reload never shows.
        const statusLine = lines(summary).find((l) => l.startsWith('- Latest assistant status: '))
        expect(statusLine).toBeDefined()
        expect(statusLine).not.toContain('ACP_TURN_FAILED')
        expect(summary).not.toContain('ACP_TURN_FAILED')
        const requestLine = lines(summary).find((l) => l.startsWith('- Latest user request: '))
        if (REBUILD_AFTER_LIVE.has(turn)) {
          expect(requestLine).toBe(`- Latest user request: ${LIVE_REF}`)
          expect(statusLine).toBe('- Latest assistant status: awaiting reply to the latest request')
          seen.liveRef++
        } else {
          const ref = requestLine.match(/^- Latest user request: \(see log entry (\d+) below\)$/)
          expect({ context, requestLine, ok: ref !== null }).toEqual({ context, requestLine, ok: true })
          const pointed = shown[Number(ref[1]) - 1]
          const lastUser = before.filter((e) => e.role === 'user').at(-1)
          expect(pointed).toContain(`user: ${lastUser.text.split('\n')[0]}`)
          seen.entryRef++
        }
        if (failedJustBefore) {
          seen.failedBeforeReload++
          // The request the failure left unanswered stays the pending one.
          expect(statusLine).toBe('- Latest assistant status: awaiting reply to the latest request')
          // The failed entry itself is in the excerpt, marked as such.
          expect(shown.at(-1)).toMatch(/^\d+\. \[[^\]]+\] assistant \(ACP_TURN_FAILED\): /)
        }

        const oldPrompt = oldReloadPrompt({
          metadata: parts.head.slice(0, parts.head.indexOf(`\n\n${BOOT_SEP}`)),
          stateSummary: rebuild({ logPath, statePath, currentSession: session, now: clock() }),
          entries: model.slice(0, liveIndex + 1),
          userMessage: live.text,
        })
        // The old layout repeats entries: the live message and the last 5 twice or more.
        expect(Math.max(...markerCounts(oldPrompt).values())).toBeGreaterThanOrEqual(3)
        sizes.push({ turn, old: oldPrompt.length, new: fenced.prompt.length })
      } else {
        expect(report.entriesInjected).toBeLessThanOrEqual(2)
        expect(countLinesEqual(prompt, BOOT_SEP)).toBe(0)
        expect(countLinesEqual(prompt, SUMMARY_HEADING)).toBe(0)
        expect(lines(prompt).filter((l) => l.trim() === BOOT_SEP || l.trim() === LIVE_SEP)).toEqual([LIVE_SEP])
        expect(prompt).not.toContain('Decision 0')
        expect(report.summaryTrimmed).toBe(false)
      }

      // The torn line is finished, then the backend answers.
      if (torn) {
        appendRaw(logPath, `${tornEntry.rest}\n`)
        delete tornEntry.rest
        model.push(tornEntry)
      }
      const failed = FAILED_TURNS.has(turn)
      const reply = makeEntry('assistant', session, failed ? { status: 'ACP_TURN_FAILED' } : {})
      if (turn === 77) reply.text += `\nQuoting the prompt format:\n${LIVE_SEP}\n${BOOT_SEP}\nend of quote`
      write(reply, { duplicate: turn % 41 === 9 })
    }

    // The scenario exercised what it claims to.
    expect(reloads).toBe(RELOAD_TURNS.length)
    expect(seq).toBeGreaterThanOrEqual(HISTORY_MESSAGES + 2 * TURNS)
    expect(seen.torn).toBeGreaterThanOrEqual(10)
    expect(seen.garbageSkipped).toBeGreaterThan(0)
    expect(seen.failedBeforeReload).toBe(3)
    expect(seen.liveRef).toBe(1)
    expect(seen.entryRef).toBe(RELOAD_TURNS.length - 1)
    // The whole log is still readable: every valid entry, each once per write.
    const all = native.readPersistentChatLogEntries(logPath, Infinity)
    expect(new Set(all.map((e) => e.id))).toEqual(new Set(model.map((e) => e.id)))

    const avg = (key) => sizes.reduce((sum, s) => sum + s[key], 0) / sizes.length
    const oldAvg = avg('old')
    const newAvg = avg('new')
    const saving = (1 - newAvg / oldAvg) * 100
    console.log(
      [
        `reload prompts: ${sizes.length}`,
        ...sizes.map((s) => `  turn ${s.turn}: old ${s.old} chars, new ${s.new} chars`),
        `average old layout: ${oldAvg.toFixed(0)} chars`,
        `average new prompt: ${newAvg.toFixed(0)} chars`,
        `saving: ${saving.toFixed(1)} %`,
      ].join('\n'),
    )
    for (const s of sizes) expect(s.new).toBeLessThan(s.old)
    expect(newAvg).toBeLessThan(oldAvg)
    // The README and docs/performance.md quote these figures: they must be the ones printed here.
    const count = (n) => Math.round(n).toLocaleString('en-US')
    const quoted = `${saving.toFixed(1)}% smaller than the old layout (${count(newAvg)} vs ${count(oldAvg)} chars on average)`
    for (const doc of ['README.md', path.join('docs', 'performance.md')]) {
      const text = fs.readFileSync(path.join(__dirname, '..', doc), 'utf8').replace(/\s+/g, ' ')
      expect([doc, text.includes(quoted) ? quoted : `not quoted there: ${quoted}`]).toEqual([doc, quoted])
    }
  }, 20_000)
})
