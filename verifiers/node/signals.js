'use strict';
// Sends the shop signals (docs/integration/shop-signals.md) to a Waitroom gateway with the event's integration
// credential: purchase completed, sold out (an event or one seat category) and session release. Node's built-in
// fetch only; the same calls, checks and answers as the Java client (dev.waitroom.verifier.signals.ShopSignals).

const CREDENTIAL = /^wric_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/;
const EVENT_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
const MAX_ANSWER_BYTES = 64 * 1024;

/** A signal the gateway or the coordinator refused: the HTTP status and the RFC 9457 problem, when there is one. */
class SignalRefused extends Error {
  constructor(status, problem) {
    super(`shop signal refused: ${status} ${problem && problem.type ? problem.type : ''}`.trim());
    this.name = 'SignalRefused';
    this.status = status;
    this.problem = problem ?? null;
    /** Worth sending again later (429, 5xx): the signal is idempotent. */
    this.retryable = status === 429 || status >= 500;
  }
}

/**
 * A client of one event's signals. options: { gatewayUrl, eventId, credential, timeoutMs? (10000), fetch? }.
 * The credential is wric_<id>_<secret> from POST /admin/events/{eventId}/integration-credentials; keep it out of
 * logs and argv (the CLI reads it from WAITROOM_INTEGRATION_CREDENTIAL).
 */
function shopSignals(options) {
  const { gatewayUrl, eventId, credential } = options ?? {};
  let base;
  try {
    base = new URL(gatewayUrl);
  } catch {
    throw new TypeError('gatewayUrl must be an absolute http(s) URL');
  }
  if (base.protocol !== 'https:' && base.protocol !== 'http:') throw new TypeError('gatewayUrl must be http(s)');
  if (typeof eventId !== 'string' || !EVENT_ID.test(eventId)) throw new TypeError('eventId is malformed');
  if (typeof credential !== 'string' || !CREDENTIAL.test(credential)) {
    throw new TypeError('credential must be an integration credential (wric_<id>_<secret>)');
  }
  const doFetch = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? 10000;
  const root = base.href.replace(/\/+$/, '');

  async function send(signal, body) {
    const response = await doFetch(`${root}/events/${eventId}/signals/${signal}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${credential}`, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
      redirect: 'error',
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    if (Buffer.byteLength(text) > MAX_ANSWER_BYTES) throw new SignalRefused(response.status, null);
    let answer = null;
    try {
      answer = text ? JSON.parse(text) : null;
    } catch {
      answer = null;
    }
    if (response.status !== 200) throw new SignalRefused(response.status, answer);
    return answer;
  }

  function required(name, value) {
    if (typeof value !== 'string' || value.length === 0) throw new TypeError(`${name} is required`);
    return value;
  }

  return {
    /** The shop sold to this session: { signal, eventId, sessionId, state, live }. */
    purchaseCompleted(sessionId, orderId) {
      return send('purchase-completed', { sessionId: required('sessionId', sessionId), orderId: required('orderId', orderId) });
    },
    /** No seat left in category, or (no category) in the event: { signal, eventId, category, mode, soldOutCategories }. */
    soldOut(category, reason) {
      const body = {};
      if (category !== undefined && category !== null) body.category = required('category', category);
      if (reason !== undefined && reason !== null) body.reason = required('reason', reason);
      return send('sold-out', body);
    },
    /** The shop is done with this session; its capacity returns to the queue: { signal, eventId, sessionId, state, live }. */
    sessionRelease(sessionId) {
      return send('session-release', { sessionId: required('sessionId', sessionId) });
    },
  };
}

module.exports = { shopSignals, SignalRefused };
