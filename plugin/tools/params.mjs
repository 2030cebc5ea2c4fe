// A tool's parameters: one JSON Schema per tool, given unchanged to OpenClaw as the tool's
// `parameters` (the MCP bridge lists it as the tool's `inputSchema`) and used here to check each
// call. The checker knows exactly the keywords the schemas use (an object of strings and
// integers, `required`, `additionalProperties: false`, lengths, bounds, `default`); a schema with
// any other keyword fails at import, so the schema and the check cannot drift apart.
//
// No top-level `oneOf`/`anyOf`/`not`: model APIs refuse them in a tool's input schema, so a rule
// across parameters ("exactly one of id and line") is the tool's own, checked after this.

const SCHEMA_KEYS = new Set(['type', 'properties', 'required', 'additionalProperties', 'description'])
const PROPERTY_KEYS = {
  string: new Set(['type', 'description', 'minLength', 'maxLength']),
  integer: new Set(['type', 'description', 'minimum', 'maximum', 'default']),
}

/** Fails (at import) on a schema this checker does not fully understand. */
export function defineSchema(schema) {
  const unknown = (keys, known) => Object.keys(keys).filter((key) => !known.has(key))
  const bad = [
    ...unknown(schema, SCHEMA_KEYS),
    ...(schema.type === 'object' && schema.additionalProperties === false ? [] : ['type/additionalProperties']),
  ]
  for (const [name, property] of Object.entries(schema.properties)) {
    const known = PROPERTY_KEYS[property.type]
    if (!known) bad.push(`${name}.type`)
    else bad.push(...unknown(property, known).map((key) => `${name}.${key}`))
  }
  for (const name of schema.required ?? []) if (!Object.hasOwn(schema.properties, name)) bad.push(`required ${name}`)
  if (bad.length > 0) throw new Error(`tool schema uses what its checker does not check: ${bad.join(', ')}`)
  return Object.freeze(schema)
}

const shown = (value) => {
  const text = JSON.stringify(value)
  return text === undefined ? String(value) : text.length > 40 ? `${text.slice(0, 40)}…` : text
}

/** What a property accepts, in words (for the error text). */
function expected(property) {
  if (property.type === 'integer') {
    const { minimum, maximum } = property
    if (minimum !== undefined && maximum !== undefined) return `an integer from ${minimum} to ${maximum}`
    if (minimum !== undefined) return `an integer of at least ${minimum}`
    return 'an integer'
  }
  const { minLength = 0, maxLength } = property
  return `a string of ${minLength > 0 ? `${minLength} to ` : 'at most '}${maxLength ?? 'any'} characters`
}

function valid(property, value) {
  if (property.type === 'integer') {
    return (
      Number.isInteger(value) &&
      (property.minimum === undefined || value >= property.minimum) &&
      (property.maximum === undefined || value <= property.maximum)
    )
  }
  return (
    typeof value === 'string' &&
    value.length >= (property.minLength ?? 0) &&
    value.length <= (property.maxLength ?? Number.POSITIVE_INFINITY)
  )
}

/**
 * `{ params }` (the call's parameters with the defaults filled in) or `{ error }`, one sentence
 * naming the parameter. `raw` undefined or null counts as `{}` (a call with no arguments).
 */
export function checkParams(schema, raw) {
  const given = raw ?? {}
  if (typeof given !== 'object' || Array.isArray(given)) return { error: 'the parameters must be an object' }
  const names = Object.keys(schema.properties)
  const extra = Object.keys(given).filter((key) => !Object.hasOwn(schema.properties, key))
  if (extra.length > 0) {
    return {
      error: `unknown parameter ${extra.map((key) => `"${key.slice(0, 40)}"`).join(', ')} (it takes: ${names.join(', ')})`,
    }
  }
  for (const name of schema.required ?? []) {
    if (given[name] === undefined) return { error: `"${name}" is required: ${expected(schema.properties[name])}` }
  }
  const params = {}
  for (const [name, property] of Object.entries(schema.properties)) {
    const value = given[name]
    if (value === undefined) {
      if (property.default !== undefined) params[name] = property.default
      continue
    }
    if (!valid(property, value)) return { error: `"${name}" must be ${expected(property)} (got ${shown(value)})` }
    params[name] = value
  }
  return { params }
}
