'use strict'
// The plugin's own mask (plugin/redact.mjs, in a child process): what it masks, what it
// keeps, and the `redactPatterns` setting on top of OpenClaw's mask when there is one.
const { runPlugin } = require('./fixtures/plugin-unit')

jest.setTimeout(60000)

function redact(texts, { patterns = [], openclawConfig, withOpenclaw = false } = {}) {
  return runPlugin(`
    const { createRedactor, compilePattern } = await u.importPlugin("redact.mjs");
    const redactor = createRedactor({
      patterns: ${JSON.stringify(patterns)}.map(compilePattern),
      openclawConfig: ${JSON.stringify(openclawConfig ?? null)},
      ${withOpenclaw ? 'openclawRedact: (text) => text.replaceAll("OPENCLAW-SECRET", "[openclaw]"),' : ''}
    });
    return { source: redactor.source, out: ${JSON.stringify(texts)}.map((t) => redactor.redact(t)) };`)
}

test('API keys, tokens, passwords and private keys are masked; the words around them stay', () => {
  const texts = [
    'openai sk-proj-Q2hhdFNlY3JldEtleUZvclRlc3RzMTIz here',
    'anthropic sk-ant-api03-abcdefghijklmnopqrstuvwxyz',
    'github ghp_abcdefghijklmnopqrstuvwxyz0123456789 and github_pat_11ABCDEFG0123456789_abcdefghij',
    'slack xoxb-1234567890-abcdefghij',
    'aws AKIAIOSFODNN7EXAMPLE key',
    'google AIzaSyA1234567890abcdefghijklmnopqrstuv',
    'stripe sk_live_abcdefghijklmnop1234',
    'jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
    'Authorization: Bearer abcdefghijklmnopqrstuvwxyz012345',
    'password=hunter2hunter, "api_key": "abcdefgh12"',
    'postgres://app:s3cr3tpw@db:5432/app',
    'key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----\nthanks',
    'torn paste -----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA',
    'Set up the database on port 5432, with the token bucket limiter',
  ]
  const { source, out } = redact(texts)
  expect(source).toBe('built-in')
  expect(out).toEqual([
    'openai sk-pro…MTIz here',
    'anthropic sk-ant…wxyz',
    'github ghp_ab…6789 and github…ghij',
    'slack xoxb-1…ghij',
    'aws AKIAIO…MPLE key',
    'google AIzaSy…stuv',
    'stripe sk_liv…1234',
    'jwt eyJhbG…sR8U',
    'Authorization: Bearer abcdef…2345',
    'password=***, "api_key": "***"',
    'postgres://app:***@db:5432/app',
    'key:\n-----BEGIN PRIVATE KEY-----***-----END PRIVATE KEY-----\nthanks',
    'torn paste -----BEGIN PRIVATE KEY-----***-----END PRIVATE KEY-----',
    'Set up the database on port 5432, with the token bucket limiter',
  ])
})

test("redactPatterns and logging.redactPatterns apply; a group masks only itself; OpenClaw's mask comes first", () => {
  const texts = ['vault ACME-7f3a9c2e1b, ticket INC-123456, pin=0042']
  const patterns = ['ACME-[0-9a-f]{10}', '/pin=(\\d+)/i']
  expect(redact(texts, { patterns, openclawConfig: { logging: { redactPatterns: ['INC-\\d{6}'] } } }).out).toEqual([
    'vault ***, ticket ***, pin=***',
  ])
  const withOpenclaw = redact(['OPENCLAW-SECRET and ACME-7f3a9c2e1b and sk-proj-Q2hhdFNlY3JldEtleUZvclRlc3RzMTIz'], {
    patterns,
    withOpenclaw: true,
  })
  expect(withOpenclaw).toEqual({ source: 'openclaw', out: ['[openclaw] and *** and sk-pro…MTIz'] })
})
