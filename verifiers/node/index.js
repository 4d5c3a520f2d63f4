'use strict';
// Verifies the Waitroom-Admission header (docs/integration/admission-header.md) with node:crypto alone:
// a compact JWS, alg EdDSA and typ waitroom-admission+jwt pinned, kid among the gateway's published Ed25519 keys,
// then audience, event, method, raw path and time within a clock skew. Same checks, order and reason codes as the
// Java verifier; both pass docs/integration/admission-header-vectors.json.

const crypto = require('node:crypto');

const HEADER = 'waitroom-admission';
const TYPE = 'waitroom-admission+jwt';
const ISSUER = 'waitroom';
const MAX_LENGTH = 8192;
const MAX_LIFETIME_SECONDS = 60;
const SCOPES = new Set(['shopping', 'order-status', 'bypass']);
const B64URL = /^[A-Za-z0-9_-]*$/;

class AdmissionRejected extends Error {
  constructor(reason) {
    super(reason);
    this.name = 'AdmissionRejected';
    this.reason = reason;
  }
}

function reject(reason) {
  return new AdmissionRejected(reason);
}

/** The Ed25519 keys of a JWKS document (object or JSON text), by kid. */
function keysFromJwks(jwks) {
  const doc = typeof jwks === 'string' ? JSON.parse(jwks) : jwks;
  if (!doc || !Array.isArray(doc.keys)) throw new TypeError('a JWKS needs a "keys" array');
  const keys = new Map();
  for (const jwk of doc.keys) {
    if (jwk && jwk.kty === 'OKP' && jwk.crv === 'Ed25519' && (jwk.use === undefined || jwk.use === 'sig')
        && typeof jwk.kid === 'string' && typeof jwk.x === 'string') {
      keys.set(jwk.kid, crypto.createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, format: 'jwk' }));
    }
  }
  if (keys.size === 0) throw new TypeError('the JWKS has no Ed25519 key');
  return keys;
}

function decodeJson(segment) {
  if (!B64URL.test(segment)) throw reject('malformed');
  const text = Buffer.from(segment, 'base64url').toString('utf8');
  if (Buffer.from(text, 'utf8').toString('base64url') !== segment) throw reject('malformed'); // not UTF-8, or not canonical
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    throw reject('malformed');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw reject('malformed');
  return value;
}

function text(claims, name) {
  const value = claims[name];
  if (typeof value !== 'string' || value.length === 0) throw reject('malformed');
  return value;
}

function integer(claims, name) {
  const value = claims[name];
  if (!Number.isSafeInteger(value) || value < 0) throw reject('malformed');
  return value;
}

/**
 * Verifies one header synchronously.
 * options: { keys: Map<kid, KeyObject> (keysFromJwks), audience, event?, method, path (raw, no query),
 *            now? (epoch seconds), clockSkewSeconds? (5) }
 * Returns { eventId, sessionId, visitor, saleGeneration, scope, method, path, issuedAt, expiresAt, keyId }
 * or throws AdmissionRejected with .reason one of the specification's codes.
 */
function verifyAdmission(header, options) {
  const { keys, audience, event, method, path } = options;
  const skew = options.clockSkewSeconds ?? 5;
  if (typeof header !== 'string' || header.length === 0) throw reject('missing');
  if (header.length > MAX_LENGTH) throw reject('malformed');
  const parts = header.split('.');
  if (parts.length !== 3) throw reject('malformed');
  const jose = decodeJson(parts[0]);
  if (typeof jose.alg !== 'string') throw reject('malformed');
  if (jose.alg !== 'EdDSA') throw reject('unsupported-algorithm');
  const members = Object.keys(jose).sort().join(',');
  if (members !== 'alg,kid,typ' || typeof jose.kid !== 'string') throw reject('malformed');
  if (jose.typ !== TYPE) throw reject('wrong-type');
  const key = keys.get(jose.kid);
  if (!key) throw reject('unknown-key');
  if (!B64URL.test(parts[2])) throw reject('malformed');
  const signature = Buffer.from(parts[2], 'base64url');
  if (signature.length !== 64
      || !crypto.verify(null, Buffer.from(parts[0] + '.' + parts[1], 'ascii'), key, signature)) {
    throw reject('bad-signature');
  }
  const claims = decodeJson(parts[1]);
  const iss = text(claims, 'iss');
  const aud = text(claims, 'aud');
  const evt = text(claims, 'evt');
  const sid = text(claims, 'sid');
  const sub = text(claims, 'sub');
  const gen = integer(claims, 'gen');
  const scp = text(claims, 'scp');
  const htm = text(claims, 'htm');
  const htp = text(claims, 'htp');
  const iat = integer(claims, 'iat');
  const exp = integer(claims, 'exp');
  if (!SCOPES.has(scp) || exp <= iat) throw reject('malformed');
  if (iss !== ISSUER) throw reject('wrong-issuer');
  if (aud !== audience) throw reject('wrong-audience');
  if (event != null && evt !== event) throw reject('wrong-event');
  if (htm !== method) throw reject('wrong-method');
  if (htp !== path) throw reject('wrong-path');
  if (exp - iat > MAX_LIFETIME_SECONDS) throw reject('lifetime-too-long');
  const now = options.now ?? Math.floor(Date.now() / 1000);
  if (now > exp + skew) throw reject('expired');
  if (iat > now + skew) throw reject('not-yet-valid');
  return {
    eventId: evt, sessionId: sid, visitor: sub, saleGeneration: gen, scope: scp, method: htm, path: htp,
    issuedAt: iat, expiresAt: exp, keyId: jose.kid,
  };
}

