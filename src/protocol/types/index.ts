export type * from "./base.js";
export type * from "./content.js";
export type * from "./lifecycle.js";
export type * from "./tools.js";
