'use strict'
// Long multi-session chats with planted facts, and questions about them in other words: the
// needle-in-the-log and paraphrase set for the search (benchmark/search-quality.mjs) and the
// realistic text of the search bench's 100 MB log (benchmark/search.mjs). Deterministic per seed.
//
// Each planted fact is a pair of turns: a user turn that names a subject ("can we settle the
// staging database migration?") and the reply that holds the answer ("Decided: Postgres 16 on
// Friday…"); the question asks about the subject in other words (synonyms, inflections, another
// word order: "what did we decide about migrating the staging DB?"). The evidence is the reply
// for half the facts (the turn after the one the question matches) and the user turn itself for
// the others (a user stating a fact). The filler around them talks about the same subjects, so
// finding the words is not enough: the ranking must pick the right turn out of many that share them.

const { rng } = require('../../dev/shapes.js')

// Subjects, each with several ways to say it: the planted turn uses one, the question another.
const SUBJECTS = [
  ['staging database', 'staging DB', 'database on staging', 'staging databases'],
  ['payment webhook', 'payments webhook', 'webhook for payments', 'payment webhooks'],
  ['release checklist', 'checklist for releases', 'release check list', 'releasing checklist'],
  ['nightly backup', 'nightly backups', 'backup that runs every night', 'night backup job'],
  ['login page', 'sign-in page', 'login screen', 'page for logging in'],
  ['invoice export', 'exporting invoices', 'invoices export', 'export of the invoices'],
  ['search latency', 'latency of search', 'slow searches', 'search response time'],
  ['onboarding email', 'welcome email', 'onboarding emails', 'email for onboarding'],
  ['CI pipeline', 'build pipeline', 'CI pipelines', 'continuous integration pipeline'],
  ['mobile app crash', 'crashes in the mobile app', 'app crashing on mobile', 'mobile crash'],
  ['rate limiter', 'rate limiting', 'rate limits', 'limiter for requests'],
  ['error budget', 'error budgets', 'budget for errors', 'SLO error budget'],
  ['cache invalidation', 'invalidating the cache', 'cache invalidations', 'cache purge'],
  ['feature flag', 'feature flags', 'feature toggle', 'flag for the feature'],
  ['dark mode', 'dark theme', 'night mode', 'dark color scheme'],
  ['quarterly report', 'quarter report', 'quarterly reports', 'report for the quarter'],
  ['team offsite', 'offsite meeting', 'team retreat', 'offsite'],
  ['vacation plan', 'holiday plans', 'vacation plans', 'planned vacation'],
  ['dentist appointment', 'appointment with the dentist', 'dental appointment', 'dentist visit'],
  ['birthday party', 'birthday celebration', 'party for the birthday', 'birthday parties'],
  ['apartment lease', 'lease for the apartment', 'flat lease', 'rental lease'],
  ['car insurance', 'insurance for the car', 'auto insurance', 'car insurance policy'],
  ['marathon training', 'training for the marathon', 'marathon prep', 'running plan'],
  ['sourdough recipe', 'recipe for sourdough', 'sourdough bread', 'sourdough starter'],
  ['garden irrigation', 'watering the garden', 'garden watering', 'irrigation system'],
  ['laptop upgrade', 'upgrading the laptop', 'new laptop', 'laptop replacement'],
  ['tax return', 'tax filing', 'filing taxes', 'tax returns'],
  ['kubernetes cluster', 'k8s cluster', 'kubernetes clusters', 'cluster on kubernetes'],
  ['log retention', 'retention of logs', 'keeping logs', 'log retention policy'],
  ['password rotation', 'rotating passwords', 'password rotations', 'credential rotation'],
  ['dependency update', 'updating dependencies', 'dependency updates', 'upgrading the deps'],
  ['customer survey', 'survey of customers', 'customer surveys', 'user survey'],
  ['pricing page', 'page with prices', 'pricing pages', 'plans page'],
  ['data migration', 'migrating the data', 'data migrations', 'moving the data'],
  ['alerting rules', 'alert rules', 'alerting rule', 'rules for alerts'],
  ['hiring plan', 'plan for hiring', 'recruiting plan', 'hiring plans'],
  ['book club', 'reading club', 'book group', 'book clubs'],
  ['piano lessons', 'piano lesson', 'lessons for piano', 'piano classes'],
  ['flight to Lisbon', 'Lisbon flight', 'flying to Lisbon', 'trip to Lisbon'],
  ['wedding gift', 'gift for the wedding', 'wedding present', 'wedding gifts'],
]

