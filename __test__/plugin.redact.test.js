'use strict'
// The plugin's masker (plugin/redact.mjs over the addon's SecretMasker, in a child process):
// typed placeholders, the config's pattern lists, refused patterns named in one warning line.
const path = require('node:path')
const { pathToFileURL } = require('node:url')

const { runPlugin } = require('./fixtures/plugin-unit')

const INDEX = pathToFileURL(path.resolve(__dirname, '..', 'plugin', 'index.mjs')).href

jest.setTimeout(60000)

function redact(texts, { patterns = [], openclawConfig } = {}) {
  return runPlugin(`
    const { createRedactor, refusedPatternsLine } = await u.importPlugin("redact.mjs");
    const redactor = await createRedactor({ patterns: ${JSON.stringify(patterns)}, openclawConfig: ${JSON.stringify(openclawConfig ?? null)} });
    const out = [];
    for (const text of ${JSON.stringify(texts)}) out.push(await redactor.redact(text));
    return { out, refused: redactor.refused, line: refusedPatternsLine("occn", redactor.refused) ?? null };`)
}

test('API keys, tokens, passwords and private keys become typed placeholders; the words around them stay', () => {
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
    'my PIN is <private>4921</private>, <PRIVATE>and this',
    'Set up the database on port 5432, with the token bucket limiter',
    '',
  ]
  const { out, refused, line } = redact(texts)
  expect(out).toEqual([
    'openai [redacted:api-key] here',
    'anthropic [redacted:api-key]',
    'github [redacted:github-token] and [redacted:github-token]',
    'slack [redacted:slack-token]',
    'aws [redacted:aws-access-key] key',
    'google [redacted:google-api-key]',
    'stripe [redacted:stripe-key]',
    'jwt [redacted:jwt]',
    'Authorization: Bearer [redacted:authorization]',
    'password=[redacted:password], "api_key": "[redacted:api-key]"',
    'postgres://app:[redacted:password]@db:5432/app',
    'key:\n[redacted:private-key]\nthanks',
    'torn paste [redacted:private-key]',
    'my PIN is [redacted:private], [redacted:private]',
    'Set up the database on port 5432, with the token bucket limiter',
    '',
  ])
  for (const text of out) expect(text).not.toMatch(/\*\*\*|…/)
  expect(refused).toEqual([])
  expect(line).toBeNull()
})

test('redactPatterns and logging.redactPatterns apply as [redacted:custom]; a group masks only itself', () => {
  const texts = ['vault ACME-7f3a9c2e1b, ticket INC-123456, pin=0042']
  const patterns = ['ACME-[0-9a-f]{10}', '/pin=(\\d+)/i']
  expect(redact(texts, { patterns, openclawConfig: { logging: { redactPatterns: ['INC-\\d{6}'] } } }).out).toEqual([
    'vault [redacted:custom], ticket [redacted:custom], pin=[redacted:custom]',
  ])
})

test('a pattern the engine cannot use is refused, named with its setting and reason; the others still apply', () => {
  const { out, refused, line } = redact(['ACME-7f3a9c2e1b and INC-123456 and xyz'], {
    patterns: ['ACME-[0-9a-f]{10}', '(?<=x)yz', 'x*'],
    openclawConfig: { logging: { redactPatterns: ['INC-\\d{6}', '(a)\\1', 42] } },
  })
  expect(out).toEqual(['[redacted:custom] and [redacted:custom] and xyz'])
  expect(refused).toEqual([
    { setting: 'logging.redactPatterns[1]', pattern: '(a)\\1', reason: expect.stringMatching(/backreference/) },
    { setting: 'redactPatterns[1]', pattern: '(?<=x)yz', reason: expect.stringMatching(/look-around/) },
    { setting: 'redactPatterns[2]', pattern: 'x*', reason: 'it matches the empty string' },
  ])
  expect(line).toMatch(/^occn: masking patterns not used: logging\.redactPatterns\[1\] "\(a\)\\\\1" \(.*backreference/)
  expect(line).toContain('redactPatterns[2] "x*" (it matches the empty string); the other patterns apply')
  expect(line).not.toContain('\n')
})

test('at start-up, refused patterns are one warning line; the gateway starts', () => {
  const out = runPlugin(`
    const { default: plugin } = await import(${JSON.stringify(INDEX)});
    const lines = [];
    const logger = { info: (m) => lines.push(['info', m]), warn: (m) => lines.push(['warn', m]), error: (m) => lines.push(['error', m]), debug: () => {} };
    plugin.register({
      pluginConfig: { redactPatterns: ['ACME-\\\\d+', '(?<=a)b'] },
      config: { logging: { redactPatterns: ['x*'] } },
      logger,
      runtime: { state: { resolveStateDir: () => '/nonexistent/state' } },
      on: () => {},
    });
    // The masker is built in microtasks: any timer runs after them.
    await new Promise((resolve) => setTimeout(resolve, 0));
    return lines.filter(([, m]) => m.includes('masking'));`)
  expect(out).toEqual([
    [
      'warn',
      'openclaw-context-native: masking patterns not used: logging.redactPatterns[0] "x*" (it matches the empty string); ' +
        'redactPatterns[1] "(?<=a)b" (look-around, including look-ahead and look-behind, is not supported); the other patterns apply',
    ],
  ])
})
