package dev.waitroom.web;

import jakarta.servlet.http.HttpServletRequest;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * The path a request names, as the credential checks see it: percent-decoded, {@code ;} path parameters removed and
 * empty segments ({@code //}) collapsed. A path that components could read differently is refused instead
 * ({@code null}): dot segments, raw or encoded ({@code /a/../b}, {@code %2e%2e}), because the container resolves them
 * while Spring MVC matches them as literal segments; encoded separators ({@code %2F}, {@code %5C}) and backslashes;
 * double encoding ({@code %25}); encoded {@code ;}; control characters; characters outside ASCII that were not
 * percent-encoded; malformed escapes or UTF-8.
 */
final class RequestPaths {

    private RequestPaths() {}

    /** The normalised path below the context path, or {@code null} when it is ambiguous. */
    static String normalised(HttpServletRequest request) {
        String uri = request.getRequestURI();
        String context = request.getContextPath();
        if (!context.isEmpty()) {
            if (!uri.startsWith(context)) {
                return null;
            }
            uri = uri.substring(context.length());
        }
        return normalise(uri);
    }

    static String normalise(String raw) {
        if (raw == null || raw.isEmpty()) {
            return "/";
        }
        if (raw.charAt(0) != '/') {
            return null;
        }
        // The common case, a path already in normal form, is returned as it is: no copy.
        return isPlain(raw) ? raw : rebuild(raw);
    }

    private static boolean isPlain(String raw) {
        int length = raw.length();
        for (int i = 0; i < length; i++) {
            char c = raw.charAt(i);
            if (c == '%' || c == ';' || c == '\\' || c < 0x20 || c >= 0x7f) {
                return false;
            }
            if (c == '/' && i + 1 < length) {
                char next = raw.charAt(i + 1);
                if (next == '/' || (next == '.' && isDotSegment(raw, i + 1, segmentEnd(raw, i + 1)))) {
                    return false;
                }
            }
        }
        return true;
    }

    private static String rebuild(String raw) {
        int length = raw.length();
        StringBuilder path = new StringBuilder(length);
        int start = 1;
        while (start <= length) {
            int end = segmentEnd(raw, start);
            int parameters = raw.indexOf(';', start);
            int valueEnd = parameters >= 0 && parameters < end ? parameters : end;
            String segment = decode(raw, start, valueEnd);
            if (segment == null || segment.equals(".") || segment.equals("..")) {
                return null;
            }
            if (!segment.isEmpty()) {
                path.append('/').append(segment);
            }
            start = end + 1;
        }
        if (path.length() == 0) {
            return "/";
        }
        if (raw.charAt(length - 1) == '/') {
            path.append('/');
        }
        return path.toString();
    }

    private static int segmentEnd(String raw, int start) {
        int slash = raw.indexOf('/', start);
        return slash < 0 ? raw.length() : slash;
    }

    private static boolean isDotSegment(String raw, int start, int end) {
        int length = end - start;
        return (length == 1 && raw.charAt(start) == '.')
                || (length == 2 && raw.charAt(start) == '.' && raw.charAt(start + 1) == '.');
    }

    /** One segment, percent-decoded as UTF-8; {@code null} when malformed or when it decodes to a refused character. */
    private static String decode(String raw, int start, int end) {
        boolean escaped = false;
        for (int i = start; i < end; i++) {
            char c = raw.charAt(i);
            if (c >= 0x80) {
                // a raw byte the container turned into a character with a charset of its choosing: ambiguous
                return null;
            }
            escaped |= c == '%';
        }
        if (!escaped) {
            String segment = raw.substring(start, end);
            return hasRefusedCharacter(segment) ? null : segment;
        }
        byte[] bytes = new byte[end - start];
        int count = 0;
        for (int i = start; i < end; i++) {
            char c = raw.charAt(i);
            if (c != '%') {
                bytes[count++] = (byte) c;
                continue;
            }
            if (i + 2 >= end) {
                return null;
            }
            int high = Character.digit(raw.charAt(i + 1), 16);
            int low = Character.digit(raw.charAt(i + 2), 16);
            if (high < 0 || low < 0) {
                return null;
            }
            bytes[count++] = (byte) ((high << 4) | low);
            i += 2;
        }
        String segment;
        try {
            CharBuffer chars = StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes, 0, count));
            segment = chars.toString();
        } catch (CharacterCodingException e) {
            return null;
        }
        return hasRefusedCharacter(segment) ? null : segment;
    }

    private static boolean hasRefusedCharacter(String segment) {
        for (int i = 0; i < segment.length(); i++) {
            char c = segment.charAt(i);
            if (c == '/' || c == '\\' || c == '%' || c == ';' || c < 0x20 || c == 0x7f) {
                return true;
            }
        }
        return false;
    }
}