// What was decided or stated: an answer the question's words do not contain.
const ANSWERS = [
  'we go with Postgres 16 and run it on Friday after the backup window',
  'keep it behind the flag until the 14th, then ramp to 25% of traffic',
  'Maria owns it from now on, with Kenji as the backup reviewer',
  'the budget is 4,800 euros, approved by finance last Tuesday',
  'it moves to Thursday at 9:30, in the small room on the third floor',
  'we drop the old vendor and sign with Northwind for two years',
  'retry three times with exponential backoff, capped at 30 seconds',
  'the root cause was a missing index on the events table',
  'it ships in version 4.2, not 4.1, because of the audit',
  'we keep 90 days hot and move the rest to cold storage',
  'use the blue palette from the brand kit, not the purple one',
  'book the 7:15 morning slot, window seat, with one checked bag',
  'the code is ORCHID-7731 and it expires at the end of the month',
  'we chose the cheaper plan, 12 dollars per seat, billed yearly',
  'my sister Clara will handle it while I am in Osaka',
  'the limit is 600 requests per minute per API key',
  'it failed because the certificate expired on the 3rd',
  'postpone it to spring; the contractor is booked until March',
  'the winner was option B, the one with the shorter form',
  'Dr. Okafor at 4 pm on the 21st, bring the x-rays',
]

const QUESTION_FORMS = [
  (s) => `what did we decide about the ${s}?`,
  (s) => `remind me what we settled on for the ${s}`,
  (s) => `what was the conclusion on ${s}?`,
  (s) => `do you remember what happened with the ${s}?`,
  (s) => `what's the plan for ${s} again?`,
  (s) => `what did I tell you regarding the ${s}?`,
]

const ASK_FORMS = [
  (s) => `Can we settle the ${s} question today?`,
  (s) => `Quick one about the ${s}: where did we land?`,
  (s) => `I need a decision on the ${s}.`,
  (s) => `Let's finalize the ${s}, please.`,
]

const STATE_FORMS = [
  (s, a) => `For the record, about the ${s}: ${a}.`,
  (s, a) => `Note on the ${s} — ${a}.`,
  (s, a) => `Update regarding the ${s}: ${a}.`,
]

const REPLY_FORMS = [(a) => `Decided: ${a}.`, (a) => `Agreed, ${a}.`, (a) => `Done. Summary: ${a}.`]

// Filler: the same subjects in passing, and everyday chat.
const FILLER = [
  (s) => `I looked at the ${s} again this morning, nothing new yet.`,
  (s) => `Can you draft a short note about the ${s} for the team?`,
  (s) => `Here is a draft: "Heads-up on the ${s}: still in progress, details to follow."`,
  (s) => `The ${s} came up in the standup, people asked for a timeline.`,
  (s) => `Let me check the ${s} and get back to you.`,
  (s) => `No blockers on the ${s} for now.`,
  (s) => `Could you summarise the open questions about the ${s}?`,
  (s) => `Open questions on the ${s}: owner, timing, and cost. None answered yet.`,
  () => 'Thanks, that helps.',
  () => 'Sure, give me a minute to look into it.',
  () => 'Here is the output of the last build: tests passed, lint has 3 warnings in src/lib.rs:42:5.',
  () => 'Please rerun the tests on node 24 and then ship it if green.',
  () => 'I pushed the fix in PR #1187, can you review it?',
  () => 'The p95 regressed by 12% after the deploy; rolling back now.',
  () => 'Reminder set for tomorrow at 10.',
  () => 'Good morning! What is on the agenda today?',
  () => 'Let us pick this up after lunch.',
  () => 'I will be offline for an hour.',
  () => 'Can you translate this to French: "the meeting is moved to Monday"?',
  () => 'La réunion est déplacée à lundi.',
  () => '请把这个发给团队，谢谢。',
  () => 'テストは全部通りました。',
  () => 'Sounds good 👍',
  () => 'Weather looks rainy for the weekend, maybe reschedule the hike.',
  () => 'The invoice INC-20261128-0914 was sent to accounting.',
  () => 'See https://ci.example.com/builds/8841?tab=logs for the full log.',
]

