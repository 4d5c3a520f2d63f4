package dev.waitroom.gateway.proofofwork;

/**
 * An ALTCHA challenge as the page receives it: find the number in {@code 0..maxnumber} whose SHA-256 of
 * {@code salt + number} (hex) is {@code challenge}. The salt carries the event and the expiry as parameters; the
 * signature is the gateway's HMAC of the challenge, so the page cannot choose an easier one.
 */
public record JoinChallenge(String algorithm, String challenge, long maxnumber, String salt, String signature) {}
