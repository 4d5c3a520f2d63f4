package dev.waitroom.tokens;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.Ed25519Signer;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.waitroom.tokens.internal.AdmissionJwtParser;
import java.util.Date;
import java.util.Objects;

/**
 * Signs admission tokens with the ring's ACTIVE key. Bound to the key that was active when it was
 * created: after a rotation, make a new issuer from the new ring. Thread-safe.
 */
public final class AdmissionTokenIssuer {

    public static final String TYPE = AdmissionJwtParser.TYPE;
    public static final String ISSUER = AdmissionJwtParser.ISSUER;
    public static final String AUDIENCE = AdmissionJwtParser.AUDIENCE;

    private final Ed25519Signer signer;
    private final JWSHeader header;

    private AdmissionTokenIssuer(Ed25519Signer signer, JWSHeader header) {
        this.signer = signer;
        this.header = header;
    }

    public static AdmissionTokenIssuer of(KeyRing ring) {
        Objects.requireNonNull(ring, "ring");
        try {
            Ed25519Signer signer = new Ed25519Signer(ring.activeKey());
            JWSHeader header = new JWSHeader.Builder(JWSAlgorithm.EdDSA)
                    .type(new JOSEObjectType(TYPE))
                    .keyID(ring.activeKeyId())
                    .build();
            return new AdmissionTokenIssuer(signer, header);
        } catch (JOSEException e) {
            throw new IllegalStateException("cannot sign with the active key", e);
        }
    }

    /** The key id this issuer signs with. */
    public String keyId() {
        return header.getKeyID();
    }

    public String issue(AdmissionClaims claims) {
        Objects.requireNonNull(claims, "claims");
        JWTClaimsSet set = new JWTClaimsSet.Builder()
                .issuer(ISSUER)
                .audience(AUDIENCE)
                .subject(claims.visitor())
                .claim("evt", claims.eventId())
                .claim("gen", claims.saleGeneration())
                .claim("gid", claims.grantId())
                .claim("sid", claims.sessionId())
                .issueTime(Date.from(claims.issuedAt()))
                .expirationTime(Date.from(claims.expiresAt()))
                .jwtID(claims.tokenId())
                .build();
        SignedJWT jwt = new SignedJWT(header, set);
        try {
            jwt.sign(signer);
        } catch (JOSEException e) {
            throw new IllegalStateException("signing failed", e);
        }
        return jwt.serialize();
    }
}