function pick(next, list) {
  return list[Math.floor(next() * list.length)]
}

// Time: each chat is a user in one time zone, chatting on some 60 days spread over about six months
// (a gap of 1-5 days between them), a few turns at a time from the morning to the evening, a new
// backend session every few days. Timestamps are UTC instants (`toISOString()`), the local times
// turned into them with Intl (the search does the same with its own tz database).
const ZONES = ['Europe/Berlin', 'America/New_York', 'Asia/Tokyo', 'America/Los_Angeles', 'UTC', 'Australia/Sydney']
const DAY_MS = 86400000
const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
]
const WEEKDAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']

const formatters = new Map()
/** The zone's offset from UTC at the instant `ms`, in ms. */
function zoneOffset(zone, ms) {
  let format = formatters.get(zone)
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    })
    formatters.set(zone, format)
  }
  const parts = Object.fromEntries(format.formatToParts(new Date(ms)).map((p) => [p.type, Number(p.value)]))
  const wall = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second)
  return wall - Math.floor(ms / 1000) * 1000
}

/** The instant of local day `day` (days since 1970-01-01) at `minutes` past its midnight in `zone`. */
function localInstant(zone, day, minutes) {
  const wall = day * DAY_MS + minutes * 60000
  let utc = wall - zoneOffset(zone, wall)
  utc = wall - zoneOffset(zone, utc)
  return utc
}

/** The local day of the instant `ms` in `zone`. */
function localDay(zone, ms) {
  return Math.floor((ms + zoneOffset(zone, ms)) / DAY_MS)
}

const civil = (day) => new Date(day * DAY_MS)
const weekday = (day) => (((day + 3) % 7) + 7) % 7 // Monday 0 (1970-01-01 was a Thursday)
const NUMBER_WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six']

// Temporal questions: a question about a planted fact with a time expression that is true of the
// fact's local day at the question's `now` (the day it is asked: `after` days later, at an hour of
// the day). Each form gives its text and how many days later it may be asked.
const TEMPORAL_FORMS = [
  {
    after: () => 1,
    text: (s) => `what did we decide yesterday about the ${s}?`,
  },
  {
    after: (next) => 2 + Math.floor(next() * 5),
    text: (s, _day, after) => `remind me what we settled on for the ${s} ${NUMBER_WORDS[after] ?? after} days ago`,
  },
  {
    // Asked in the week after the fact's: "last week".
    after: (next, day) => 7 - weekday(day) + Math.floor(next() * 7),
    text: (s) => `what did we decide last week about the ${s}?`,
  },
  {
    // The most recent such weekday before the day asked.
    after: (next) => 1 + Math.floor(next() * 6),
    text: (s, day) => `what did I tell you last ${WEEKDAY_NAMES[weekday(day)]} regarding the ${s}?`,
  },
  {
    after: (next) => 5 + Math.floor(next() * 50),
    text: (s, day) => `what happened in ${MONTH_NAMES[civil(day).getUTCMonth()]} with the ${s}?`,
  },
  {
    after: (next) => 3 + Math.floor(next() * 40),
    text: (s, day) =>
      `what was the conclusion on ${s} on ${MONTH_NAMES[civil(day).getUTCMonth()]} ${civil(day).getUTCDate()}?`,
  },
  {
    after: (next) => 1 + Math.floor(next() * 60),
    text: (s, day) => `do you remember what we said about the ${s} on ${civil(day).toISOString().slice(0, 10)}?`,
  },
  {
    // "last month", asked in the month after the fact's.
    after: (_next, day) => {
      const date = civil(day)
      const nextMonth = Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1) / DAY_MS
      return nextMonth - day + Math.floor(_next() * 20)
    },
    text: (s) => `what's the plan for ${s} we made last month?`,
  },
  {
    // "before the <event>" or "after the <event>": an event of the chat (EVENTS), found in the log.
    event: true,
  },
  {
    // "before <a date a few days after it>": the open span before it.
    after: (next) => 1 + Math.floor(next() * 3),
    text: (s, day, after) => {
      const until = civil(day + after)
      return `what did we decide about the ${s} before ${MONTH_NAMES[until.getUTCMonth()]} ${until.getUTCDate()}?`
    },
    asked: (next) => 10 + Math.floor(next() * 30),
  },
]

