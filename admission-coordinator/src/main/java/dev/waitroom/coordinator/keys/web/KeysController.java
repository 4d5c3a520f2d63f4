package dev.waitroom.coordinator.keys.web;

import dev.waitroom.coordinator.keys.SigningKeys;
import dev.waitroom.tokens.KeyRing;
import dev.waitroom.tokens.SigningKeyInfo;
import java.util.List;
import org.springframework.http.CacheControl;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
class KeysController {

    private static final MediaType JWKS = MediaType.parseMediaType("application/jwk-set+json");

    private final SigningKeys keys;

    KeysController(SigningKeys keys) {
        this.keys = keys;
    }

    @GetMapping("/.well-known/jwks.json")
    ResponseEntity<String> jwks() {
        return ResponseEntity.ok()
                .contentType(JWKS)
                .cacheControl(
                        CacheControl.maxAge(java.time.Duration.ofSeconds(30)).cachePublic())
                .body(this.keys.publicJwksJson());
    }

    @PostMapping("/admin/keys/rotate")
    ResponseEntity<RotationView> rotate() {
        KeyRing ring = this.keys.rotate();
        return ResponseEntity.accepted().body(new RotationView(ring.activeKeyId(), ring.keys()));
    }

    record RotationView(String activeKeyId, List<SigningKeyInfo> keys) {}
}
