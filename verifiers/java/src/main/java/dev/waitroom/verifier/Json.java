package dev.waitroom.verifier;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small strict JSON reader for JWS headers, claims and JWKS documents: objects, arrays, strings, integers, booleans
 * and null. Fractions and exponents (no claim has one), duplicate members, trailing text and nesting deeper than 16
 * are refused with an {@link IllegalArgumentException}; so the verifier needs no JSON library.
 */
final class Json {

    private static final int MAX_DEPTH = 16;

    private final String text;
    private int at;

    private Json(String text) {
        this.text = text;
    }

    static Map<String, Object> parseObject(String text) {
        Json json = new Json(text);
        json.skipSpace();
        Object value = json.value(0);
        json.skipSpace();
        if (json.at != text.length() || !(value instanceof Map)) {
            throw new IllegalArgumentException("not a JSON object");
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> object = (Map<String, Object>) value;
        return object;
    }

    private Object value(int depth) {
        if (depth > MAX_DEPTH) {
            throw new IllegalArgumentException("nested too deep");
        }
        char c = peek();
        switch (c) {
            case '{':
                return object(depth);
            case '[':
                return array(depth);
            case '"':
                return string();
            case 't':
                return literal("true", Boolean.TRUE);
            case 'f':
                return literal("false", Boolean.FALSE);
            case 'n':
                return literal("null", null);
            default:
                return number();
        }
    }

    private Map<String, Object> object(int depth) {
        Map<String, Object> members = new LinkedHashMap<>();
        at++;
        skipSpace();
        if (peek() == '}') {
            at++;
            return members;
        }
        while (true) {
            skipSpace();
            if (peek() != '"') {
                throw new IllegalArgumentException("member name expected");
            }
            String name = string();
            skipSpace();
            expect(':');
            skipSpace();
            Object value = value(depth + 1);
            if (members.containsKey(name)) {
                throw new IllegalArgumentException("duplicate member");
            }
            members.put(name, value);
            skipSpace();
            char c = next();
            if (c == '}') {
                return members;
            }
            if (c != ',') {
                throw new IllegalArgumentException("',' or '}' expected");
            }
        }
    }

    private List<Object> array(int depth) {
        List<Object> items = new ArrayList<>();
        at++;
        skipSpace();
        if (peek() == ']') {
            at++;
            return items;
        }
        while (true) {
            skipSpace();
            items.add(value(depth + 1));
            skipSpace();
            char c = next();
            if (c == ']') {
                return items;
            }
            if (c != ',') {
                throw new IllegalArgumentException("',' or ']' expected");
            }
        }
    }

    private String string() {
        expect('"');
        StringBuilder out = new StringBuilder();
        while (true) {
            char c = next();
            if (c == '"') {
                return out.toString();
            }
            if (c < 0x20) {
                throw new IllegalArgumentException("control character in string");
            }
            if (c != '\\') {
                out.append(c);
                continue;
            }
            char escaped = next();
            switch (escaped) {
                case '"', '\\', '/' -> out.append(escaped);
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                case 'u' -> {
                    if (at + 4 > text.length()) {
                        throw new IllegalArgumentException("short \\u escape");
                    }
                    out.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
                    at += 4;
                }
                default -> throw new IllegalArgumentException("bad escape");
            }
        }
    }

    private Long number() {
        int start = at;
        if (peek() == '-') {
            at++;
        }
        int digits = at;
        while (at < text.length() && text.charAt(at) >= '0' && text.charAt(at) <= '9') {
            at++;
        }
        int count = at - digits;
        if (count == 0 || count > 18 || (count > 1 && text.charAt(digits) == '0')) {
            throw new IllegalArgumentException("an integer of at most 18 digits expected");
        }
        if (at < text.length() && (text.charAt(at) == '.' || text.charAt(at) == 'e' || text.charAt(at) == 'E')) {
            throw new IllegalArgumentException("only integers");
        }
        return Long.parseLong(text.substring(start, at));
    }

    private Object literal(String word, Object value) {
        if (!text.startsWith(word, at)) {
            throw new IllegalArgumentException("unexpected literal");
        }
        at += word.length();
        return value;
    }

    private void skipSpace() {
        while (at < text.length()) {
            char c = text.charAt(at);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                return;
            }
            at++;
        }
    }

    private char peek() {
        if (at >= text.length()) {
            throw new IllegalArgumentException("unexpected end");
        }
        return text.charAt(at);
    }

    private char next() {
        char c = peek();
        at++;
        return c;
    }

    private void expect(char c) {
        if (next() != c) {
            throw new IllegalArgumentException("'" + c + "' expected");
        }
    }
}
