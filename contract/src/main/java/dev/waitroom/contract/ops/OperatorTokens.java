package dev.waitroom.contract.ops;

import dev.waitroom.contract.MalformedValueException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * Operator tokens and the form they are stored in. A token is 32 random bytes (base64url, 43 characters); what a
 * service is configured with is its hash, {@code sha256:<base64url of SHA-256 of the token's UTF-8 bytes>}. A slow,
 * salted hash protects guessable passwords; a 256-bit random token cannot be guessed, so one SHA-256 keeps it safe at
 * rest and costs a request (and the gateway's event loop) next to nothing, even when the token presented is wrong.
 *
 * <p>From a shell ({@code java -cp waitroom-contract.jar dev.waitroom.contract.ops.OperatorTokens}):
 *
 * <pre>
 * OperatorTokens new    # prints a fresh token (hand it to the operator) and its hash (configure that)
 * OperatorTokens hash   # reads a token from standard input, prints its hash
 * </pre>
 *
 * The token is never taken from the command line, where the shell's history and the process list would keep it.
 */
public final class OperatorTokens {

    /** The prefix of a hash: the algorithm, so another one can be added without ambiguity. */
    public static final String SCHEME = "sha256:";

    /** Shorter tokens are refused when hashed: only a long random token is safe under a fast hash. */
    public static final int MIN_TOKEN_LENGTH = 32;

    private static final int TOKEN_BYTES = 32;

    private static final int DIGEST_BYTES = 32;

    private static final SecureRandom RANDOM = new SecureRandom();

    private OperatorTokens() {}

    /** A fresh token: 32 random bytes, base64url without padding. */
    public static String generate() {
        byte[] bytes = new byte[TOKEN_BYTES];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /** The stored form of a token ({@code sha256:...}); a token shorter than {@value #MIN_TOKEN_LENGTH} is refused. */
    public static String hash(String token) {
        if (token == null || token.strip().length() < MIN_TOKEN_LENGTH) {
            throw new MalformedValueException("an operator token is at least " + MIN_TOKEN_LENGTH
                    + " characters of random data; make one with 'OperatorTokens new'");
        }
        return SCHEME + Base64.getUrlEncoder().withoutPadding().encodeToString(digest(token.strip()));
    }

    /** SHA-256 of the token's UTF-8 bytes: what a hash holds and what a presented token is compared by. */
    static byte[] digest(String token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException ex) {
            throw new IllegalStateException("SHA-256 is part of every JDK", ex);
        }
    }

    /** The digest a hash holds; a value that is not a hash of this form is refused without being echoed. */
    static byte[] parse(String hash) {
        if (hash != null && hash.startsWith(SCHEME)) {
            try {
                byte[] digest = Base64.getUrlDecoder()
                        .decode(hash.substring(SCHEME.length()).strip());
                if (digest.length == DIGEST_BYTES) {
                    return digest;
                }
            } catch (IllegalArgumentException ex) {
                // reported below
            }
        }
        throw new MalformedValueException(
                "an operator token hash is '" + SCHEME
                        + "' and the base64url SHA-256 of the token (make one with 'OperatorTokens new' or 'OperatorTokens hash')");
    }

    public static void main(String[] args) throws IOException {
        String command = args.length == 1 ? args[0] : "";
        switch (command) {
            case "new" -> {
                String token = generate();
                System.out.println("token=" + token);
                System.out.println("token-hash=" + hash(token));
            }
            case "hash" -> {
                var in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
                String token = in.readLine();
                System.out.println(hash(token == null ? "" : token));
            }
            default -> {
                System.err.println("usage: OperatorTokens new | OperatorTokens hash < token");
                System.exit(2);
            }
        }
    }
}
