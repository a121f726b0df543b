export type * from "./base.js";
export type * from "./client-features.js";
export type * from "./completion.js";
export type * from "./content.js";
export type * from "./lifecycle.js";
export type * from "./prompts.js";
export type * from "./resources.js";
export type * from "./tools.js";
