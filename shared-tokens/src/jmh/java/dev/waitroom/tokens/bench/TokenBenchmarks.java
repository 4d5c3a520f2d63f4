package dev.waitroom.tokens.bench;

import com.google.crypto.tink.subtle.Ed25519Sign;
import com.google.crypto.tink.subtle.Ed25519Verify;
import dev.waitroom.tokens.AdmissionClaims;
import dev.waitroom.tokens.AdmissionTokenIssuer;
import dev.waitroom.tokens.AdmissionTokenVerifier;
import dev.waitroom.tokens.HmacKey;
import dev.waitroom.tokens.KeyRing;
import dev.waitroom.tokens.QueueTicket;
import dev.waitroom.tokens.QueueTicketCodec;
import dev.waitroom.tokens.VisitorCookieCodec;
import dev.waitroom.tokens.VisitorId;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Issue/s and verify/s of the three token formats, single-threaded. Uncached admission verification
 * cycles through 4096 distinct tokens with a one-entry cache, so every call pays hash, parse and
 * Ed25519 verification; cached verification cycles through 4096 tokens that are all in the cache.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class TokenBenchmarks {

    private static final int TOKENS = 4096;

    private final Clock clock = Clock.systemUTC();
    private AdmissionTokenIssuer issuer;
    private AdmissionTokenVerifier uncachedVerifier;
    private AdmissionTokenVerifier cachedVerifier;
    private QueueTicketCodec ticketCodec;
    private VisitorCookieCodec visitorCodec;
    private AdmissionClaims claims;
    private QueueTicket ticket;
    private final String[] tokens = new String[TOKENS];
    private final String[] tickets = new String[TOKENS];
    private final String[] cookies = new String[TOKENS];
    private int next;
    private Ed25519Verify rawVerify;
    private byte[] rawMessage;
    private byte[] rawSignature;

    @Setup
    public void setUp() {
        KeyRing ring = KeyRing.generate(clock);
        issuer = AdmissionTokenIssuer.of(ring);
        uncachedVerifier = AdmissionTokenVerifier.of(ring::publicJwksJson, clock, Duration.ofSeconds(30), 1);
        cachedVerifier = AdmissionTokenVerifier.of(ring::publicJwksJson, clock);
        SecureRandom random = new SecureRandom();
        byte[] secret = new byte[32];
        random.nextBytes(secret);
        ticketCodec = QueueTicketCodec.of(HmacKey.of(secret));
        random.nextBytes(secret);
        visitorCodec = VisitorCookieCodec.of(HmacKey.of(secret));
        Instant now = clock.instant();
        for (int i = 0; i < TOKENS; i++) {
            String visitor = VisitorId.random().value();
            tokens[i] = issuer.issue(new AdmissionClaims(
                    "evt-2026-finals",
                    7,
                    UUID.randomUUID().toString(),
                    UUID.randomUUID().toString(),
                    visitor,
                    now,
                    now.plus(Duration.ofHours(2)),
                    UUID.randomUUID().toString()));
            cachedVerifier.verify(tokens[i], "evt-2026-finals", 7);
            tickets[i] = ticketCodec.encode(
                    new QueueTicket("evt-2026-finals", UUID.randomUUID().toString(), 1_000_000L + i, now));
            cookies[i] = visitorCodec.encode(VisitorId.random());
        }
        claims = new AdmissionClaims(
                "evt-2026-finals",
                7,
                UUID.randomUUID().toString(),
                UUID.randomUUID().toString(),
                VisitorId.random().value(),
                now,
                now.plus(Duration.ofMinutes(15)),
                UUID.randomUUID().toString());
        try {
            Ed25519Sign.KeyPair pair = Ed25519Sign.KeyPair.newKeyPair();
            rawMessage = tokens[0].substring(0, tokens[0].lastIndexOf('.')).getBytes(StandardCharsets.US_ASCII);
            rawSignature = new Ed25519Sign(pair.getPrivateKey()).sign(rawMessage);
            rawVerify = new Ed25519Verify(pair.getPublicKey());
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
        ticket = new QueueTicket("evt-2026-finals", UUID.randomUUID().toString(), 123_456L, now);
    }

    private int nextIndex() {
        next = (next + 1) & (TOKENS - 1);
        return next;
    }

    @Benchmark
    public String admissionIssue() {
        return issuer.issue(claims);
    }

    @Benchmark
    public AdmissionClaims admissionVerifyUncached() {
        return uncachedVerifier.verify(tokens[nextIndex()], "evt-2026-finals", 7);
    }

    @Benchmark
    public AdmissionClaims admissionVerifyCached() {
        return cachedVerifier.verify(tokens[nextIndex()], "evt-2026-finals", 7);
    }

    /** Baseline: the bare Tink Ed25519 verification inside every uncached admission verification. */
    @Benchmark
    public boolean ed25519VerifyBaseline() {
        try {
            rawVerify.verify(rawSignature, rawMessage);
            return true;
        } catch (java.security.GeneralSecurityException e) {
            return false;
        }
    }

    @Benchmark
    public String ticketIssue() {
        return ticketCodec.encode(ticket);
    }

    @Benchmark
    public QueueTicket ticketVerify() {
        return ticketCodec.decode(tickets[nextIndex()]);
    }

    @Benchmark
    public VisitorId visitorCookieVerify() {
        return visitorCodec.decode(cookies[nextIndex()]);
    }
}
