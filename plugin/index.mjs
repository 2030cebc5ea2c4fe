// openclaw-context-native as an OpenClaw plugin: persistent chat for ACP sessions, with no
// patch of OpenClaw's dist. See docs/plugin.md.
import { reportCompactionStatus } from "./compaction-status.mjs";
import { PLUGIN_ID, resolveConfig } from "./config.mjs";
import { createPersistentChat } from "./persistent-chat.mjs";
import { REPLY_DISPATCH_PRIORITY, loadAcpRuntime, missingSeamLine, replyDispatchOptions } from "./seams.mjs";

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
    // OpenClaw ignores a promise from register(): the hooks are registered now, and pass every
    // turn through until the ACP runtime is imported (before the first turn, in practice: the
    // first reply_dispatch waits for it), and for good on a release without it.
    let chat = null;
    const ready = loadAcpRuntime()
      .then(({ acp, missing }) => {
        if (missing) api.logger.warn(missingSeamLine(missing));
        else chat = createPersistentChat({ config, acp, logger: api.logger });
        return chat;
      })
      .catch((error) => {
        api.logger.warn(`${PLUGIN_ID}: not started (${String(error?.message ?? error).split("\n")[0]}); every turn passes through untouched`);
        return null;
      });

    api.on("reply_dispatch", async (event, ctx) => (await ready)?.onReplyDispatch(event, ctx), replyDispatchOptions());
    api.on("before_message_write", (event, ctx) => chat?.onBeforeMessageWrite(event, ctx), { priority: REPLY_DISPATCH_PRIORITY });
    api.on("reply_payload_sending", (event, ctx) => chat?.onReplyPayloadSending(event, ctx));
    // Not awaited: the check runs in a worker and start-up does not wait for its answer.
    api.on("gateway_start", () => {
      reportCompactionStatus(api.logger, PLUGIN_ID);
    });

    const warning = hookTimeoutWarning(api.config);
    if (warning) api.logger.warn(warning);
  },
};
