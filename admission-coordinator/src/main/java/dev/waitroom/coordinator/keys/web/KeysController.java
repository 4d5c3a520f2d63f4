package dev.waitroom.coordinator.keys.web;

import dev.waitroom.contract.ProblemType;
import dev.waitroom.coordinator.keys.SigningKeys;
import dev.waitroom.coordinator.problems.CoordinatorException;
import dev.waitroom.tokens.KeyRing;
import dev.waitroom.tokens.SigningKeyInfo;
import java.util.List;
import java.util.regex.Pattern;
import org.springframework.http.CacheControl;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/** The public JWKS and the ops routes of the signing keys (docs/design/security/keys.md). */
@RestController
class KeysController {

    private static final MediaType JWKS = MediaType.parseMediaType("application/jwk-set+json");

    /** A kid as shared-tokens writes them; anything else is refused before it reaches a log line. */
    private static final Pattern KEY_ID = Pattern.compile("[A-Za-z0-9_-]{1,64}");

    private final SigningKeys keys;

    KeysController(SigningKeys keys) {
        this.keys = keys;
    }

    /** Never cached on the way: a revoked key must leave every verifier's copy within their refresh. */
    @GetMapping("/.well-known/jwks.json")
    ResponseEntity<String> jwks() {
        return ResponseEntity.ok()
                .contentType(JWKS)
                .cacheControl(CacheControl.noStore())
                .body(this.keys.publicJwksJson());
    }

    @GetMapping("/admin/keys")
    KeysView list() {
        return KeysView.of(this.keys.ring());
    }

    @PostMapping("/admin/keys/rotate")
    ResponseEntity<KeysView> rotate() {
        return ResponseEntity.accepted().body(KeysView.of(this.keys.rotate()));
    }

    /**
     * Emergency revoke: the key leaves the JWKS at once and never signs again (a signing key is replaced at once);
     * verifiers refuse its tokens within seconds. Repeating it answers the same.
     */
    @PostMapping("/admin/keys/{keyId}/revoke")
    KeysView revoke(@PathVariable String keyId) {
        if (!KEY_ID.matcher(keyId).matches()) {
            throw new CoordinatorException(ProblemType.MALFORMED_REQUEST, "A key id is 1-64 of [A-Za-z0-9_-].");
        }
        KeyRing ring = this.keys
                .revoke(keyId)
                .orElseThrow(() -> new CoordinatorException(ProblemType.NOT_FOUND, "No signing key with that id."));
        return KeysView.of(ring);
    }

    /** The ring without key material: the signing key and every key's state and times. */
    record KeysView(String activeKeyId, List<SigningKeyInfo> keys) {

        static KeysView of(KeyRing ring) {
            return new KeysView(ring.activeKeyId(), ring.keys());
        }
    }
}
