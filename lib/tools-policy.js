'use strict'
// Whether an ACP backend would see the plugin's chat-log tools, from the gateway's config alone
// (for `openclaw-context doctor`): the plugin-tools MCP bridge switch, and OpenClaw's global tool
// policy as the bridge applies it (tested on 2026.9.6, shared notes "Tool policy on the bridge"):
// no `tools` config shows them; a `tools.profile` other than "full", or a `tools.allow` list,
// hides them unless `tools.allow` / `tools.alsoAllow` names them (their names, `group:plugins`,
// the plugin's id or `*`); `tools.deny` naming them hides them whatever else says.
// Per-agent policies (`agents.list[].tools`, applied by 2026.8 on) are not read.

const { quoteArg } = require('./shell-quote')

const PLUGIN_ID = require('../openclaw.plugin.json').id
const TOOL_NAMES = require('../openclaw.plugin.json').contracts.tools
const BRIDGE_SETTING = 'plugins.entries.acpx.config.pluginToolsMcpBridge'

const names = (value) => (Array.isArray(value) ? value.filter((item) => typeof item === 'string') : [])
const mentions = (list, tool) => list.some((item) => [tool, 'group:plugins', PLUGIN_ID, '*'].includes(item))

/**
 * `{ bridge, hidden: [{ tool, why }], fix }` for the config: `bridge` whether the bridge is on,
 * `hidden` the tools the policy hides and why, `fix` the commands that show them (or undefined).
 */
function toolsVisibility(config) {
  const bridge = config?.plugins?.entries?.acpx?.config?.pluginToolsMcpBridge === true
  const tools = config?.tools ?? {}
  const allow = names(tools.allow)
  const alsoAllow = names(tools.alsoAllow)
  const deny = names(tools.deny)
  const profile = typeof tools.profile === 'string' ? tools.profile : undefined
  const restricted = []
  if (profile !== undefined && profile !== 'full') restricted.push(`tools.profile "${profile}"`)
  if (allow.length > 0) restricted.push('tools.allow')
  const hidden = []
  for (const tool of TOOL_NAMES) {
    if (mentions(deny, tool)) hidden.push({ tool, why: 'tools.deny names it', deny: true })
    else if (restricted.length > 0 && !mentions([...allow, ...alsoAllow], tool))
      hidden.push({ tool, why: `${restricted.join(' and ')} leave it out and tools.alsoAllow does not name it` })
  }
  const fixes = []
  if (hidden.some((item) => !item.deny)) {
    const wanted = [...new Set([...alsoAllow, ...TOOL_NAMES])]
    fixes.push(`openclaw config set tools.alsoAllow ${quoteArg(JSON.stringify(wanted))} --strict-json`)
  }
  if (hidden.some((item) => item.deny)) fixes.push(`remove ${TOOL_NAMES.join(' and ')} from tools.deny`)
  return { bridge, hidden, fix: fixes.length > 0 ? fixes.join('; ') : undefined }
}

module.exports = { toolsVisibility, BRIDGE_SETTING, TOOL_NAMES }
