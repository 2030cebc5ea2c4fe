'use strict'
// The persistent-chat functions are the operator's own patch (no OpenClaw release has
// them), so `patch` does not edit them: it lists the files and prints the lines that route
// them to this package.
const path = require('node:path')
const { PACKAGE_NAME, asciiLiteral } = require('./patch-text')
const { quoteArg } = require('./shell-quote')

const SUMMARY_CALL = [
  '  return __occnPersistentChat.rebuildPersistentChatContinuitySummary({',
  '    statePath,      // the memory-state JSON (decisions, guardrails, pendingThreads, timers, ...)',
  '    logPath,        // the perpetual JSON Lines log',
  '    currentSession, // the backend session id now in use (drops failures from before a reload)',
  '    now: new Date().toISOString(), // maxChars too, to change the default cap (docs/api.md)',
  '  });',
]
const PROMPT_CALL = [
  '  return __occnPersistentChat.buildPersistentChatInjectedPrompt({',
  '    userMessage,       // the live message, verbatim',
  '    reload,            // shouldInjectPersistentChatPrompt(...): a reload or a new backend session',
  '    turnMetadata,      // string or flat object',
  '    continuitySummary, // contents of continuity-summary.txt',
  '    logPath,           // the perpetual JSON Lines log; continuousEntries, reloadEntries: docs/api.md',
  '  });',
]

/**
 * The report for `files` (`[{ file, functions }]` from dist-scan.js), as one string. `addon`:
 * the absolute path of the addon `patch` resolved and checked from the dist (as for its own
 * patch, the lines load that file, never the package by name), or undefined when none loads.
 */
function persistentChatAdvice(openclawDir, files, addon) {
  const defined = new Set(files.flatMap(({ functions }) => functions))
  return [
    '',
    'Your dist defines its own persistent-chat functions (this command does not modify them):',
    ...files.map(({ file, functions }) => `  ${quoteArg(path.relative(openclawDir, file))}: ${functions.join(', ')}`),
    'To make them use the native versions, add at the top of each of those files:',
    '  import { createRequire as __occnCreateRequire } from "node:module";',
    addon
      ? `  const __occnPersistentChat = __occnCreateRequire(import.meta.url)(${asciiLiteral(addon)});`
      : `  const __occnPersistentChat = __occnCreateRequire(import.meta.url)("/absolute/path/to/${PACKAGE_NAME}/index.js"); // ${PACKAGE_NAME} does not load from this dist yet: install it, then run patch again for the path`,
    'and make each function return the native result, mapping your variables to these parameters:',
    ...(defined.has('rebuildPersistentChatContinuitySummary') ? SUMMARY_CALL : []),
    ...(defined.has('buildPersistentChatInjectedPrompt') ? PROMPT_CALL : []),
  ].join('\n')
}

module.exports = { persistentChatAdvice }
