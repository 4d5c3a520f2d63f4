import type { KeyObject } from 'node:crypto';

export type Reason =
  | 'missing' | 'malformed' | 'unsupported-algorithm' | 'wrong-type' | 'unknown-key' | 'bad-signature'
  | 'wrong-issuer' | 'wrong-audience' | 'wrong-event' | 'wrong-method' | 'wrong-path' | 'lifetime-too-long'
  | 'expired' | 'not-yet-valid';

export class AdmissionRejected extends Error {
  readonly reason: Reason;
}

export interface Admission {
  eventId: string; sessionId: string; visitor: string; saleGeneration: number;
  scope: 'shopping' | 'order-status' | 'bypass'; method: string; path: string;
  issuedAt: number; expiresAt: number; keyId: string;
}

export const HEADER: 'waitroom-admission';
export function keysFromJwks(jwks: string | { keys: object[] }): Map<string, KeyObject>;
export function verifyAdmission(header: string | undefined, options: {
  keys: Map<string, KeyObject>; audience: string; event?: string; method: string; path: string;
  now?: number; clockSkewSeconds?: number;
}): Admission;
export function jwksFromUrl(url: string, options?: { refreshSeconds?: number }): {
  keysFor(kid: string): Promise<Map<string, KeyObject>>;
};
export function admissionMiddleware(options: {
  jwks?: string | { keys: object[] }; jwksUrl?: string; refreshSeconds?: number;
  audience: string; event?: string; clockSkewSeconds?: number;
}): (req: any, res: any, next?: () => void) => Promise<void>;

/** The signal was refused: the HTTP status and the RFC 9457 problem (docs/integration/shop-signals.md). */
export class SignalRefused extends Error {
  readonly status: number;
  readonly problem: { type?: string; title?: string; status?: number; detail?: string } | null;
  readonly retryable: boolean;
}

export interface SessionSignalAnswer {
  signal: 'purchase-completed' | 'session-release'; eventId: string; sessionId: string; state: string; live: boolean;
}

export interface SoldOutAnswer {
  signal: 'sold-out'; eventId: string; category: string | null; mode: string; soldOutCategories: string[];
}

export function shopSignals(options: {
  gatewayUrl: string; eventId: string; credential: string; timeoutMs?: number; fetch?: typeof fetch;
}): {
  purchaseCompleted(sessionId: string, orderId: string): Promise<SessionSignalAnswer>;
  soldOut(category?: string, reason?: string): Promise<SoldOutAnswer>;
  sessionRelease(sessionId: string): Promise<SessionSignalAnswer>;
};
