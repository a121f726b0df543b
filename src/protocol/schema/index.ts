export * from "./standard.js";
export * from "./validator.js";
