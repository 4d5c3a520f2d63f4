package dev.waitroom.tokens;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Objects;

/**
 * Signs and checks queue tickets: {@code t1.<kid>.<payload b64url>.<mac>}, where the payload is
 * binary: length-prefixed UTF-8 event id and entry id, then the order key and the issue time in
 * epoch milliseconds as zig-zag varints. About 100 characters for a UUID entry id. Thread-safe.
 *
 * <p>Freshness is the caller's decision: compare {@link QueueTicket#issuedAt()} with its own clock.
 */
public final class QueueTicketCodec {

    static final String PREFIX = "t1";
    /** Two 128-byte ids plus varints fit well under this; longer values are refused before any work. */
    static final int MAX_LENGTH = 512;

    private final CompactMac mac;

    private QueueTicketCodec(CompactMac mac) {
        this.mac = mac;
    }

    /** Signs with {@code signing}; accepts tickets signed by it or by any of {@code alsoAccepted} (rotation). */
    public static QueueTicketCodec of(HmacKey signing, HmacKey... alsoAccepted) {
        return new QueueTicketCodec(CompactMac.of(PREFIX, MAX_LENGTH, signing, alsoAccepted));
    }

    public String encode(QueueTicket ticket) {
        Objects.requireNonNull(ticket, "ticket");
        ByteArrayOutputStream out = new ByteArrayOutputStream(64);
        writeString(out, ticket.eventId());
        writeString(out, ticket.entryId());
        writeVarLong(out, ticket.orderKey());
        writeVarLong(out, ticket.issuedAt().toEpochMilli());
        return mac.seal(out.toByteArray());
    }

    public QueueTicket decode(String ticket) throws TokenRejectedException {
        ByteBuffer in = ByteBuffer.wrap(mac.open(ticket));
        try {
            String eventId = readString(in);
            String entryId = readString(in);
            long orderKey = readVarLong(in);
            long issuedAtMillis = readVarLong(in);
            if (in.hasRemaining()) {
                throw malformed();
            }
            return new QueueTicket(eventId, entryId, orderKey, Instant.ofEpochMilli(issuedAtMillis));
        } catch (IllegalArgumentException | java.time.DateTimeException e) {
            // authentic but not decodable: only a codec bug or a leaked key gets here
            throw malformed();
        }
    }

    private static void writeString(ByteArrayOutputStream out, String value) {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        out.write(bytes.length);
        out.write(bytes, 0, bytes.length);
    }

    private static String readString(ByteBuffer in) {
        if (!in.hasRemaining()) {
            throw malformed();
        }
        int length = in.get() & 0xFF;
        if (length == 0 || length > QueueTicket.MAX_ID_BYTES || in.remaining() < length) {
            throw malformed();
        }
        ByteBuffer slice = in.slice();
        slice.limit(length);
        in.position(in.position() + length);
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
        return new TokenRejectedException(RejectionReason.MALFORMED, "ticket payload");
    }
}
