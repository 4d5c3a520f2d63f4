package dev.waitroom.coordinator.keys;

import dev.waitroom.contract.EventId;
import org.springframework.stereotype.Component;

/**
 * Seals an event's draw seed for its row (docs/design/security/keys.md#the-draw-seed) as the signing keys are sealed:
 * AES-256-GCM under the key-encryption key ({@link KeyEncryption}), the event id bound as associated data, so a dump of
 * the events table taken before the sale does not reveal the draw order, and a sealed seed copied to another event's
 * row does not open there. Thread-safe.
 */
@Component
public class SeedSeal {

    private final KeyEncryption encryption;

    SeedSeal(KeyEncryptionProperties properties) {
        this.encryption = new KeyEncryption(properties);
    }

    public String seal(EventId eventId, String seedHex) {
        return this.encryption.seal(seedHex, context(eventId));
    }

    /**
     * The seed {@link #seal} sealed for this event.
     *
     * @throws IllegalStateException when no configured key-encryption key sealed it, or it does not authenticate (altered,
     *                               or sealed for another event)
     */
    public Opened open(EventId eventId, String sealed) {
        KeyEncryption.Opened opened = this.encryption.open(sealed, context(eventId), "draw seeds");
        return new Opened(opened.plaintext(), opened.sealedWithCurrentKey());
    }

    private static String context(EventId eventId) {
        return "seed:" + eventId;
    }

    /** An opened seed and whether the current key sealed it (if not, seal it again). */
    public record Opened(String seedHex, boolean sealedWithCurrentKey) {

        @Override
        public String toString() {
            return "Opened[seedHex=(hidden), sealedWithCurrentKey=" + sealedWithCurrentKey + "]";
        }
    }
}
