package dev.waitroom.tokens;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.Ed25519Signer;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.waitroom.tokens.internal.ModeStatementParser;
import java.util.Date;
import java.util.Objects;

/**
 * Signs {@link ModeStatement}s with the ring's ACTIVE key, the one admission tokens are signed with: a compact JWS of
 * type {@value ModeStatementParser#TYPE}, audience {@value ModeStatementParser#AUDIENCE} (an admission token is never
 * taken for one, nor one for an admission token). Bound to the key active when it was created. Thread-safe.
 */
public final class ModeStatementSigner {

    private final Ed25519Signer signer;
    private final JWSHeader header;

    private ModeStatementSigner(Ed25519Signer signer, JWSHeader header) {
        this.signer = signer;
        this.header = header;
    }

    public static ModeStatementSigner of(KeyRing ring) {
        Objects.requireNonNull(ring, "ring");
        try {
            return new ModeStatementSigner(
                    new Ed25519Signer(ring.activeKey()),
                    new JWSHeader.Builder(JWSAlgorithm.EdDSA)
                            .type(new JOSEObjectType(ModeStatementParser.TYPE))
                            .keyID(ring.activeKeyId())
                            .build());
        } catch (JOSEException e) {
            throw new IllegalStateException("cannot sign with the active key", e);
        }
    }

    public String sign(ModeStatement statement) {
        Objects.requireNonNull(statement, "statement");
        JWTClaimsSet set = new JWTClaimsSet.Builder()
                .issuer(ModeStatementParser.ISSUER)
                .audience(ModeStatementParser.AUDIENCE)
                .claim("evt", statement.eventId())
                .claim("mode", statement.mode())
                .claim("gen", statement.saleGeneration())
                .issueTime(Date.from(statement.issuedAt()))
                .expirationTime(Date.from(statement.expiresAt()))
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
