export * from "./errors.js";
export * from "./framing.js";
export * from "./messages.js";
