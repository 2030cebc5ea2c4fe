// openclaw-context-native as an OpenClaw plugin: persistent chat for ACP sessions, with no
// patch of OpenClaw's dist. See docs/plugin.md.
import * as acp from "openclaw/plugin-sdk/acp-runtime";

import { reportCompactionStatus } from "./compaction-status.mjs";
import { PLUGIN_ID, resolveConfig } from "./config.mjs";
import { createPersistentChat } from "./persistent-chat.mjs";

/** Ahead of acpx (priority 0), which would otherwise dispatch the turn itself. */
const REPLY_DISPATCH_PRIORITY = 100;

/**
 * A hook timeout set by the operator for this plugin would let OpenClaw stop waiting for a
 * long turn and hand it to acpx as well: the backend would get it twice.
 */
function hookTimeoutWarning(openclawConfig) {
  const hooks = openclawConfig?.plugins?.entries?.[PLUGIN_ID]?.hooks;
  const timeout = hooks?.timeouts?.reply_dispatch ?? hooks?.timeoutMs;
  return timeout === undefined
    ? undefined
    : `${PLUGIN_ID}: a hook timeout of ${timeout} ms applies to its reply_dispatch handler: a turn that ` +
        `runs longer is dispatched a second time, by acpx; remove plugins.entries.${PLUGIN_ID}.hooks.timeoutMs ` +
        "(or hooks.timeouts.reply_dispatch)";
}

export default {
  id: PLUGIN_ID,
  name: "openclaw-context-native",
  description: "Persistent chat for ACP sessions: a perpetual log, and a prompt that gives the backend what it has not seen",
  register(api) {
    const config = resolveConfig(api.pluginConfig, api.runtime.state.resolveStateDir(process.env));
    const chat = createPersistentChat({ config, acp, logger: api.logger });

    api.on("reply_dispatch", chat.onReplyDispatch, { priority: REPLY_DISPATCH_PRIORITY });
    api.on("before_message_write", chat.onBeforeMessageWrite, { priority: REPLY_DISPATCH_PRIORITY });
    api.on("reply_payload_sending", chat.onReplyPayloadSending);
    // Not awaited: the check runs in a worker and start-up does not wait for its answer.
    api.on("gateway_start", () => {
      reportCompactionStatus(api.logger, PLUGIN_ID);
    });

    const warning = hookTimeoutWarning(api.config);
    if (warning) api.logger.warn(warning);
  },
};
