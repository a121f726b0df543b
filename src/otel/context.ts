import { AsyncLocalStorage } from "node:async_hooks";
import type { Context, ContextManager } from "@opentelemetry/api";
import { api } from "./api.js";

const { context, createContextKey, ROOT_CONTEXT } = api;

/**
 * A context manager on `AsyncLocalStorage`, so the span of a request a server handles is the
 * parent of the requests its handler sends on (a proxy's upstream calls) without passing it by
 * hand. An application with its own (the Node SDK registers one) keeps it.
 */
class AsyncContextManager implements ContextManager {
  private readonly storage = new AsyncLocalStorage<Context>();

  active(): Context {
    return this.storage.getStore() ?? ROOT_CONTEXT;
  }

  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    ctx: Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    if (thisArg === undefined) return this.storage.run(ctx, fn, ...args);
    return this.storage.run(ctx, () => fn.call(thisArg, ...args));
  }

  bind<T>(ctx: Context, target: T): T {
    if (typeof target !== "function") return target;
    const manager = this;
    return function (this: unknown, ...args: unknown[]) {
      return manager.with(ctx, () => target.apply(this, args));
    } as T;
  }

  enable(): this {
    return this;
  }

  disable(): this {
    this.storage.disable();
    return this;
  }
}

let registered = false;

/**
 * Makes sure a context manager is registered: the API's default keeps no context at all. The
 * registration fails harmlessly where the application registered its own.
 */
export function ensureContextManager(): void {
  if (registered) return;
  registered = true;
  const probe = createContextKey("mcpkit.probe");
  const works = context.with(
    ROOT_CONTEXT.setValue(probe, true),
    () => context.active().getValue(probe) === true,
  );
  if (!works) context.setGlobalContextManager(new AsyncContextManager());
}
