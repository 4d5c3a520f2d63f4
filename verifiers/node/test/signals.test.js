'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const http = require('node:http');
const path = require('node:path');
const { execFile } = require('node:child_process');
const { shopSignals, SignalRefused } = require('..');

const CREDENTIAL = `wric_0123456789abcdef_${'A'.repeat(43)}`;

// a real server on loopback standing in for the gateway: records each request, answers what reply() says
async function withGateway(reply, run) {
  const received = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => { body += chunk; });
    req.on('end', () => {
      received.push({ method: req.method, url: req.url, headers: req.headers, body });
      const [status, answer, type] = reply(req, body);
      const text = JSON.stringify(answer);
      res.writeHead(status, { 'content-type': type ?? 'application/json', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    await run(`http://127.0.0.1:${server.address().port}`, received);
  } finally {
    server.close();
  }
}

const echo = (req, body) => [200, { signal: req.url.split('/').pop(), sent: JSON.parse(body) }];

test('sends each signal as a POST with the credential as a bearer and a JSON body', async () => {
  await withGateway(echo, async (url, received) => {
    const client = shopSignals({ gatewayUrl: `${url}/`, eventId: 'summer-tour', credential: CREDENTIAL });
    assert.deepEqual(await client.purchaseCompleted('s-1', 'order-9'),
      { signal: 'purchase-completed', sent: { sessionId: 's-1', orderId: 'order-9' } });
    assert.deepEqual((await client.soldOut('Floor')).sent, { category: 'Floor' });
    assert.deepEqual((await client.soldOut()).sent, {});
    assert.deepEqual((await client.sessionRelease('s-2')).sent, { sessionId: 's-2' });
    assert.deepEqual(received.map((r) => `${r.method} ${r.url}`), [
      'POST /events/summer-tour/signals/purchase-completed',
      'POST /events/summer-tour/signals/sold-out',
      'POST /events/summer-tour/signals/sold-out',
      'POST /events/summer-tour/signals/session-release',
    ]);
    for (const r of received) {
      assert.equal(r.headers.authorization, `Bearer ${CREDENTIAL}`);
      assert.match(r.headers['content-type'], /^application\/json/);
    }
  });
});

test('a refusal is a SignalRefused with the status and the problem; 429 and 5xx are retryable', async () => {
  const answers = {
    'purchase-completed': [401, { type: 'https://waitroom.dev/problems/integration-credential-required', status: 401 }],
    'sold-out': [403, { type: 'https://waitroom.dev/problems/integration-credential-forbidden', status: 403 }],
    'session-release': [503, { type: 'https://waitroom.dev/problems/unavailable', status: 503 }],
  };
  await withGateway((req) => [...answers[req.url.split('/').pop()], 'application/problem+json'], async (url) => {
    const client = shopSignals({ gatewayUrl: url, eventId: 'e1', credential: CREDENTIAL });
    await assert.rejects(client.purchaseCompleted('s', 'o'), (e) => e instanceof SignalRefused && e.status === 401
      && e.problem.type.endsWith('/integration-credential-required') && !e.retryable);
    await assert.rejects(client.soldOut(), (e) => e.status === 403 && !e.retryable);
    await assert.rejects(client.sessionRelease('s'), (e) => e.status === 503 && e.retryable);
  });
});

test('refuses to start with a malformed gateway URL, event id or credential, and sends nothing without an id', async () => {
  const good = { gatewayUrl: 'https://tickets.example', eventId: 'e1', credential: CREDENTIAL };
  for (const bad of [
    { gatewayUrl: 'ftp://tickets.example' }, { gatewayUrl: 'tickets.example' }, { eventId: '../admin' },
    { eventId: '' }, { credential: 'Bearer x' }, { credential: CREDENTIAL.toUpperCase() }, { credential: undefined },
  ]) {
    assert.throws(() => shopSignals({ ...good, ...bad }), TypeError, JSON.stringify(bad));
  }
  await withGateway(echo, async (url, received) => {
    const client = shopSignals({ ...good, gatewayUrl: url });
    assert.throws(() => client.purchaseCompleted('', 'o'), TypeError);
    assert.throws(() => client.sessionRelease(undefined), TypeError);
    assert.equal(received.length, 0);
  });
});

test('the CLI reads the credential from the environment and prints the answer', async () => {
  await withGateway(echo, async (url, received) => {
    const cli = path.join(__dirname, '..', 'bin', 'waitroom-signal.js');
    const run = (env, ...args) => new Promise((resolve) => {
      execFile(process.execPath, [cli, url, 'e1', ...args], { env: { ...process.env, ...env } },
        (error, stdout, stderr) => resolve({ code: error ? error.code : 0, stdout, stderr }));
    });
    const ok = await run({ WAITROOM_INTEGRATION_CREDENTIAL: CREDENTIAL }, 'session-release', 's-3');
    assert.equal(ok.code, 0, ok.stderr);
    assert.deepEqual(JSON.parse(ok.stdout).sent, { sessionId: 's-3' });
    assert.equal(received.at(-1).headers.authorization, `Bearer ${CREDENTIAL}`);
    const noCredential = await run({ WAITROOM_INTEGRATION_CREDENTIAL: '' }, 'sold-out');
    assert.equal(noCredential.code, 2);
  });
});
