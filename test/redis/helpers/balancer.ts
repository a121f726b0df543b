/** The round-robin balancer of scripts/replicas/ (no stickiness), for the replica tests. */
export { type Balancer, startBalancer } from "../../../scripts/replicas/balancer.mjs";
