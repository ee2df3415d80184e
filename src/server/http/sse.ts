/** Server-Sent Events: one `event:` line per event type, JSON data; the stream ends when `run` settles. */
export function eventStream<E extends { type: string }>(signal: AbortSignal, run: (send: (event: E) => void) => Promise<void>): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (event: E) => {
        if (!signal.aborted) controller.enqueue(encoder.encode(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`));
      };
      await run(send);
      if (!signal.aborted) controller.close();
    },
  });
  return new Response(body, { headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-store", "x-accel-buffering": "no" } });
}
