'use strict';
// A ticket shop nobody here wrote the protection for (issue #27, item 7): plain node:http, no framework, guarded by
// the Node verifier of this repository. Put the Waitroom gateway in front of it (an event's "protect" names this
// origin and its paths), and every protected page it serves was admitted by the waiting room; a request that reaches
// it directly, without the gateway's Waitroom-Admission header, gets 401.
//
//   WAITROOM_JWKS_URL=http://127.0.0.1:8080/.well-known/waitroom-admission-keys \
//   WAITROOM_AUDIENCE=node-shop WAITROOM_EVENT=summer-tour PORT=3000 node examples/node-shop/server.js
//
// PORT=0 picks a free port; the first line printed is "listening <port>".
const http = require('node:http');
const { admissionMiddleware } = require('../../verifiers/node');

const protectedPrefix = process.env.SHOP_PROTECTED_PREFIX || '/concerts/';
const guard = admissionMiddleware({
  jwksUrl: process.env.WAITROOM_JWKS_URL,
  audience: process.env.WAITROOM_AUDIENCE,
  event: process.env.WAITROOM_EVENT,
});

function escape(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const server = http.createServer((req, res) => {
  const path = (req.url || '/').split('?')[0];
  if (!path.startsWith(protectedPrefix)) {
    // the shop's own public pages: no admission needed
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>Node shop</title><p>Welcome to the node shop.</p>');
    return;
  }
  guard(req, res, () => {
    const a = req.waitroomAdmission;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(`<!doctype html><title>Node shop</title><h1>node-shop ${escape(path)}</h1>`
      + `<p id="admission" data-event="${escape(a.eventId)}" data-session="${escape(a.sessionId)}"`
      + ` data-scope="${escape(a.scope)}">admitted</p>`);
  }).catch((e) => {
    // the keys could not be read: fail closed
    res.writeHead(503, { 'content-type': 'application/problem+json' });
    res.end(JSON.stringify({ type: 'about:blank', title: 'Admission keys unavailable', status: 503,
      detail: String(e && e.message) }));
  });
});

server.listen(Number(process.env.PORT || 3000), '127.0.0.1', () => {
  console.log(`listening ${server.address().port}`);
});
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => server.close(() => process.exit(0)));
