'use strict'
// The plugin's time zone for the log's time words (plugin/time-zone.mjs): OpenClaw's
// agents.defaults.userTimezone when Intl knows it, else the host's; a zone's offset at an instant;
// a name the addon does not know retried as that offset. The module is ESM: the cases run in one
// child Node, with TZ set so that the host's zone is known.
const { spawnSync } = require('node:child_process')
const path = require('node:path')
const { pathToFileURL } = require('node:url')

const MODULE = pathToFileURL(path.join(__dirname, '..', 'plugin', 'time-zone.mjs')).href
const ADDON = path.join(__dirname, '..', 'index.js')

test('the configured zone, the host zone, offsets and the fallback to an offset', () => {
  const script = `import { userTimeZone, offsetMinutes, withTimeZone } from ${JSON.stringify(MODULE)};
    import { createRequire } from 'node:module';
    const native = createRequire(import.meta.url)(${JSON.stringify(ADDON)});
    const calls = [];
    const fake = async (timeZone) => {
      calls.push(timeZone);
      // The addon's own check of a name.
      return native.searchPersistentChatLog('/nonexistent/log.jsonl', 'x', { emptyIfMissing: true, now: 0, timeZone });
    };
    const out = {
      configured: userTimeZone({ agents: { defaults: { userTimezone: ' Asia/Tokyo ' } } }),
      invalid: userTimeZone({ agents: { defaults: { userTimezone: 'Mars/Olympus' } } }),
      none: userTimeZone(undefined),
      winter: offsetMinutes('Europe/Berlin', Date.UTC(2026, 0, 15, 12)),
      summer: offsetMinutes('Europe/Berlin', Date.UTC(2026, 6, 15, 12)),
      india: offsetMinutes('Asia/Kolkata', Date.UTC(2026, 6, 15, 12)),
      known: await withTimeZone('Europe/Berlin', 0, fake),
    };
    // A name Intl knows (an alias) and the addon refused would be retried as an offset: shown
    // with a fake addon that refuses every name.
    const refusing = async (timeZone) => {
      calls.push(timeZone);
      if (typeof timeZone === 'string') throw new RangeError('The value of "options.timeZone" is invalid.');
      return timeZone;
    };
    out.retried = await withTimeZone('Europe/Berlin', Date.UTC(2026, 6, 15, 12), refusing);
    out.other = await withTimeZone('UTC', 0, async () => { throw new RangeError('The value of "options.limit" is out of range.') }).catch((e) => e.message);
    out.calls = calls;
    process.stdout.write(JSON.stringify(out));`
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
    env: { ...process.env, TZ: 'America/New_York' },
  })
  expect(child.stderr).toBe('')
  expect(JSON.parse(child.stdout)).toEqual({
    configured: 'Asia/Tokyo',
    invalid: 'America/New_York',
    none: 'America/New_York',
    winter: 60,
    summer: 120,
    india: 330,
    known: [],
    retried: 120,
    other: 'The value of "options.limit" is out of range.',
    calls: ['Europe/Berlin', 'Europe/Berlin', 120],
  })
})
