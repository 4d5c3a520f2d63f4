package dev.waitroom.tokens;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * Signs and checks the gateway's per-request shop assertions: {@code sa1.<kid>.<payload b64url>.<mac>} (the framing
 * of queue tickets and visitor cookies, HMAC-SHA256 truncated to 16 bytes, its own prefix so no other token can pass
 * for one). The payload is binary: the scope's ordinal, then length-prefixed UTF-8 event id, session id, visitor,
 * method and path, then the sale generation and the expiry in epoch milliseconds as zig-zag varints. About 200
 * characters for a typical shop path. Thread-safe; one HMAC per {@link #sign} and per {@link #verify}.
 *
 * <p>Keys: the gateway signs with the current key; booking accepts the current and, during a rotation, the previous.
 */
public final class ShopAssertionCodec {

    static final String PREFIX = "sa1";
    /** Three ids, a method and a 4096-byte path, base64url-encoded, fit under this; longer input is refused at once. */
    static final int MAX_LENGTH = 8192;
    /** How far the gateway's clock may be ahead of or behind the verifier's. */
    public static final Duration CLOCK_SKEW = Duration.ofSeconds(2);

    private static final ShopAssertion.Scope[] SCOPES = ShopAssertion.Scope.values();

    private final CompactMac mac;

    private ShopAssertionCodec(CompactMac mac) {
        this.mac = mac;
    }

    /** Signs with {@code signing}; accepts assertions signed by it or by any of {@code alsoAccepted} (rotation). */
    public static ShopAssertionCodec of(HmacKey signing, HmacKey... alsoAccepted) {
        return new ShopAssertionCodec(CompactMac.of(PREFIX, MAX_LENGTH, signing, alsoAccepted));
    }

    public String sign(ShopAssertion assertion) {
        Objects.requireNonNull(assertion, "assertion");
        ByteArrayOutputStream out =
                new ByteArrayOutputStream(96 + assertion.path().length());
        out.write(assertion.scope().ordinal());
        writeString(out, assertion.eventId());
        writeString(out, assertion.sessionId());
        writeString(out, assertion.visitor());
        writeString(out, assertion.method());
        writeString(out, assertion.path());
        writeVarLong(out, assertion.saleGeneration());
        writeVarLong(out, assertion.expiresAt().toEpochMilli());
        return mac.seal(out.toByteArray());
    }

    /**
     * Checks framing, key and MAC, then that the assertion was made for this request ({@link
     * RejectionReason#WRONG_AUDIENCE} for another method or path) and is still alive at {@code now} ({@link
     * RejectionReason#EXPIRED}; one that lives implausibly long is {@link RejectionReason#NOT_YET_VALID}), each within
     * {@link #CLOCK_SKEW}. What it says about the session is for the caller to hold against the admission token.
     */
    public ShopAssertion verify(String assertion, String method, String path, Instant now)
            throws TokenRejectedException {
        ShopAssertion decoded = decode(assertion);
        if (!decoded.isFor(method, path)) {
            throw new TokenRejectedException(RejectionReason.WRONG_AUDIENCE, "made for another request");
        }
        if (now.isAfter(decoded.expiresAt().plus(CLOCK_SKEW))) {
            throw new TokenRejectedException(RejectionReason.EXPIRED);
        }
        if (decoded.expiresAt().isAfter(now.plus(ShopAssertion.LIFETIME).plus(CLOCK_SKEW))) {
            throw new TokenRejectedException(RejectionReason.NOT_YET_VALID, "lives longer than an assertion may");
        }
        return decoded;
    }

    /** Checks framing, key and MAC only; returns what the assertion says. */
    public ShopAssertion decode(String assertion) throws TokenRejectedException {
        ByteBuffer in = ByteBuffer.wrap(mac.open(assertion));
        try {
            if (!in.hasRemaining()) {
                throw malformed();
            }
            int scope = in.get() & 0xFF;
            if (scope >= SCOPES.length) {
                throw malformed();
            }
            String eventId = readString(in, ShopAssertion.MAX_ID_BYTES);
            String sessionId = readString(in, ShopAssertion.MAX_ID_BYTES);
            String visitor = readString(in, ShopAssertion.MAX_ID_BYTES);
            String method = readString(in, ShopAssertion.MAX_ID_BYTES);
            String path = readString(in, ShopAssertion.MAX_PATH_BYTES);
            long generation = readVarLong(in);
            long expiresAtMillis = readVarLong(in);
            if (in.hasRemaining()) {
                throw malformed();
            }
            return new ShopAssertion(
                    eventId,
                    sessionId,
                    visitor,
                    generation,
                    SCOPES[scope],
                    method,
                    path,
                    Instant.ofEpochMilli(expiresAtMillis));
        } catch (IllegalArgumentException | DateTimeException e) {
            // authentic but not decodable: only a codec bug or a leaked key gets here
            throw malformed();
        }
    }

    private static void writeString(ByteArrayOutputStream out, String value) {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        writeVarLong(out, bytes.length);
        out.write(bytes, 0, bytes.length);
    }

    private static String readString(ByteBuffer in, int maxBytes) {
        long length = readVarLong(in);
        if (length <= 0 || length > maxBytes || in.remaining() < length) {
            throw malformed();
        }
        ByteBuffer slice = in.slice();
        slice.limit((int) length);
        in.position(in.position() + (int) length);
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(slice)
                    .toString();
        } catch (CharacterCodingException e) {
            throw malformed();
        }
    }

    private static void writeVarLong(ByteArrayOutputStream out, long value) {
        long zigzag = (value << 1) ^ (value >> 63);
        while ((zigzag & ~0x7FL) != 0) {
            out.write((int) ((zigzag & 0x7F) | 0x80));
            zigzag >>>= 7;
        }
        out.write((int) zigzag);
    }

    private static long readVarLong(ByteBuffer in) {
        long zigzag = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (!in.hasRemaining()) {
                throw malformed();
            }
            byte b = in.get();
            zigzag |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return (zigzag >>> 1) ^ -(zigzag & 1);
            }
        }
        throw malformed();
    }

    private static TokenRejectedException malformed() {
        return new TokenRejectedException(RejectionReason.MALFORMED, "assertion payload");
    }
}
