/**
 * Server-Sent Events: one `event:` line per event type, JSON data; the stream ends when `run`
 * settles. Every `heartbeatMs` a comment line (`: heartbeat`), which readers ignore, keeps proxies
 * and clients from taking a quiet stream (a slow provider) for a dead one.
 */
export function eventStream<E extends { type: string }>(signal: AbortSignal, heartbeatMs: number, run: (send: (event: E) => void) => Promise<void>): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      const write = (text: string) => {
        if (!signal.aborted) controller.enqueue(encoder.encode(text));
      };
      const heartbeat = setInterval(() => write(": heartbeat\n\n"), heartbeatMs);
      try {
        await run((event) => write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`));
      } finally {
        clearInterval(heartbeat);
      }
      if (!signal.aborted) controller.close();
    },
  });
  return new Response(body, { headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-store", "x-accel-buffering": "no" } });
}
