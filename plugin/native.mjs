// The addon, loaded from this package (the plugin is ESM, the addon's loader CommonJS).
// The plugin calls only Promise methods: their file I/O and work run on the libuv thread pool,
// so a slow disk never stalls the gateway's other chats. Every chat file is the ChatStore's:
// opened, checked, read and written by it, and a turn's prompt is built there (prepareTurn).
import { createRequire } from 'node:module'

const native = createRequire(import.meta.url)('../index.js')

/** One chat folder's store (the layout, the file rules, the append, the atomic replace). */
export const { ChatStore } = native
