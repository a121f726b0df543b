export * from "./content.js";
export * from "./handshake.js";
export * from "./negotiate.js";
export * from "./peer.js";
export * from "./revisions/index.js";
export * from "./schema/index.js";
export type * from "./types/index.js";