// Events: one per chat, stated once in its log (a user turn near its middle); a temporal question
// may place its fact before or after it ("what did we decide about X before the office move?").
const EVENTS = [
  ['datacenter migration', 'We finished the datacenter migration today, everything runs on the new servers.'],
  ['office move', 'The office move is done: we work from the new building from today on.'],
  ['product launch', 'The product launch went out this morning, press release included.'],
  ['security review', 'The security review is over, the reviewers signed off today.'],
  ['team reorg', 'The team reorg is official as of today.'],
]

/**
 * One chat: `turns` entries over `sessions` sessions, with `facts` planted facts. Returns
 * `{ entries, questions, zone, end }`: entries are log entry objects; each question is
 * `{ query, evidence, kind, temporal, now }` with `evidence` the 0-based index of the entry that
 * holds the answer and `now` the time it is asked (epoch ms; the chat's end for a question without
 * time words, a day that makes the time words true of the fact's local day for a temporal one).
 * With `temporal` (default true) each fact is asked about twice: in other words, and in other words
 * with a time expression.
 */
function makeChat(seed, { turns = 600, sessions = 12, facts = 30, temporal = true } = {}) {
  const next = rng(seed)
  const entries = []
  const questions = []
  const subjects = SUBJECTS.slice().sort(() => next() - 0.5)
  const plantAt = new Set()
  while (plantAt.size < Math.min(facts, subjects.length)) {
    // Even positions (a user turn), never in the last 25 entries: what a reload already shows.
    plantAt.add(2 * Math.floor(next() * ((turns - 30) / 2)))
  }
  const zone = pick(next, ZONES)
  const [eventName, eventText] = pick(next, EVENTS)
  let eventAt
  do eventAt = 2 * Math.floor((turns * (0.3 + 0.4 * next())) / 2)
  while (plantAt.has(eventAt))
  // About 60 days of chatting from Monday 2026-01-05, 1-5 days apart: some six months.
  const dayCount = Math.max(1, Math.round(turns / 10))
  const days = []
  let day = Date.UTC(2026, 0, 5) / DAY_MS
  for (let d = 0; d < dayCount; d++) {
    days.push(day)
    day += 1 + Math.floor(next() * 5)
  }
  const perSession = Math.max(1, Math.ceil(dayCount / sessions))
  let fact = 0
  let clock = 0
  let lastDay = -1
  const stamp = (i) => {
    const d = Math.min(dayCount - 1, Math.floor((i * dayCount) / turns))
    if (d !== lastDay) {
      // The day's first turn, between 08:00 and 20:00 local time.
      clock = localInstant(zone, days[d], 480 + Math.floor(next() * 720))
      lastDay = d
    } else {
      clock += 20000 + Math.floor(next() * 220000)
    }
    return { ts: new Date(clock).toISOString(), session: `s${Math.floor(d / perSession)}` }
  }
  for (let i = 0; i < turns; i++) {
    const { ts, session } = stamp(i)
    const role = i % 2 === 0 ? 'user' : 'assistant'
    let text
    if (i === eventAt) {
      entries.push({ ts, role, text: eventText, session, id: `m${i}` })
      continue
    }
    if (role === 'user' && plantAt.has(i)) {
      const variants = subjects[fact % subjects.length]
      const answer = pick(next, ANSWERS)
      const planted = pick(next, variants)
      const others = variants.filter((v) => v !== planted)
      const asked = pick(next, others)
      const query = pick(next, QUESTION_FORMS)(asked)
      let evidence
      let kind
      if (next() < 0.5) {
        text = pick(next, ASK_FORMS)(planted)
        entries.push({ ts, role, text, session, id: `m${i}` })
        i++
        const replied = new Date(Date.parse(ts) + 30000).toISOString()
        clock = Date.parse(replied)
        entries.push({ ts: replied, role: 'assistant', text: pick(next, REPLY_FORMS)(answer), session, id: `m${i}` })
        evidence = i
        kind = 'reply'
      } else {
        text = pick(next, STATE_FORMS)(planted, answer)
        entries.push({ ts, role, text, session, id: `m${i}` })
        evidence = i
        kind = 'stated'
      }
      questions.push({ query, evidence, kind, temporal: false })
      if (temporal) {
        const form = pick(next, TEMPORAL_FORMS)
        const subject = pick(next, others)
        if (form.event) {
          // Asked at the chat's end.
          const side = evidence < eventAt ? 'before' : 'after'
          const query = `what did we decide about the ${subject} ${side} the ${eventName}?`
          questions.push({ query, evidence, kind, temporal: true, event: true })
        } else {
          const factDay = localDay(zone, Date.parse(ts))
          const after = form.after(next, factDay)
          const askedOn = factDay + (form.asked ? form.asked(next) : after)
          const now = Math.max(
            Date.parse(entries[evidence].ts) + 60000,
            localInstant(zone, askedOn, 540 + Math.floor(next() * 720)),
          )
          questions.push({ query: form.text(subject, factDay, after), evidence, kind, temporal: true, now })
        }
      }
      fact++
      continue
    }
    const filler = pick(next, FILLER)
    text = filler(pick(next, pick(next, subjects)))
    entries.push({ ts, role, text, session, id: `m${i}` })
  }
  const end = Date.parse(entries[entries.length - 1].ts) + 3600000
  for (const q of questions) q.now ??= end
  return { entries, questions, zone, end }
}

