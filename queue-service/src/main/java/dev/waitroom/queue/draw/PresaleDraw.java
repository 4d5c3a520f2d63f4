package dev.waitroom.queue.draw;

import dev.waitroom.contract.queue.EntryId;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The pre-sale draw (docs/design/architecture.md#pre-sale-draw), pure: the pre-sale group is every entry with sequence 1..n;
 * each entry's place is the rank of HMAC-SHA256(seed, entryId) among the group (unsigned byte order, ascending), so
 * order keys are 1..n. Anyone with the revealed seed and the receipts can recompute it; the same seed always gives the
 * same order.
 */
final class PresaleDraw {

    private PresaleDraw() {}

    /** Order key of each pre-sale entry: {@code result[seq - 1]} is the order key of the entry with that sequence. */
    static long[] orderKeys(byte[] seed, int presaleCount) {
        byte[][] macs = new byte[presaleCount][];
        Mac mac = hmac(seed);
        for (int i = 0; i < presaleCount; i++) {
            macs[i] = mac.doFinal(EntryId.ofSequence(i + 1L).value().getBytes(StandardCharsets.UTF_8));
        }
        Integer[] bySeq = IntStream.range(0, presaleCount).boxed().toArray(Integer[]::new);
        Arrays.sort(
                bySeq,
                Comparator.<Integer, byte[]>comparing(i -> macs[i], Arrays::compareUnsigned)
                        .thenComparing(i -> i));
        long[] keys = new long[presaleCount];
        for (int rank = 0; rank < presaleCount; rank++) {
            keys[bySeq[rank]] = rank + 1L;
        }
        return keys;
    }

    /** Join order: the entry with sequence s keeps order key s (presaleOrdering FIFO). */
    static long[] joinOrder(int presaleCount) {
        return IntStream.rangeClosed(1, presaleCount).asLongStream().toArray();
    }

    private static Mac hmac(byte[] seed) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(seed, "HmacSHA256"));
            return mac;
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }
}
