package dev.waitroom.web;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Path patterns compiled once at start-up and matched without regular expressions or allocation: {@code /a/b} (that
 * path), {@code /a/**} ({@code /a} and everything below it) and {@code /**} (every path), each optionally preceded by
 * an HTTP method ({@code GET /.well-known/jwks.json}). Anything else is refused when the service starts, so a pattern
 * never means something other than what it reads as.
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

    private record Rule(String method, String prefix, boolean subtree) {

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
                if (c == '*' || c == '?' || c == '{' || c == '}' || c == ';' || c == '%' || c == '\\' || c <= ' ') {
                    throw invalid(pattern, "only '/a/b', '/a/**' and '/**' are supported (no '" + c + "')");
                }
            }
            if (prefix.contains("//")
                    || prefix.contains("/./")
                    || prefix.contains("/../")
                    || prefix.endsWith("/.")
                    || prefix.endsWith("/..")) {
                throw invalid(pattern, "it must be a normalised path");
            }
            return new Rule(method, prefix, subtree);
        }

        private static IllegalArgumentException invalid(String pattern, String why) {
            return new IllegalArgumentException(
                    String.format(Locale.ROOT, "path pattern '%s' is not accepted: %s", pattern, why));
        }

        boolean matches(String requestMethod, String path, boolean ignoreCase) {
            if (method != null && !method.equals(requestMethod)) {
                return false;
            }
            int length = prefix.length();
            if (!path.regionMatches(ignoreCase, 0, prefix, 0, length)) {
                return false;
            }
            if (!subtree) {
                return path.length() == length;
            }
            return path.length() == length || length == 0 || path.charAt(length) == '/';
        }
    }
}
