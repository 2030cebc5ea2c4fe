// One module of the running OpenClaw's plugin SDK (`openclaw/plugin-sdk/<name>`), imported when
// it is needed rather than statically, so that a release without it still loads the plugin.
// `openclaw` resolves from the plugin's folder where `openclaw plugins install` linked it (from
// 2026.4.27; a load path's loader may redirect it too); else from the package of the running
// `openclaw` command (`openclaw.mjs`), as for a plugin that 2026.4.5's installer copied without it.
import fs from 'node:fs/promises'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

export async function importSdk(name) {
  try {
    return await import(`openclaw/plugin-sdk/${name}`)
  } catch (error) {
    const root = await hostPackageRoot()
    if (!root) throw error
    return import(pathToFileURL(path.join(root, 'dist', 'plugin-sdk', `${name}.js`)).href)
  }
}

/** The folder of the `openclaw` package whose command runs this process, if it is one. */
async function hostPackageRoot() {
  try {
    const root = path.dirname(await fs.realpath(process.argv[1]))
    const manifest = JSON.parse(await fs.readFile(path.join(root, 'package.json'), 'utf8'))
    return manifest.name === 'openclaw' ? root : undefined
  } catch {
    return undefined
  }
}
