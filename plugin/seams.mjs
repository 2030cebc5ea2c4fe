// What the plugin needs of the running OpenClaw, and the release that added each. A release
// without them still loads the plugin: it logs one line naming what is missing and every turn
// passes through untouched (the handlers answer `undefined`, so OpenClaw dispatches as usual).

import { PLUGIN_ID } from './config.mjs'
import { oneLine, PLUGIN_FIRST_RELEASE } from './lib.mjs'
import { importSdk } from './openclaw-sdk.mjs'

/** The first release with the `reply_dispatch` hook and these functions. */
export const FIRST_SUPPORTED_RELEASE = PLUGIN_FIRST_RELEASE
export const ACP_RUNTIME_MODULE = 'openclaw/plugin-sdk/acp-runtime'
const ACP_RUNTIME_FUNCTIONS = ['tryDispatchAcpReplyHook', 'getAcpSessionManager', 'readAcpSessionEntry']

/**
 * `reply_dispatch` registration options: ahead of acpx (priority 0), which would otherwise
 * dispatch the turn itself; for ACP dispatches only where the release filters by kind
 * (`eligibleDispatchKinds`, 2026.8.2 on), so OpenClaw never calls the handler for an agent turn.
 * Releases before it ignore the option; the handler checks the session itself there.
 */
export const REPLY_DISPATCH_PRIORITY = 100
export const replyDispatchOptions = () => ({ priority: REPLY_DISPATCH_PRIORITY, eligibleDispatchKinds: ['acp'] })

/**
 * The ACP runtime module, `{ acp }`, or `{ missing }` (what this release lacks, in words).
 * Imported, not statically linked: a release without the module must still load the plugin.
 */
export async function loadAcpRuntime(importModule = () => importSdk('acp-runtime')) {
  let acp
  try {
    acp = await importModule(ACP_RUNTIME_MODULE)
  } catch (error) {
    return { missing: `${ACP_RUNTIME_MODULE} (${oneLine(error)})` }
  }
  const absent = ACP_RUNTIME_FUNCTIONS.filter((name) => typeof acp?.[name] !== 'function')
  if (absent.length > 0) return { missing: `${absent.join(', ')} in ${ACP_RUNTIME_MODULE}` }
  return { acp }
}

/** The one line logged on a release without the seams. */
export function missingSeamLine(missing) {
  return (
    `${PLUGIN_ID}: this OpenClaw has no ${missing}; OpenClaw ${FIRST_SUPPORTED_RELEASE} adds it, with the ` +
    `reply_dispatch hook. Every turn passes through untouched: update OpenClaw to ${FIRST_SUPPORTED_RELEASE} or newer`
  )
}
