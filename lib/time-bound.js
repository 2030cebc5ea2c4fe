'use strict'
// A `--since`/`--until` value as the addon reads it (epoch milliseconds as digits alone, or an
// ISO-8601 date or date-time, no zone being UTC), so that the command can say a window is
// empty (`--until` not after `--since`) before any work. A value this reader does not take is
// left to the addon, which names it (a RangeError): this is a check, not the parser.
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2}))?(?:[.,](\d+))?(Z|z|[+-]\d{2}(?::?\d{2})?)?)?$/

/** Minutes east of UTC of `+02:00`, `-0530`, `+01`, `Z` (0). */
function zoneMinutes(zone) {
  if (!zone || zone === 'Z' || zone === 'z') return 0
  const digits = zone.slice(1).replace(':', '')
  const minutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || 0)
  return zone[0] === '-' ? -minutes : minutes
}

/** Epoch ms of `text`, or undefined when it is not a bound this reader takes. */
function boundMs(text) {
  const value = String(text).trim()
  if (/^\d+$/.test(value)) return Number(value)
  const m = ISO.exec(value)
  if (!m) return undefined
  const [, year, month, day, hour = '0', minute = '0', second = '0', fraction = '', zone] = m
  const ms = Date.UTC(+year, +month - 1, +day, +hour, +minute, +second, Number(`0.${fraction || 0}`) * 1000)
  return Number.isFinite(ms) ? ms - zoneMinutes(zone) * 60000 : undefined
}

/** Why `since`..`until` selects nothing (`--until` not after `--since`), or undefined. */
function emptyWindow(since, until) {
  if (since === undefined || until === undefined) return undefined
  const from = boundMs(since)
  const to = boundMs(until)
  if (from === undefined || to === undefined || to > from) return undefined
  return `--until (${until}) must be after --since (${since}): no entry is at or after one and before the other`
}

module.exports = { boundMs, emptyWindow }
