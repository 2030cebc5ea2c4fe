// The user's time zone for the chat log's time words ("yesterday", "last week", "in May"): OpenClaw's
// `agents.defaults.userTimezone` when Intl knows it, else the host's zone, else UTC (the rule of
// OpenClaw's own resolveUserTimezone). The addon reads an IANA name with its own bundled tz
// database; a name it does not know (a zone newer than that database) is retried as the zone's
// offset at the turn's time, in minutes east of UTC, computed here with Intl.

/** The user's IANA time zone name. */
export function userTimeZone(openclawConfig) {
  const configured = openclawConfig?.agents?.defaults?.userTimezone
  if (typeof configured === 'string' && configured.trim()) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: configured.trim() })
      return configured.trim()
    } catch {}
  }
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone?.trim() || 'UTC'
  } catch {
    return 'UTC'
  }
}

/** The offset of `zone` from UTC at the instant `ms`, in whole minutes east of UTC. */
export function offsetMinutes(zone, ms) {
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
  })
  const parts = Object.fromEntries(format.formatToParts(new Date(ms)).map((p) => [p.type, Number(p.value)]))
  const wall = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute)
  return Math.round((wall - Math.floor(ms / 60000) * 60000) / 60000)
}

/**
 * `call(timeZone)` with the name; when the addon rejects the name (a RangeError naming
 * `timeZone`), again with the zone's offset at `ms`.
 */
export async function withTimeZone(zone, ms, call) {
  try {
    return await call(zone)
  } catch (error) {
    if (error?.name !== 'RangeError' || !String(error.message).includes('timeZone"')) throw error
    return call(offsetMinutes(zone, ms))
  }
}
