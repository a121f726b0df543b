/**
 * `mcpkit proxy` as a library: serve one server over another transport (a bridge), or the servers of
 * a config file as one (an aggregate), with allow/deny lists and an audit log.
 */
export { AccessPolicy, type AccessRule } from "./access.js";
export type { AggregateOptions } from "./aggregate.js";
export {
  type AuditOutcome,
  type AuditRecord,
  type AuditSink,
  canonicalJson,
  digestArguments,
} from "./audit.js";
export { type AuditHead, GENESIS, hashLine } from "./audit-chain.js";
export { AuditLog, type AuditLogOptions } from "./audit-log.js";
export { type AuditVerification, verifyAuditLog } from "./audit-verify.js";
export type { BridgeOptions } from "./bridge.js";
export type { UpstreamAuth, UpstreamAuthRequest } from "./caller.js";
export {
  type CheckedProxyConfig,
  checkProxyConfig,
  loadProxyConfig,
  type ProxyConfig,
  type ProxyServerConfig,
} from "./config.js";
export {
  matchesPattern,
  type ParsedRule,
  parseToolRule,
  type ToolLists,
  ToolPolicy,
  type ToolRule,
} from "./filter.js";
export type { UpstreamLimits } from "./limits.js";
export {
  type CallOutcome,
  refusal,
  type ToolCallContext,
  type ToolCallMiddleware,
} from "./middleware.js";
export type { GatewaySettings, ProxyCommonOptions } from "./options.js";
export { type ToolOverride, ToolOverrides } from "./overrides.js";
export { GatewayPolicy, type PolicyRule } from "./policy.js";
export { createProxyServer, type ExposedTool, type ProxyOptions, ProxyServer } from "./proxy.js";
export { FORWARDED_CAPABILITIES } from "./questions.js";
export type { ProxyTasksOptions } from "./tasks.js";
