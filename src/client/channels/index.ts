export type { Channel, FeatureAnswerer, ListKind } from "./channel.js";
