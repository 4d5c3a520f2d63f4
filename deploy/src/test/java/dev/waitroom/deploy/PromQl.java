package dev.waitroom.deploy;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The vector selectors of a PromQL expression: each metric name with its label matchers, wherever it stands (inside
 * functions, aggregations, binary operations, range and subquery brackets). No PromQL parser for Java is maintained
 * on Maven Central, so this is a small tokenizer over the constructs PromQL has: identifiers, string literals (double,
 * single and back quotes, with escapes), numbers and durations ({@code 0.95}, {@code 1e-9}, {@code 0x1f}, {@code 5m},
 * {@code Inf}), brackets, operators, {@code # comments}. Recognised without evaluating anything:
 *
 * <ul>
 *   <li>a name followed by {@code (} is a function ({@code rate}, {@code histogram_quantile}, ...) and an aggregation
 *       operator ({@code sum}, {@code max}, {@code topk}, ...) is one whether its {@code by}/{@code without} clause
 *       comes before or after its argument;
 *   <li>{@code by}, {@code without}, {@code on}, {@code ignoring}, {@code group_left}, {@code group_right} are followed
 *       by a list of label names, not selectors;
 *   <li>{@code bool}, {@code and}, {@code or}, {@code unless}, {@code offset}, {@code atan2}, {@code @ start()} and the
 *       numbers {@code Inf} and {@code NaN} are keywords;
 *   <li>what stands between {@code [} and {@code ]} (a range, a subquery's range and step) is skipped;
 *   <li>any other name is a metric name, and a {@code {...}} after it, or standing alone, holds its matchers
 *       ({@code =}, {@code !=}, {@code =~}, {@code !~}; {@code __name__} names the metric).
 * </ul>
 *
 * A malformed expression (an unclosed bracket or string, a matcher without its value, a character PromQL does not
 * have) throws {@link IllegalArgumentException}. Grafana's template variables are replaced first by
 * {@link #grafana(String)}.
 */
final class PromQl {

    private static final Set<String> AGGREGATIONS = Set.of(
            "sum",
            "min",
            "max",
            "avg",
            "group",
            "stddev",
            "stdvar",
            "count",
            "count_values",
            "bottomk",
            "topk",
            "quantile",
            "limitk",
            "limit_ratio");

    private static final Set<String> LABEL_LISTS =
            Set.of("by", "without", "on", "ignoring", "group_left", "group_right");

    private static final Set<String> KEYWORDS =
            Set.of("bool", "and", "or", "unless", "offset", "atan2", "start", "end", "inf", "nan");

    /** Grafana's interval variables, which stand for a duration: replaced by one Prometheus accepts. */
    private static final Pattern INTERVAL_VARIABLE =
            Pattern.compile("\\$\\{?__(?:rate_interval|interval|range)(?:_ms|_s)?}?|\\[\\[__(?:interval|range)]]");

    /** Any other template variable ({@code $event}, {@code ${event}}, {@code [[event]]}). */
    private static final Pattern TEMPLATE_VARIABLE = Pattern.compile(
            "\\$\\{[A-Za-z_][A-Za-z0-9_]*(?::[a-z]+)?}|\\$[A-Za-z_][A-Za-z0-9_]*|\\[\\[[A-Za-z_]\\w*]]");

    private PromQl() {}

    /** One label matcher: {@code label op "value"}. */
    record Matcher(String label, String op, String value) {

        Matcher {
            if (!Set.of("=", "!=", "=~", "!~").contains(op)) {
                throw new IllegalArgumentException("not a label matcher operator: " + op);
            }
        }

        /** Whether a series whose label is {@code actual} (empty when it has none, as in Prometheus) is selected. */
        boolean matches(String actual) {
            String v = actual == null ? "" : actual;
            return switch (this.op) {
                case "=" -> v.equals(this.value);
                case "!=" -> !v.equals(this.value);
                case "=~" ->
                    Pattern.compile(this.value, Pattern.DOTALL).matcher(v).matches();
                default ->
                    !Pattern.compile(this.value, Pattern.DOTALL).matcher(v).matches();
            };
        }

        @Override
        public String toString() {
            return this.label + this.op + '"' + this.value + '"';
        }
    }

    /** One vector selector: a metric name (null when only matchers name it) and its matchers. */
    record Selector(String metric, List<Matcher> matchers) {

        Selector {
            matchers = List.copyOf(matchers);
        }

        /** Whether this selector selects the series {@code name{labels}}. */
        boolean matches(String name, Map<String, String> labels) {
            if (this.metric != null && !this.metric.equals(name)) {
                return false;
            }
            for (Matcher m : this.matchers) {
                String actual = m.label().equals("__name__") ? name : labels.get(m.label());
                if (!m.matches(actual)) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public String toString() {
            StringBuilder text = new StringBuilder(this.metric == null ? "" : this.metric);
            if (!this.matchers.isEmpty() || this.metric == null) {
                text.append('{');
                for (int i = 0; i < this.matchers.size(); i++) {
                    text.append(i == 0 ? "" : ",").append(this.matchers.get(i));
                }
                text.append('}');
            }
            return text.toString();
        }
    }

    /**
     * A Grafana panel's expression as Prometheus receives it for the dashboard's default view: an interval variable
     * ({@code $__rate_interval}, {@code $__interval}, {@code $__range}) becomes {@code 5m}, any other variable (an
     * {@code $event} with "All" chosen) {@code .*}, so a label value holding one must be matched with {@code =~}.
     */
    static String grafana(String expr) {
        String intervals = INTERVAL_VARIABLE.matcher(expr).replaceAll("5m");
        return TEMPLATE_VARIABLE.matcher(intervals).replaceAll(".*");
    }

    /** Every vector selector of {@code expr}, in the order they appear. */
    static List<Selector> selectors(String expr) {
        List<Token> tokens = tokenize(expr);
        List<Selector> selectors = new ArrayList<>();
        int i = 0;
        while (i < tokens.size()) {
            Token t = tokens.get(i);
            if (t.kind == Kind.IDENT) {
                String lower = t.text.toLowerCase(Locale.ROOT);
                if (LABEL_LISTS.contains(lower)) {
                    i = is(tokens, i + 1, "(") ? skipGroup(tokens, i + 1, expr) : i + 1;
                } else if (KEYWORDS.contains(lower) || AGGREGATIONS.contains(lower) || is(tokens, i + 1, "(")) {
                    i++;
                } else if (is(tokens, i + 1, "{")) {
                    List<Matcher> matchers = new ArrayList<>();
                    i = matchers(tokens, i + 1, matchers, expr);
                    selectors.add(new Selector(t.text, matchers));
                } else {
                    selectors.add(new Selector(t.text, List.of()));
                    i++;
                }
            } else if (t.is("{")) {
                List<Matcher> matchers = new ArrayList<>();
                i = matchers(tokens, i, matchers, expr);
                String name = matchers.stream()
                        .filter(m -> m.label().equals("__name__") && m.op().equals("="))
                        .map(Matcher::value)
                        .findFirst()
                        .orElse(null);
                selectors.add(new Selector(
                        name,
                        name == null
                                ? matchers
                                : matchers.stream()
                                        .filter(m -> !(m.label().equals("__name__") && m.op().equals("=")))
                                        .toList()));
            } else {
                i++;
            }
        }
        return selectors;
    }

    /** Reads {@code { label op "value", ... }} from {@code open} (the brace); returns the index after the brace. */
    private static int matchers(List<Token> tokens, int open, List<Matcher> into, String expr) {
        int i = open + 1;
        while (true) {
            if (is(tokens, i, "}")) {
                return i + 1;
            }
            if (i + 2 >= tokens.size()
                    || tokens.get(i).kind != Kind.IDENT
                    || tokens.get(i + 1).kind != Kind.OP
                    || tokens.get(i + 2).kind != Kind.STRING) {
                throw new IllegalArgumentException("malformed label matcher at token " + i + " of: " + expr);
            }
            into.add(new Matcher(tokens.get(i).text, tokens.get(i + 1).text, tokens.get(i + 2).text));
            i += 3;
            if (is(tokens, i, ",")) {
                i++;
            } else if (!is(tokens, i, "}")) {
                throw new IllegalArgumentException("expected , or } after a label matcher in: " + expr);
            }
        }
    }

    /** Skips a parenthesised group from {@code open}; returns the index after its closing parenthesis. */
    private static int skipGroup(List<Token> tokens, int open, String expr) {
        int depth = 0;
        for (int i = open; i < tokens.size(); i++) {
            if (tokens.get(i).is("(")) {
                depth++;
            } else if (tokens.get(i).is(")") && --depth == 0) {
                return i + 1;
            }
        }
        throw new IllegalArgumentException("unclosed ( in: " + expr);
    }

    private static boolean is(List<Token> tokens, int i, String punct) {
        return i < tokens.size() && tokens.get(i).is(punct);
    }

    enum Kind {
        IDENT,
        STRING,
        NUMBER,
        PUNCT,
        OP
    }

    record Token(Kind kind, String text) {

        boolean is(String punct) {
            return this.kind == Kind.PUNCT && this.text.equals(punct);
        }
    }

    /** Splits {@code expr} into tokens; a range or subquery in brackets is dropped, parentheses and braces checked. */
    static List<Token> tokenize(String expr) {
        List<Token> tokens = new ArrayList<>();
        List<Character> open = new ArrayList<>();
        int i = 0;
        int n = expr.length();
        while (i < n) {
            char c = expr.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '#') {
                while (i < n && expr.charAt(i) != '\n') {
                    i++;
                }
            } else if (c == '"' || c == '\'' || c == '`') {
                StringBuilder value = new StringBuilder();
                int j = i + 1;
                while (true) {
                    if (j >= n) {
                        throw new IllegalArgumentException("unclosed string literal in: " + expr);
                    }
                    char d = expr.charAt(j);
                    if (d == c) {
                        break;
                    }
                    if (d == '\\' && c != '`') {
                        if (j + 1 >= n) {
                            throw new IllegalArgumentException("unclosed string literal in: " + expr);
                        }
                        char e = expr.charAt(j + 1);
                        value.append(
                                switch (e) {
                                    case 'n' -> '\n';
                                    case 't' -> '\t';
                                    case 'r' -> '\r';
                                    default -> e;
                                });
                        j += 2;
                        continue;
                    }
                    value.append(d);
                    j++;
                }
                tokens.add(new Token(Kind.STRING, value.toString()));
                i = j + 1;
            } else if (Character.isDigit(c) || (c == '.' && i + 1 < n && Character.isDigit(expr.charAt(i + 1)))) {
                int j = i;
                while (j < n) {
                    char d = expr.charAt(j);
                    boolean exponentSign = (d == '+' || d == '-')
                            && (expr.charAt(j - 1) == 'e' || expr.charAt(j - 1) == 'E')
                            && !expr.substring(i, j).toLowerCase(Locale.ROOT).startsWith("0x");
                    if (Character.isLetterOrDigit(d) || d == '.' || d == '_' || exponentSign) {
                        j++;
                    } else {
                        break;
                    }
                }
                tokens.add(new Token(Kind.NUMBER, expr.substring(i, j)));
                i = j;
            } else if (Character.isLetter(c) || c == '_' || c == ':') {
                int j = i + 1;
                while (j < n
                        && (Character.isLetterOrDigit(expr.charAt(j))
                                || expr.charAt(j) == '_'
                                || expr.charAt(j) == ':')) {
                    j++;
                }
                tokens.add(new Token(Kind.IDENT, expr.substring(i, j)));
                i = j;
            } else if (c == '[') {
                int close = expr.indexOf(']', i);
                if (close < 0) {
                    throw new IllegalArgumentException("unclosed [ in: " + expr);
                }
                if (expr.substring(i + 1, close).isBlank()) {
                    throw new IllegalArgumentException("empty range [] in: " + expr);
                }
                i = close + 1;
            } else if (c == '(' || c == '{') {
                open.add(c);
                tokens.add(new Token(Kind.PUNCT, String.valueOf(c)));
                i++;
            } else if (c == ')' || c == '}') {
                char expected = c == ')' ? '(' : '{';
                if (open.isEmpty() || open.remove(open.size() - 1) != expected) {
                    throw new IllegalArgumentException("unbalanced " + c + " in: " + expr);
                }
                tokens.add(new Token(Kind.PUNCT, String.valueOf(c)));
                i++;
            } else if (c == ',') {
                tokens.add(new Token(Kind.PUNCT, ","));
                i++;
            } else {
                String two = i + 1 < n ? expr.substring(i, i + 2) : "";
                if (List.of("==", "!=", "<=", ">=", "=~", "!~").contains(two)) {
                    tokens.add(new Token(Kind.OP, two));
                    i += 2;
                } else if ("=<>+-*/%^@".indexOf(c) >= 0) {
                    tokens.add(new Token(Kind.OP, String.valueOf(c)));
                    i++;
                } else {
                    throw new IllegalArgumentException("unexpected '" + c + "' at " + i + " in: " + expr);
                }
            }
        }
        if (!open.isEmpty()) {
            throw new IllegalArgumentException("unclosed " + open.get(open.size() - 1) + " in: " + expr);
        }
        return tokens;
    }
}