/**
 * The gateway's published keys over HTTP (fetch, Node 18+): read at first use, again every refreshSeconds (300),
 * and on an unknown kid at most every 5 s; a failed read keeps the last good keys.
 */
function jwksFromUrl(url, { refreshSeconds = 300, fetchImpl = globalThis.fetch, clock = () => Date.now() } = {}) {
  let keys = null;
  let readAt = -Infinity;
  let attemptedAt = -Infinity;
  let pending = null;
  async function read() {
    attemptedAt = clock();
    try {
      const response = await fetchImpl(url, { headers: { accept: 'application/jwk-set+json, application/json' } });
      if (response.status !== 200) throw new Error('status ' + response.status);
      keys = keysFromJwks(await response.text());
      readAt = clock();
    } catch (e) {
      process.emitWarning(`Waitroom admission keys not read from ${url} (${e.name}); keeping the last good keys`);
    }
  }
  function refresh() {
    if (!pending) pending = read().finally(() => { pending = null; });
    return pending;
  }
  return {
    /** The current keys (a Map), reading again when due; for verifyAdmission's kid. */
    async keysFor(kid) {
      const now = clock();
      if (keys === null || now > readAt + refreshSeconds * 1000) await refresh();
      if ((keys === null || !keys.has(kid)) && now > attemptedAt + 5000) await refresh();
      return keys ?? new Map();
    },
  };
}

function kidOf(header) {
  try {
    const jose = JSON.parse(Buffer.from(String(header).split('.')[0], 'base64url').toString('utf8'));
    return typeof jose.kid === 'string' ? jose.kid : '';
  } catch {
    return '';
  }
}

/**
 * Middleware for node:http, Express or Connect: (req, res, next). Verifies req.headers['waitroom-admission'] for
 * req.method and the raw path of req.originalUrl || req.url (the query cut off), puts the admission on
 * req.waitroomAdmission, or answers 401 application/problem+json with the reason.
 * options: { jwks | jwksUrl, audience, event?, clockSkewSeconds? }
 */
function admissionMiddleware(options) {
  const source = options.jwksUrl ? jwksFromUrl(options.jwksUrl, options) : null;
  const fixed = options.jwks ? keysFromJwks(options.jwks) : null;
  if (!source === !fixed) throw new TypeError('set exactly one of jwks and jwksUrl');
  if (!options.audience) throw new TypeError('audience must be set: this origin\'s name');
  return async function waitroomAdmission(req, res, next) {
    const header = req.headers[HEADER];
    const url = req.originalUrl || req.url || '/';
    const query = url.indexOf('?');
    try {
      const keys = fixed ?? await source.keysFor(kidOf(header));
      req.waitroomAdmission = verifyAdmission(Array.isArray(header) ? '' : header, {
        keys, audience: options.audience, event: options.event, method: req.method,
        path: query < 0 ? url : url.slice(0, query), clockSkewSeconds: options.clockSkewSeconds,
      });
    } catch (e) {
      if (!(e instanceof AdmissionRejected)) throw e;
      const body = JSON.stringify({
        type: 'https://waitroom.dev/problems/admission-header-invalid', title: 'Waitroom admission required',
        status: 401, detail: 'This request needs a valid Waitroom-Admission header from the waiting room.',
        reason: e.reason,
      });
      res.writeHead(401, { 'content-type': 'application/problem+json', 'cache-control': 'no-store',
        'content-length': Buffer.byteLength(body) });
      res.end(body);
      return;
    }
    if (next) next();
  };
}

const { shopSignals, SignalRefused } = require('./signals');

module.exports = {
  verifyAdmission, keysFromJwks, jwksFromUrl, admissionMiddleware, AdmissionRejected, HEADER, shopSignals, SignalRefused,
};
