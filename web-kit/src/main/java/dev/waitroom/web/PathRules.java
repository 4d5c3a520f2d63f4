package dev.waitroom.web;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Path patterns compiled once at start-up and matched without regular expressions or allocation: {@code /a/b} (that
 * path), {@code /a/**} ({@code /a} and everything below it) and {@code /**} (every path), where a segment may be
 * {@code *} (exactly one non-empty segment, {@code /events/*}{@code /status}), each optionally preceded by an HTTP method
 * ({@code GET /.well-known/jwks.json}). Anything else is refused when the service starts, so a pattern never means
 * something other than what it reads as.
 */
final class PathRules {

    private static final PathRules NONE = new PathRules(new Rule[0]);

    private final Rule[] rules;

    private PathRules(Rule[] rules) {
        this.rules = rules;
    }

    static PathRules of(List<String> patterns) {
        if (patterns == null || patterns.isEmpty()) {
            return NONE;
        }
        List<Rule> rules = new ArrayList<>(patterns.size());
        for (String pattern : patterns) {
            rules.add(Rule.parse(pattern));
        }
        return new PathRules(rules.toArray(Rule[]::new));
    }

    boolean isEmpty() {
        return rules.length == 0;
    }

    /**
     * Whether a normalised path (and method) matches any rule. {@code ignoreCase} widens the match: protected paths
     * match in any case (a case-insensitive router must not find an unprotected spelling), exemptions only exactly.
     */
    boolean matches(String method, String path, boolean ignoreCase) {
        for (Rule rule : rules) {
            if (rule.matches(method, path, ignoreCase)) {
                return true;
            }
        }
        return false;
    }

    /**
     * @param segments the path's segments in order, {@code null} for a {@code *}
     * @param subtree whether the pattern ends in {@code /**}
     */
    private record Rule(String method, String[] segments, boolean subtree) {

        static Rule parse(String pattern) {
            String text = pattern == null ? "" : pattern.strip();
            String method = null;
            int space = text.indexOf(' ');
            if (space > 0) {
                method = text.substring(0, space);
                text = text.substring(space + 1).strip();
                if (!method.chars().allMatch(c -> c >= 'A' && c <= 'Z')) {
                    throw invalid(pattern, "the method must be upper case, e.g. 'GET /path'");
                }
            }
            boolean subtree = text.equals("/**") || text.endsWith("/**");
            String prefix = subtree ? text.substring(0, text.length() - 3) : text;
            if (!subtree && !prefix.startsWith("/")) {
                throw invalid(pattern, "it must start with '/'");
            }
            if (subtree && !prefix.isEmpty() && !prefix.startsWith("/")) {
                throw invalid(pattern, "it must start with '/'");
            }
            if (prefix.length() > 1 && prefix.endsWith("/")) {
                throw invalid(pattern, "it must not end with '/'");
            }
            for (int i = 0; i < prefix.length(); i++) {
                char c = prefix.charAt(i);
                boolean wholeSegmentStar = c == '*'
                        && prefix.charAt(i - 1) == '/'
                        && (i + 1 == prefix.length() || prefix.charAt(i + 1) == '/');
                if ((c == '*' && !wholeSegmentStar)
                        || c == '?'
                        || c == '{'
                        || c == '}'
                        || c == ';'
                        || c == '%'
                        || c == '\\'
                        || c <= ' ') {
                    throw invalid(
                            pattern, "only '/a/b', '/a/*/b', '/a/**' and '/**' are supported (no '" + c + "' there)");
                }
            }
            if (prefix.contains("//")
                    || prefix.contains("/./")
                    || prefix.contains("/../")
                    || prefix.endsWith("/.")
                    || prefix.endsWith("/..")) {
                throw invalid(pattern, "it must be a normalised path");
            }
            String[] segments =
                    prefix.isEmpty() ? new String[0] : prefix.substring(1).split("/", -1);
            for (int i = 0; i < segments.length; i++) {
                if (segments[i].equals("*")) {
                    segments[i] = null;
                }
            }
            return new Rule(method, segments, subtree);
        }

        private static IllegalArgumentException invalid(String pattern, String why) {
            return new IllegalArgumentException(
                    String.format(Locale.ROOT, "path pattern '%s' is not accepted: %s", pattern, why));
        }

        boolean matches(String requestMethod, String path, boolean ignoreCase) {
            if (method != null && !method.equals(requestMethod)) {
                return false;
            }
            int position = 0;
            for (String segment : segments) {
                if (position >= path.length() || path.charAt(position) != '/') {
                    return false;
                }
                int start = position + 1;
                int end = path.indexOf('/', start);
                if (end < 0) {
                    end = path.length();
                }
                if (segment == null) {
                    if (end == start) {
                        return false;
                    }
                } else if (end - start != segment.length()
                        || !path.regionMatches(ignoreCase, start, segment, 0, segment.length())) {
                    return false;
                }
                position = end;
            }
            if (!subtree) {
                return position == path.length();
            }
            return position == path.length() || path.charAt(position) == '/';
        }
    }
}
