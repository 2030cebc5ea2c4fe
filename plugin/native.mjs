// The addon, loaded from this package (the plugin is ESM, the addon's loader CommonJS).
// The plugin calls only the Promise variants: their file I/O and work run on the libuv
// thread pool, so a slow disk never stalls the gateway's other chats. Every chat file is the
// ChatStore's: opened, checked, read and written by it.
import { createRequire } from 'node:module'

const native = createRequire(import.meta.url)('../index.js')

export const buildInjectedPromptReport = (params) => native.buildPersistentChatInjectedPromptReportAsync(params)

/** One chat folder's store (the layout, the file rules, the append, the atomic replace). */
export const { ChatStore } = native
