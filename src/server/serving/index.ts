export type { AuthOption, ServeHttpOptions, WebHandlerOptions } from "./http.js";
