// A jest reporter for the platform runs: writes OCCN_JEST_SUMMARY (a JSON
// file) with each test's spec file, name and status. jest's own --json
// crashes under Wine (a failure detail with a circular structure).
'use strict'
const fs = require('node:fs')
const path = require('node:path')

class SummaryReporter {
  onRunComplete(_contexts, results) {
    const file = process.env.OCCN_JEST_SUMMARY
    if (!file) return
    const tests = []
    for (const suite of results.testResults) {
      const spec = path
        .relative(path.resolve(__dirname, '..', '..', '__test__'), suite.testFilePath)
        .split(path.sep)
        .join('/')
      if (suite.testExecError)
        tests.push({
          spec,
          name: '(the spec file failed to run)',
          status: 'failed',
          message: String(suite.testExecError.message).slice(0, 300),
        })
      for (const test of suite.testResults) {
        tests.push({
          spec,
          name: test.fullName,
          status: test.status,
          ms: test.duration ?? undefined,
          message:
            test.status === 'failed'
              ? String(test.failureMessages[0] || '')
                  .replace(/\x1b\[[0-9;]*m/g, '')
                  .slice(0, 300)
              : undefined,
        })
      }
    }
    fs.writeFileSync(file, JSON.stringify(tests, null, 1))
  }
}
module.exports = SummaryReporter
