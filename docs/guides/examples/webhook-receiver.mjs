// A webhook receiver for TokenForge tracked jobs: verifies each Standard Webhooks signature on the raw body,
// refuses stale timestamps, drops duplicate event ids, and prints one line per event. Node 20, no dependencies.
//
//   TOKENFORGE_WEBHOOK_SECRET=whsec_... PORT=9000 node docs/guides/examples/webhook-receiver.mjs
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';

const secret = process.env.TOKENFORGE_WEBHOOK_SECRET ?? '';
if (!secret.startsWith('whsec_')) {
  console.error('set TOKENFORGE_WEBHOOK_SECRET to the tenant secret (GET /admin/v1/tenants/{id}/webhook-secret)');
  process.exit(1);
}
const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
const seen = new Set();

/** Why a delivery is refused, or undefined when it is authentic and fresh (five minutes of tolerance). */
function refusal(headers, body) {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signatures !== 'string') return 'missing-headers';
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return 'stale-timestamp';
  const expected = Buffer.from(createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64'));
  const matches = signatures.split(' ').some((candidate) => {
    const given = Buffer.from(candidate.slice(candidate.indexOf(',') + 1));
    return candidate.startsWith('v1,') && given.length === expected.length && timingSafeEqual(given, expected);
  });
  return matches ? undefined : 'bad-signature';
}

const server = createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    const refused = refusal(request.headers, body);
    if (refused !== undefined) {
      console.log(`refused ${refused}`);
      response.writeHead(400).end(refused);
      return;
    }
    const id = request.headers['webhook-id'];
    // Deliveries are at least once: an event id seen before is acknowledged and not handled again.
    if (!seen.has(id)) {
      seen.add(id);
      const event = JSON.parse(body);
      console.log(`verified ${id} ${event.type} ${event.data.status} ${event.data.id}`);
    }
    response.writeHead(204).end();
  });
});
server.listen(Number(process.env.PORT ?? 9000), '127.0.0.1', () => console.log(`webhook receiver listening on http://127.0.0.1:${server.address().port}/hooks`));
process.once('SIGTERM', () => server.close());
process.once('SIGINT', () => server.close());
