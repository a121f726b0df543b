export { createMemoryTransportPair } from "./pair.js";
