// The demo's "Before": the real OpenClaw's capCompactionSummaryPreservingSuffix on a sample,
// printed as JSON. Run by scripts/demo.js under Node 22 (the dist does not load on 20):
//
//   node22 scripts/demo-openclaw.mjs OPENCLAW_DIR SAMPLE.json
import fs from 'node:fs'
import { loadOpenClawTesting } from '../dev/openclaw-oracle.mjs'

const [openclawDir, samplePath] = process.argv.slice(2)
const { testing } = await loadOpenClawTesting(openclawDir)
const { summaryBody, suffix } = JSON.parse(fs.readFileSync(samplePath, 'utf8'))
process.stdout.write(JSON.stringify(testing.capCompactionSummaryPreservingSuffix(summaryBody, suffix)))
