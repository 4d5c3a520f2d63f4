package dev.waitroom.queue.draw;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.EventPhase;
import dev.waitroom.contract.MalformedValueException;
import dev.waitroom.contract.PresaleOrdering;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.contract.queue.DrawResult;
import dev.waitroom.queue.config.QueueProperties;
import dev.waitroom.queue.event.EventState;
import dev.waitroom.queue.event.EventStore;
import dev.waitroom.web.ProblemException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;

/**
 * Runs the draw at opening in short chunks (each one Lua call, idempotent). A crash in the middle is repaired by
 * running it again: the order depends only on the seed and the receipts, so the result is the same.
 */
@Service
class DrawService {

    private static final Logger log = LoggerFactory.getLogger(DrawService.class);
    private static final Pattern SEED = Pattern.compile("([0-9a-f]{2}){16,128}");

    private final EventStore events;
    private final DrawStore store;
    private final int chunkSize;

    DrawService(EventStore events, DrawStore store, QueueProperties properties) {
        this.events = events;
        this.store = store;
        this.chunkSize = properties.drawChunkSize();
    }

    DrawResult draw(EventId event, String seedHex) {
        return run(event, seedHex, Integer.MAX_VALUE);
    }

    /** Writes at most {@code maxChunks} chunks; the draw completes only when every chunk has been written. */
    DrawResult run(EventId event, String seedHex, int maxChunks) {
        String seed = seedHex == null ? "" : seedHex.toLowerCase();
        if (!SEED.matcher(seed).matches()) {
            throw new MalformedValueException("seed is hex of 16..128 bytes");
        }
        EventState state = events.readEvent(event);
        if (state.pushed().phaseValue() == EventPhase.SCHEDULED) {
            throw new ProblemException(
                    ProblemType.DRAW_NOT_ALLOWED, "The draw runs at opening; the event is still SCHEDULED.");
        }
        long presale = state.presaleCount() == null ? 0 : state.presaleCount();
        if (state.drawCompletedAt() != null) {
            if (!seed.equals(state.drawSeed())) {
                throw new ProblemException(
                        ProblemType.SEED_MISMATCH, "The draw of this event was made with another seed.");
            }
            return new DrawResult(presale, true);
        }
        byte[] seedBytes = HexFormat.of().parseHex(seed);
        String commitment = state.pushed().commitment();
        if (commitment != null && !matchesCommitment(seedBytes, seed, commitment)) {
            throw new ProblemException(ProblemType.SEED_MISMATCH, "The seed does not match the published commitment.");
        }
        long[] keys = state.pushed().presaleOrderingValue() == PresaleOrdering.FIFO
                ? PresaleDraw.joinOrder((int) presale)
                : PresaleDraw.orderKeys(seedBytes, (int) presale);
        int chunks = 0;
        for (int from = 0; from < keys.length || from == 0; from += chunkSize) {
            if (chunks++ == maxChunks) {
                return new DrawResult(presale, false);
            }
            int to = Math.min(keys.length, from + chunkSize);
            List<Long> pairs = new ArrayList<>((to - from) * 2);
            for (int i = from; i < to; i++) {
                pairs.add(i + 1L);
                pairs.add(keys[i]);
            }
            DrawWrite written = store.writeDraw(event, seed, to == keys.length, pairs);
            if (written == DrawWrite.COMPLETE) {
                break;
            }
        }
        log.info("pre-sale draw of event {} complete: {} entries", event, presale);
        return new DrawResult(presale, true);
    }

    /** The commitment is SHA-256 of the seed bytes (hex); the SHA-256 of the hex text is accepted too. */
    private static boolean matchesCommitment(byte[] seedBytes, String seedHex, String commitment) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            String ofBytes = HexFormat.of().formatHex(sha.digest(seedBytes));
            String ofText = HexFormat.of().formatHex(sha.digest(seedHex.getBytes(StandardCharsets.US_ASCII)));
            return commitment.equalsIgnoreCase(ofBytes) || commitment.equalsIgnoreCase(ofText);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
