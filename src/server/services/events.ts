/** Things that happen in one service and matter to others, with what each carries. */
export type DomainEvents = {
  /**
   * A visitor signed in (or registered) in a browser that has an anonymous id: what they did
   * anonymously becomes the account's (search history, today's free searches).
   */
  signedIn: { anonymousId: string; userId: string };
};

type Handler<E extends keyof DomainEvents> = (event: DomainEvents[E]) => Promise<void> | void;

/**
 * In-process, typed events. `emit` waits for every subscriber in turn, so when it returns the
 * event's effects are visible (the response to a login already shows the adopted history).
 */
export function createEvents() {
  // Keyed by event name; `on` and `emit` keep each list's handlers to its own event type.
  const handlers = new Map<keyof DomainEvents, Handler<never>[]>();
  return {
    on<E extends keyof DomainEvents>(name: E, handler: Handler<E>): void {
      handlers.set(name, [...(handlers.get(name) ?? []), handler as Handler<never>]);
    },
    async emit<E extends keyof DomainEvents>(name: E, event: DomainEvents[E]): Promise<void> {
      for (const handler of handlers.get(name) ?? []) await (handler as Handler<E>)(event);
    },
  };
}

export type Events = ReturnType<typeof createEvents>;