// Prose for the bench's big log: a vocabulary as large as a real chat history's (common English
// words, then 40,000 made-up words drawn with a Zipf-like law: a few very frequent, most rare), so
// that the index's dictionary and posting lists have a realistic size.
const COMMON = (
  'time year people way day man thing woman life child world school state family student group ' +
  'country problem hand part place case week company system program question work government ' +
  'number night point home water room mother area money story fact month lot right study book ' +
  'eye job word business issue side kind head house service friend father power hour game line ' +
  'end member law car city community name president team minute idea kid body information back ' +
  'parent face others level office door health person art war history party result change ' +
  'morning reason research girl guy moment air teacher force education make know take see come ' +
  'think look want give use find tell ask seem feel try leave call good new first last long great ' +
  'little own other old right big high different small large next early young important few ' +
  'public bad same able server client request response deploy build test release branch commit ' +
  'merge review ticket bug fix patch config cluster node pod container image registry token'
).split(' ')
const SYLLABLES = 'ka lo mi ne ru sa ti vo be da fe gi ho ju ke li mo nu pa qe ri so tu ve wa xi yo ze'.split(' ')

function madeUpWord(rank) {
  let word = ''
  let n = rank + 1
  while (n > 0) {
    word += SYLLABLES[n % SYLLABLES.length]
    n = Math.floor(n / SYLLABLES.length)
  }
  return word
}

const MADE_UP = Array.from({ length: 40000 }, (_, i) => madeUpWord(i))

/** `count` words of prose: common words half the time, else a made-up word of Zipf-like rank. */
function prose(next, count) {
  const out = []
  for (let i = 0; i < count; i++) {
    if (next() < 0.5) out.push(COMMON[Math.floor(next() * next() * COMMON.length)])
    else out.push(MADE_UP[Math.floor(Math.exp(next() * Math.log(MADE_UP.length))) - 1])
  }
  return out.join(' ')
}

/**
 * Lines of a long log for the bench: chats of `makeChat` one after the other (each a few sessions),
 * each entry's text followed by 10-80 words of prose. Calls `onChat(questions, firstLine)` for
 * each chat (lines are 1-based); returns a function giving the next line (without its newline).
 */
function benchLines(seed, onChat = () => {}) {
  const next = rng(seed)
  let chat = 0
  let line = 0
  let pending = []
  return () => {
    if (pending.length === 0) {
      const { entries, questions } = makeChat(seed * 7919 + chat++, { turns: 600, facts: 20, temporal: false })
      onChat(questions, line + 1)
      pending = entries
    }
    const entry = pending.shift()
    line++
    entry.text = `${entry.text} ${prose(next, 10 + Math.floor(next() * 70))}`
    return JSON.stringify(entry)
  }
}

module.exports = { makeChat, prose, benchLines, SUBJECTS, FILLER, zoneOffset, localDay }
