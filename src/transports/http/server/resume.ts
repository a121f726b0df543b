import { ErrorCode } from "../../../jsonrpc/errors.js";
import type { SseSink } from "../shared/exchange.js";
import { formatSseEvent } from "../shared/sse.js";
import type { StreamedRequest } from "./event-store.js";
import {
  collectInto,
  replayPaced,
  type StoredEvent,
  type Stream,
  type StreamOptions,
  storedEvent,
} from "./stream.js";

/**
 * Resumes on `sink`, after `Last-Event-ID`, a stream of this session that this replica writes:
 * what the client missed goes at its pace; then a synchronous store replays what came meanwhile
 * and the stream is attached in one step, so no message falls in between. A stream already done
 * ends once replayed, and `forget` is told.
 */
export async function resumeOwn(
  sink: SseSink,
  lastEventId: string,
  stream: Stream,
  options: StreamOptions,
  forget: (stream: Stream) => void,
): Promise<void> {
  const store = options.eventStore!;
  const missed: StoredEvent[] = [];
  const replayed = store.replayAfter(lastEventId, collectInto(missed));
  if (replayed instanceof Promise) await replayed;
  const last = (await replayPaced(sink, missed, options.maxBuffer)) ?? lastEventId;
  if (sink.closed) return;
  if (!(replayed instanceof Promise))
    store.replayAfter(last, (id, message) => sink.write(storedEvent(id, message)));
  if (stream.done) {
    forget(stream);
    sink.end();
  } else {
    stream.attach(sink, true);
  }
}

/** What resuming a stream another replica wrote needs of the session. */
interface SharedResumeHost {
  readonly options: StreamOptions;
  /** The streams of other replicas followed for clients here, each by what stops it. */
  readonly follows: Set<() => void>;
  /** Continues the session's GET stream on `sink`, or ends `sink` if a client already listens to it. */
  continueGet(sink: SseSink): void;
}

/**
 * Resumes a stream another replica wrote (the client lost it there): what it missed is replayed
 * from the shared event store. The GET stream (`isGet`) continues here; a request's stream ends,
 * and the client comes back for what follows until its response is among the replayed events.
 */
export async function resumeShared(
  sink: SseSink,
  lastEventId: string,
  isGet: boolean,
  host: SharedResumeHost,
): Promise<void> {
  const { options, follows } = host;
  const store = options.eventStore!;
  if (!isGet && store.follow) {
    // The request's stream goes on where it is written: follow it to its response. The retry
    // interval goes first, so the response starts before any event comes.
    sink.write(formatSseEvent({ retry: options.retryInterval, data: "" }));
    const stop = store.follow(
      lastEventId,
      (id, message) => sink.write(storedEvent(id, message)),
      (unanswered) => {
        follows.delete(stop);
        for (const request of unanswered ?? []) sink.write(formatSseEvent({ data: lostAnswer(request) }));
        sink.end();
      },
    );
    follows.add(stop);
    sink.onClose(() => {
      follows.delete(stop);
      stop();
    });
    return;
  }
  const missed: StoredEvent[] = [];
  try {
    await store.replayAfter(lastEventId, collectInto(missed));
  } catch {
    sink.end();
    return;
  }
  await replayPaced(sink, missed, options.maxBuffer);
  if (sink.closed) return;
  if (isGet) host.continueGet(sink);
  else sink.end();
}

/**
 * The answer to a request of a resumed stream whose writer died: as a stateless (2026-07-28)
 * client says of a stream that broke, it may have run, and it is not run again.
 */
function lostAnswer({ id, what }: StreamedRequest): string {
  const message = `The replica answering request ${JSON.stringify(id)} died before answering it (its liveness lease expired); ${what} may have run, so it is not run again: call it again if that is safe`;
  return JSON.stringify({ jsonrpc: "2.0", id, error: { code: ErrorCode.InternalError, message } });
}
