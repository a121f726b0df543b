import type { JSONRPCMessage } from "../../jsonrpc/messages.js";
import { messageProblem } from "../../jsonrpc/messages.js";
import { answerInvalid, isClosedError, sendAnswer, serializable } from "./answers.js";
import { Batch } from "./batch.js";
import type { Peer } from "./peer.js";

/** A JSON-RPC batch: each message handled as if alone, the responses sent as one array. */
export function receiveBatch(peer: Peer, values: unknown[]): void {
  if (!peer.batches || values.length === 0) {
    const why =
      values.length === 0 ? "an empty batch" : "JSON-RPC batches are not accepted in this protocol revision";
    answerInvalid(peer, values, why);
    return;
  }
  const batch = new Batch((responses) => sendBatch(peer, responses));
  for (const value of values) {
    const problem = messageProblem(value);
    if (problem !== undefined) answerInvalid(peer, value, problem, batch);
    else peer.dispatch(value as JSONRPCMessage, undefined, batch);
  }
  batch.seal();
}

/** Sends the responses of a batch as one array, or one by one on a transport that cannot. */
function sendBatch(peer: Peer, responses: JSONRPCMessage[]): void {
  const transport = peer.transport;
  if (peer.isClosed) return;
  if (!transport.sendBatch) {
    for (const response of responses) sendAnswer(peer, response);
    return;
  }
  for (const response of responses) peer.traceSend(response);
  try {
    transport.sendBatch(responses);
  } catch (failure) {
    if (isClosedError(failure)) {
      peer.onerror(failure as Error);
      return;
    }
    // One of them cannot be serialized: it becomes the error that says so, the others stay.
    try {
      transport.sendBatch(responses.map(serializable));
    } catch (error) {
      peer.onerror(error as Error);
    }
  }
}
