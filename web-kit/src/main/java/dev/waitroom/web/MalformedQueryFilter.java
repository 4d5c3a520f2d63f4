package dev.waitroom.web;

import dev.waitroom.contract.ProblemType;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Refuses a query string that cannot be decoded (a {@code %} not followed by two hex digits, or escapes that are not
 * UTF-8) with 400 {@code malformed-request}, before anything reads a parameter. Tomcat parses parameters only when a
 * handler asks, and then drops what it cannot decode, so without this the same request was a 200 on one route and a
 * 400 without a problem body on another. A query of plain characters and well-formed escapes costs one scan.
 */
final class MalformedQueryFilter extends WebKitFilter {

    static final String DETAIL = "The query has a '%' not followed by two hex digits, or escapes that are not UTF-8.";

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String query = request.getQueryString();
        if (query != null && !decodes(query)) {
            ProblemResponses.write(response, ProblemType.MALFORMED_REQUEST, DETAIL, request);
            return;
        }
        chain.doFilter(request, response);
    }

    /** Whether every escape is {@code %} and two hex digits, and the escaped bytes are UTF-8. */
    static boolean decodes(String query) {
        int length = query.length();
        boolean escapesAboveAscii = false;
        for (int i = 0; i < length; i++) {
            char c = query.charAt(i);
            if (c == '%') {
                if (i + 2 >= length || hex(query.charAt(i + 1)) < 0 || hex(query.charAt(i + 2)) < 0) {
                    return false;
                }
                escapesAboveAscii |= hex(query.charAt(i + 1)) >= 8;
                i += 2;
            }
        }
        return !escapesAboveAscii || utf8(query);
    }

    private static boolean utf8(String query) {
        byte[] bytes = new byte[query.length()];
        int n = 0;
        for (int i = 0; i < query.length(); i++) {
            char c = query.charAt(i);
            if (c == '%') {
                bytes[n++] = (byte) (hex(query.charAt(i + 1)) * 16 + hex(query.charAt(i + 2)));
                i += 2;
            } else {
                bytes[n++] = (byte) c;
            }
        }
        try {
            StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes, 0, n));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }

    private static int hex(char c) {
        return Character.digit(c, 16);
    }
}
