'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const { admissionMiddleware } = require('..');

const file = path.join(__dirname, '..', '..', '..', 'docs', 'integration', 'admission-header-vectors.json');
const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
const vector = (name) => doc.vectors.find((v) => v.name === name);

// a real server on loopback; the vectors' clock through Date.now
async function withServer(middleware, run) {
  const server = http.createServer((req, res) => {
    middleware(req, res, () => {
      res.end(`${req.waitroomAdmission.sessionId} ${req.waitroomAdmission.scope}`);
    }).catch((e) => { res.statusCode = 500; res.end(String(e)); });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    await run(`http://127.0.0.1:${server.address().port}`);
  } finally {
    server.close();
  }
}

test('passes a valid header over real HTTP and refuses the rest with a problem', async (t) => {
  t.mock.method(Date, 'now', () => vector('valid').now * 1000);
  const middleware = admissionMiddleware({ jwks: doc.jwks, audience: 'shop.example', event: 'summer-tour' });
  await withServer(middleware, async (base) => {
    const ok = await fetch(`${base}/events/summer-tour/shop/seats?page=2`,
      { headers: { 'Waitroom-Admission': vector('valid').token } });
    assert.equal(ok.status, 200);
    assert.equal(await ok.text(), 's-1 shopping');

    const missing = await fetch(`${base}/events/summer-tour/shop/seats`);
    assert.equal(missing.status, 401);
    assert.equal(missing.headers.get('content-type'), 'application/problem+json');
    assert.equal((await missing.json()).reason, 'missing');

    const replayed = await fetch(`${base}/events/summer-tour/shop/holds`,
      { headers: { 'Waitroom-Admission': vector('valid').token } });
    assert.equal((await replayed.json()).reason, 'wrong-path');
  });
});

test('reads the keys from the gateway and again for an unknown kid, at most every 5 s', async (t) => {
  t.mock.method(Date, 'now', () => vector('valid').now * 1000);
  let reads = 0;
  const fetchImpl = async () => { reads++; return new Response(JSON.stringify(doc.jwks), { status: 200 }); };
  const middleware = admissionMiddleware({
    jwksUrl: 'http://gateway.invalid/.well-known/waitroom-admission-keys', fetchImpl, clock: () => 0,
    audience: 'shop.example', event: 'summer-tour',
  });
  await withServer(middleware, async (base) => {
    const ok = await fetch(`${base}/events/summer-tour/shop/seats`,
      { headers: { 'Waitroom-Admission': vector('valid-previous-key').token } });
    assert.equal(ok.status, 200);
    for (let i = 0; i < 5; i++) {
      const unknown = await fetch(`${base}/events/summer-tour/shop/seats`,
        { headers: { 'Waitroom-Admission': vector('unknown-kid').token } });
      assert.equal((await unknown.json()).reason, 'unknown-key');
    }
  });
  assert.equal(reads, 1);
});
