/**
 * A loopback door to a local stage's webhook pipeline, for test processes that do not hold the stage
 * (test/support/local-stage-setup.ts, test/bundles/setup.ts).
 */
import { createServer, type Server } from 'node:http';
import type { LocalPipeline } from '../../bin/local/pipeline';

/**
 * `GET /deliveries/{companyId}/{deliveryId}/settled` answers, once the pipeline has recorded the
 * delivery's latest attempt and it waits for nothing, the delivery as stored (null when there is
 * none); 503 if the stage stops first. It is the stage's `pipeline.settled()` over HTTP.
 */
export async function pipelineDoor(
  pipeline: LocalPipeline,
  { stop = false } = {},
): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    // `POST /stop` (when asked for) stops the pipeline: the bundle harness's stage (test/bundles/setup.ts).
    if (stop && req.method === 'POST' && req.url === '/stop')
      return void pipeline.stop().then(
        () => res.writeHead(204).end(),
        (err: unknown) => res.writeHead(500).end(String(err)),
      );
    const match = /^\/deliveries\/(\d+)\/([0-9a-f-]{36})\/settled$/.exec(req.url ?? '');
    if (req.method !== 'GET' || !match) return void res.writeHead(404).end();
    pipeline.settled(Number(match[1]), match[2]!).then(
      (delivery) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(delivery ?? null)),
      (err: unknown) => res.writeHead(503).end(String(err)),
    );
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return { server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}` };
}
