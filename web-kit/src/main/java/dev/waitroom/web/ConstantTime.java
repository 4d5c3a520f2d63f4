package dev.waitroom.web;

/** Compares a configured secret with a presented value in time that depends on the secret's length only. */
final class ConstantTime {

    private ConstantTime() {}

    static boolean equals(String secret, String presented) {
        return presented != null && equals(secret, presented, 0, presented.length());
    }

    /** Compares with {@code presented[from, to)}, so a credential inside a header needs no copy. */
    static boolean equals(String secret, String presented, int from, int to) {
        int length = to - from;
        int difference = secret.length() ^ length;
        for (int i = 0; i < secret.length(); i++) {
            char c = i < length ? presented.charAt(from + i) : 0;
            difference |= secret.charAt(i) ^ c;
        }
        return difference == 0;
    }
}
